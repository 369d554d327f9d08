#if !canImport(CoreData)
import ModelQuery

/// Per entity, what inserting and saving an object has to look at, worked out once when the
/// engine takes up the model (a model in use no longer changes): the slots validation checks
/// and the default values of attributes. Slots with nothing to check (optional, transient or
/// unconstrained attributes) are not visited per object.
struct WriteChecks {
    /// Slots in slot order that validation checks: relationships, and persistent attributes
    /// that are required or have validation predicates.
    let validatedSlots: [Int]
    /// Attributes with a default value: the slot and the value in its stored form.
    let defaultValues: [(slot: Int, value: Any)]
    /// When every written column is an attribute's own column (no composites, no to-ones): the
    /// slot and type of each, in written-column order, so a row binds without inspecting kinds
    /// (see ``RowBinding``).
    let attributeColumns: [AttributeColumn]?
    /// Per slot, for attributes whose values have one stored Swift type: that type's metadata,
    /// so a value already of it is stored without converting (nil for other slots).
    let storedTypes: [UnsafeRawPointer?]
    /// Stored transformable attributes that name a value transformer: the slot and the name.
    /// Their values are the transformer's objects in memory and its `Data` in the store (the
    /// transformer is looked up by name when used, so one registered after the model was
    /// loaded counts; an unregistered name leaves the value as `Data`).
    let transformedSlots: [(slot: Int, name: NSValueTransformerName)]

    init(properties: [NSPropertyDescription], kinds: [SlotKind], written: [(column: Int32, slot: Int, leaf: Int?)]) {
        var columns: [AttributeColumn]? = []
        for column in written {
            guard column.leaf == nil, case .attribute(let type, _?) = kinds[column.slot] else {
                columns = nil
                break
            }
            columns?.append(AttributeColumn(slot: column.slot, type: type))
        }
        attributeColumns = columns
        var validated: [Int] = []
        var defaults: [(slot: Int, value: Any)] = []
        for (slot, property) in properties.enumerated() {
            if let attribute = property as? NSAttributeDescription, let value = attribute.defaultValue,
                let normalized = Self.normalized(value, kind: kinds[slot])
            {
                defaults.append((slot, normalized))
            }
            if property.isTransient { continue }
            if property is NSRelationshipDescription || !property.isOptional || !property.validationPredicates.isEmpty {
                validated.append(slot)
            }
        }
        validatedSlots = validated
        storedTypes = kinds.map { kind in
            guard case .attribute(let type, _) = kind, let stored = StoreValueCodec.storedType(of: type) else { return nil }
            return unsafeBitCast(stored, to: UnsafeRawPointer.self)
        }
        defaultValues = defaults
        transformedSlots = properties.enumerated().compactMap { slot, property in
            guard let attribute = property as? NSAttributeDescription, attribute.attributeType == .transformableAttributeType,
                !attribute.isTransient, let name = attribute.valueTransformerName, !name.isEmpty
            else { return nil }
            return (slot, NSValueTransformerName(name))
        }
    }

    /// A value in the form object storage keeps for a slot of `kind` (as `setValue` stores it).
    static func normalized(_ value: Any?, kind: SlotKind) -> Any? {
        switch kind {
        case .attribute(let type, _): StoreValueCodec.normalized(value, as: type)
        default: KeyPathReader.unwrapped(value)
        }
    }
}
#endif

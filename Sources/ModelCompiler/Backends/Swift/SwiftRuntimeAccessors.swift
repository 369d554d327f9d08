import ModelSchema

/// How generated classes read and write their properties on platforms without Core Data, where
/// they subclass `ModelRuntime`'s `NSManagedObject`: every property is a computed property over a
/// storage slot named in the class's slot table (`Slots.name`, resolved per entity), through `value(atSlot:)` and
/// `setValue(_:atSlot:)`. The runtime keeps attribute values as native Swift values of the
/// attribute's type (`Int16`, `Decimal`, `[String: Any]` for composites); attributes of a Swift
/// type are read with `value(atSlot:as:)`, which gives what `value(atSlot:) as? T` gives but reads
/// the common types from their slot without boxing them or casting.
enum SwiftRuntimeAccessors {
    struct Accessor {
        /// The getter's expression.
        let read: String
        /// The value stored by the setter (nil: read-only).
        let write: String?
        /// The getter of the `…RawValue` property of an enum attribute.
        let rawRead: String?
    }

    static func attribute(_ attribute: Attribute, lookup: VersionLookup) -> Accessor {
        let slot = "Slots.\(SwiftPropertyName.spelling(attribute.name))"
        let value = "value(atSlot: \(slot))"
        /// The value as `type` (nil when unset or of another type).
        func typed(_ type: String) -> String { "value(atSlot: \(slot), as: \(type).self)" }
        let base = SwiftTypes.valueType(of: attribute, lookup: lookup)
        let optional = attribute.isOptional
        let readOnly = attribute.isDerived

        if let enumName = attribute.enumName, let enumType = lookup.version.enumType(named: enumName) {
            let rawType = enumType.rawType == .string ? "String" : SwiftTypes.scalarName(enumType.rawType)
            let storedType = attribute.type == .string ? "String" : SwiftTypes.scalarName(attribute.type)
            let rawRead =
                rawType == storedType || storedType == "Never"
                ? typed(rawType) : "\(typed(storedType)).flatMap { \(rawType)(exactly: $0) }"
            let read = "\(rawRead).flatMap(\(enumName).init(rawValue:))"
            let fallback = SwiftTypes.fallbackCase(for: attribute, in: enumType)
            return Accessor(
                read: optional ? read : "\(read) ?? .\(fallback)",
                write: readOnly ? nil : "newValue\(optional ? "?" : "").rawValue", rawRead: rawRead)
        }
        let write = readOnly ? nil : "newValue"
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal:
            return Accessor(read: typed(base) + (optional ? "" : " ?? 0"), write: write, rawRead: nil)
        case .boolean:
            return Accessor(read: typed("Bool") + (optional ? "" : " ?? false"), write: write, rawRead: nil)
        case .string, .date, .uuid, .uri, .objectID:
            // As with `@NSManaged` on Apple platforms, reading a required value that is unset traps.
            return Accessor(read: typed(base) + (optional ? "" : "!"), write: write, rawRead: nil)
        case .binaryData where attribute.customClassName == nil:
            return Accessor(read: typed(base) + (optional ? "" : "!"), write: write, rawRead: nil)
        case .undefined:
            return Accessor(read: value, write: write, rawRead: nil)
        case .binaryData, .transformable:
            return Accessor(read: "\(value) as? \(base)", write: write, rawRead: nil)
        case .composite(let name):
            let read = "(\(value) as? [String: Any]).flatMap(\(name).init(coreDataDictionary:))"
            if !optional, let zero = SwiftTypes.compositeZero(name, lookup: lookup) {
                return Accessor(read: "\(read) ?? \(zero)", write: readOnly ? nil : "newValue.coreDataDictionary", rawRead: nil)
            }
            return Accessor(read: read, write: readOnly ? nil : "newValue?.coreDataDictionary", rawRead: nil)
        }
    }

    /// The getter and the stored value of a relationship whose destination class is `destination`.
    static func relationship(_ relationship: Relationship, destination: String) -> (read: String, write: String) {
        let slot = "Slots.\(SwiftPropertyName.spelling(relationship.name))"
        if !relationship.isToMany {
            return ("value(atSlot: \(slot)) as\(relationship.isOptional ? "?" : "!") \(destination)", "newValue")
        }
        if relationship.isOrdered {
            return ("value(atSlot: \(slot)) as? NSOrderedSet ?? NSOrderedSet()", "newValue")
        }
        if destination == "NSManagedObject" { return ("Set(objects(atSlot: \(slot)))", "Array(newValue)") }
        return ("Set(objects(atSlot: \(slot)).lazy.compactMap { $0 as? \(destination) })", "Array(newValue)")
    }
}

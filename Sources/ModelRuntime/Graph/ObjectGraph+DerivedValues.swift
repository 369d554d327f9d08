#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// What a save's derived-attribute triggers computed, written into the objects: a change of the
/// graph's objects after a save, as the save's other settling of them (+Saves).
extension ObjectGraph {
    /// Gives the graph's registered objects the values the triggers computed (as a ``StoreSave``
    /// returns them), as their committed values: after a save an object reads its derived
    /// attributes as the store computed them, without being changed by it. Objects without values
    /// (hollow) read them with their row.
    func applyDerivedValues(_ changes: [(key: ObjectKey, property: String, value: SQLiteValue)]) {
        for change in changes {
            guard let object = registry[change.key], object.faultState != .hollow,
                let slot = object.engine.slotsByName[change.property],
                case .attribute(let type, _) = object.engine.slotKinds[slot]
            else { continue }
            let value = Self.derivedValue(change.value, as: type)
            object.setLoadedValue(value, at: slot, onlyOverUnloaded: false)
        }
    }

    /// A trigger's value as the attribute's Swift value (the triggers compute numbers, text
    /// and dates).
    static func derivedValue(_ value: SQLiteValue, as type: NSAttributeType) -> Any? {
        switch (value, type) {
        case (.null, _): return nil
        case (.integer(let number), .integer16AttributeType): return Int16(truncatingIfNeeded: number)
        case (.integer(let number), .integer32AttributeType): return Int32(truncatingIfNeeded: number)
        case (.integer(let number), .integer64AttributeType): return number
        case (.integer(let number), .booleanAttributeType): return number != 0
        case (.integer(let number), .doubleAttributeType): return Double(number)
        case (.integer(let number), .floatAttributeType): return Float(number)
        case (.integer(let number), .decimalAttributeType): return Decimal(number)
        case (.integer(let number), .dateAttributeType): return Date(timeIntervalSinceReferenceDate: Double(number))
        case (.real(let number), .integer16AttributeType): return Int16(truncatingIfNeeded: Int64(number))
        case (.real(let number), .integer32AttributeType): return Int32(truncatingIfNeeded: Int64(number))
        case (.real(let number), .integer64AttributeType): return Int64(number)
        case (.real(let number), .doubleAttributeType): return number
        case (.real(let number), .floatAttributeType): return Float(number)
        case (.real(let number), .decimalAttributeType): return Decimal(number)
        case (.real(let number), .dateAttributeType): return Date(timeIntervalSinceReferenceDate: number)
        case (.text(let text), .stringAttributeType): return text
        case (.text(let text), _): return text
        case (.blob(let bytes), _): return Data(bytes)
        case (.integer(let number), _): return number
        case (.real(let number), _): return number
        }
    }
}
#endif

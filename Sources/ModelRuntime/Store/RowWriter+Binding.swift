#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// One attribute column of a row: the slot it comes from, the attribute's type, and how a value
/// already in the attribute's stored Swift type is bound.
struct AttributeColumn {
    enum Kind {
        case int64, int32, int16, bool, double, float, date, string
        /// No stored type read in place: always bound through ``StoreValueCodec``.
        case other
    }

    let slot: Int
    let type: NSAttributeType
    let kind: Kind
    /// The type metadata of the stored Swift type (what an `Any` holding such a value records).
    let storedType: UnsafeRawPointer?

    init(slot: Int, type: NSAttributeType) {
        self.slot = slot
        self.type = type
        let kind: Kind
        switch type {
        case .integer64AttributeType: kind = .int64
        case .integer32AttributeType: kind = .int32
        case .integer16AttributeType: kind = .int16
        case .booleanAttributeType: kind = .bool
        case .doubleAttributeType: kind = .double
        case .floatAttributeType: kind = .float
        case .dateAttributeType: kind = .date
        case .stringAttributeType: kind = .string
        default: kind = .other
        }
        self.kind = kind
        storedType = kind == .other ? nil : StoreValueCodec.storedType(of: type).map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }
}

/// Binds attribute values straight from an object's value storage.
///
/// Values are kept as `Any?`. Binding one through ``StoreValueCodec/bind(_:as:to:at:)`` copies
/// the existential, asks the runtime for its dynamic type and destroys the copy (several hundred
/// instructions per value). The common stored types (integers, `Bool`, `Double`, `Float`,
/// `Date`, `String`) sit at the start of an `Any?`'s inline buffer, so when its metadata word is
/// the stored type's, the value is a load from the slot's own memory (see
/// ``StoredValueCast/layoutHolds``). Anything else — another dynamic type, a value that needs
/// converting — goes through ``StoreValueCodec`` as before.
enum RowBinding {
    private static let stride = MemoryLayout<Any?>.stride

    /// Binds an object's values (`cells`) at the columns' slots to parameters `first`,
    /// `first + 1`, …: every column, or those whose bit (by position) is set in `included`.
    static func bind(_ cells: ValueCells, columns: [AttributeColumn], to statement: Statement, from first: Int32, included: UInt64? = nil) {
        var index = first
        for (offset, column) in columns.enumerated() {
            if let included, included & (1 << UInt64(offset)) == 0 { continue }
            cells.bind(column, to: statement, at: index)
            index += 1
        }
    }

    /// Binds `values` (one per slot) at the columns' slots, as ``bind(_:columns:to:from:included:)``
    /// binds an object's.
    static func bind(
        _ values: UnsafeBufferPointer<Any?>, columns: [AttributeColumn], to statement: Statement, from first: Int32, included: UInt64? = nil
    ) {
        guard StoredValueCast.layoutHolds else {
            var index = first
            for (offset, column) in columns.enumerated() {
                if let included, included & (1 << UInt64(offset)) == 0 { continue }
                StoreValueCodec.bind(values[column.slot], as: column.type, to: statement, at: index)
                index += 1
            }
            return
        }
        let base = values.baseAddress!
        var index = first
        for (offset, column) in columns.enumerated() {
            if let included, included & (1 << UInt64(offset)) == 0 { continue }
            bind(base + column.slot, column: column, to: statement, at: index)
            index += 1
        }
    }

    /// Binds the `Any?` at `value`, of `column`'s attribute, to parameter `index`: nil as NULL, a
    /// value of the stored type by a load, anything else through ``StoreValueCodec``. Only when
    /// ``StoredValueCast/layoutHolds``.
    @inline(__always)
    static func bind(_ value: UnsafePointer<Any?>, column: AttributeColumn, to statement: Statement, at index: Int32) {
        let raw = UnsafeRawPointer(value)
        let metadata = StoredValueCast.metadata(at: raw)
        if metadata == nil {
            statement.bindNull(at: index)
        } else if metadata == column.storedType {
            switch column.kind {
            case .int64: statement.bind(raw.load(as: Int64.self), at: index)
            case .int32: statement.bind(Int64(raw.load(as: Int32.self)), at: index)
            case .int16: statement.bind(Int64(raw.load(as: Int16.self)), at: index)
            case .bool: statement.bind(Int64(raw.load(as: Bool.self) ? 1 : 0), at: index)
            case .double: statement.bind(raw.load(as: Double.self), at: index)
            case .float: statement.bind(Double(raw.load(as: Float.self)), at: index)
            case .date: statement.bind(raw.load(as: Date.self).timeIntervalSinceReferenceDate, at: index)
            case .string: statement.bind(raw.load(as: String.self), at: index)
            case .other: StoreValueCodec.bind(value.pointee, as: column.type, to: statement, at: index)
            }
        } else {
            StoreValueCodec.bind(value.pointee, as: column.type, to: statement, at: index)
        }
    }
}
#endif

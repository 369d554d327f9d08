#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// One attribute column of a row: the slot it comes from, the attribute's type, and how a value
/// already in the attribute's stored Swift type is bound.
struct AttributeColumn {
    let slot: Int
    let type: NSAttributeType
    /// The attribute's cell kind: `.any` for a type bound through ``StoreValueCodec`` always.
    let kind: ValueLayout.Kind
    /// The type metadata of the stored Swift type (what an `Any` holding such a value records).
    let storedType: UnsafeRawPointer?

    init(slot: Int, type: NSAttributeType) {
        self.slot = slot
        self.type = type
        kind = ValueLayout.Kind(type)
        storedType = kind.storedMetadata
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

    /// Binds the value of the type `kind` stores at `address` (a typed cell, or the start of an
    /// existential's inline buffer holding such a value) to parameter `index`; false for `.any`.
    @inline(__always)
    static func bindUnboxed(_ address: UnsafeRawPointer, kind: ValueLayout.Kind, to statement: Statement, at index: Int32) -> Bool {
        switch kind {
        case .int64: statement.bind(address.load(as: Int64.self), at: index)
        case .int32: statement.bind(Int64(address.load(as: Int32.self)), at: index)
        case .int16: statement.bind(Int64(address.load(as: Int16.self)), at: index)
        case .bool: statement.bind(Int64(address.load(as: Bool.self) ? 1 : 0), at: index)
        case .double: statement.bind(address.load(as: Double.self), at: index)
        case .float: statement.bind(Double(address.load(as: Float.self)), at: index)
        case .date: statement.bind(address.load(as: Date.self).timeIntervalSinceReferenceDate, at: index)
        case .string: statement.bind(address.load(as: String.self), at: index)
        case .any: return false
        }
        return true
    }

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
        } else if metadata == column.storedType, bindUnboxed(raw, kind: column.kind, to: statement, at: index) {
            return
        } else {
            StoreValueCodec.bind(value.pointee, as: column.type, to: statement, at: index)
        }
    }
}
#endif

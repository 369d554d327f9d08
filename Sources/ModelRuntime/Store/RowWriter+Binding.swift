#if !canImport(CoreData)
import Foundation
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
/// instructions per value). An `Any?` is four words: a three-word inline buffer, then the type
/// metadata (null for nil). The common stored types (integers, `Bool`, `Double`, `Float`,
/// `Date`, `String`) fit the buffer and sit at its start, so when the metadata word is the
/// stored type's, the value is a load from the slot's own memory. Anything else — another
/// dynamic type, a value that needs converting — goes through ``StoreValueCodec`` as before.
/// ``layoutHolds`` checks the layout once at run time; if it ever differs, every value takes
/// the general path.
enum RowBinding {
    private static let stride = MemoryLayout<Any?>.stride
    private static let metadataOffset = 3 * MemoryLayout<UnsafeRawPointer>.stride

    /// Whether `Any?` has the layout described above (checked with known values).
    static let layoutHolds: Bool = {
        guard MemoryLayout<Any?>.size == 4 * MemoryLayout<UnsafeRawPointer>.stride else { return false }
        let samples: ContiguousArray<Any?> = [nil, Int64(-7), "a string longer than fifteen bytes", 2.5]
        return samples.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            func metadata(_ index: Int) -> UnsafeRawPointer? {
                base.load(fromByteOffset: index * stride + metadataOffset, as: UnsafeRawPointer?.self)
            }
            func type<T>(_ type: T.Type) -> UnsafeRawPointer { unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self) }
            return metadata(0) == nil && metadata(1) == type(Int64.self) && metadata(2) == type(String.self)
                && metadata(3) == type(Double.self)
                && base.load(fromByteOffset: stride, as: Int64.self) == -7
                && base.load(fromByteOffset: 2 * stride, as: String.self) == "a string longer than fifteen bytes"
                && base.load(fromByteOffset: 3 * stride, as: Double.self) == 2.5
        }
    }()

    /// The type metadata recorded in `value` (nil for nil), or nil when ``layoutHolds`` is false.
    @inline(__always)
    static func metadata(of value: borrowing Any?) -> UnsafeRawPointer? {
        guard layoutHolds else { return nil }
        return withUnsafeBytes(of: value) { $0.load(fromByteOffset: metadataOffset, as: UnsafeRawPointer?.self) }
    }

    /// Binds `values` at the columns' slots to parameters `first`, `first + 1`, ….
    static func bind(_ values: ContiguousArray<Any?>, columns: [AttributeColumn], to statement: Statement, from first: Int32) {
        guard layoutHolds else {
            for (offset, column) in columns.enumerated() {
                StoreValueCodec.bind(values[column.slot], as: column.type, to: statement, at: first + Int32(offset))
            }
            return
        }
        values.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            var index = first
            for column in columns {
                let value = base + column.slot * stride
                let metadata = value.load(fromByteOffset: metadataOffset, as: UnsafeRawPointer?.self)
                if metadata == nil {
                    statement.bindNull(at: index)
                } else if metadata == column.storedType {
                    switch column.kind {
                    case .int64: statement.bind(value.load(as: Int64.self), at: index)
                    case .int32: statement.bind(Int64(value.load(as: Int32.self)), at: index)
                    case .int16: statement.bind(Int64(value.load(as: Int16.self)), at: index)
                    case .bool: statement.bind(Int64(value.load(as: Bool.self) ? 1 : 0), at: index)
                    case .double: statement.bind(value.load(as: Double.self), at: index)
                    case .float: statement.bind(Double(value.load(as: Float.self)), at: index)
                    case .date: statement.bind(value.load(as: Date.self).timeIntervalSinceReferenceDate, at: index)
                    case .string: statement.bind(value.load(as: String.self), at: index)
                    case .other: StoreValueCodec.bind(buffer[column.slot], as: column.type, to: statement, at: index)
                    }
                } else {
                    StoreValueCodec.bind(buffer[column.slot], as: column.type, to: statement, at: index)
                }
                index += 1
            }
        }
    }
}
#endif

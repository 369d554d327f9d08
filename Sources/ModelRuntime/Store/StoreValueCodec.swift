#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Converts attribute values between their Swift form in object storage and Core Data's column
/// encoding: integers and Booleans as INTEGER, dates as seconds since the 2001 reference date,
/// UUIDs as 16 bytes, URIs as text, binary and transformable data as BLOB.
enum StoreValueCodec {
    /// Reads the value of `column` as an attribute of `type`; nil for NULL.
    static func read(_ statement: Statement, _ column: Int32, as type: NSAttributeType) -> Any? {
        withUnsafeTemporaryAllocation(of: Any?.self, capacity: 1) { buffer in
            read(statement, column, as: type, into: buffer.baseAddress!)
            return buffer.baseAddress!.move()
        }
    }

    /// Reads the value of `column` as an attribute of `type` into `destination` (uninitialised),
    /// nil for NULL. The common types are written in place, without an intermediate `Any?` (a
    /// fetch reads its rows straight into the objects' slots this way).
    @inline(__always)
    static func read(_ statement: Statement, _ column: Int32, as type: NSAttributeType, into destination: UnsafeMutablePointer<Any?>) {
        if statement.isNull(at: column) { return destination.initialize(to: nil) }
        switch type {
        case .integer64AttributeType: destination.initialize(to: statement.int64(at: column))
        case .doubleAttributeType: destination.initialize(to: statement.double(at: column))
        case .stringAttributeType:
            if let text = statement.string(at: column) { destination.initialize(to: text) } else { destination.initialize(to: nil) }
        case .dateAttributeType: destination.initialize(to: Date(timeIntervalSinceReferenceDate: statement.double(at: column)))
        case .booleanAttributeType: destination.initialize(to: statement.int64(at: column) != 0)
        case .integer32AttributeType: destination.initialize(to: Int32(truncatingIfNeeded: statement.int64(at: column)))
        case .integer16AttributeType: destination.initialize(to: Int16(truncatingIfNeeded: statement.int64(at: column)))
        case .floatAttributeType: destination.initialize(to: Float(statement.double(at: column)))
        default: destination.initialize(to: readOther(statement, column, as: type))
        }
    }

    /// The value of a non-NULL `column` of one of the types ``read(_:_:as:into:)`` does not
    /// write in place.
    private static func readOther(_ statement: Statement, _ column: Int32, as type: NSAttributeType) -> Any? {
        switch type {
        case .decimalAttributeType:
            switch statement.value(at: column) {
            case .integer(let value): return Decimal(value)
            case .text(let text): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            default: return decimal(statement.double(at: column))
            }
        case .UUIDAttributeType:
            if let bytes = statement.bytes(at: column), bytes.count == 16 {
                return UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                        bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
            }
            return statement.string(at: column).flatMap(UUID.init(uuidString:))
        case .URIAttributeType:
            if let text = statement.string(at: column) { return URL(string: text) }
            return nil
        default:
            // Binary data, transformable, object ID, composite and undefined attributes.
            switch statement.value(at: column) {
            case .blob(let bytes): return Data(bytes)
            case .text(let text): return text
            case .integer(let value): return value
            case .real(let value): return value
            case .null: return nil
            }
        }
    }

    /// Binds `value` (an attribute of `type`) to parameter `index`.
    static func bind(_ value: Any?, as type: NSAttributeType, to statement: Statement, at index: Int32) {
        if let value, bindStored(value, as: type, to: statement, at: index) { return }
        guard let value = KeyPathReader.unwrapped(value) else { return statement.bindNull(at: index) }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            switch QueryValues.number(value) {
            case .integer(let number): statement.bind(number, at: index)
            case .double(let number): statement.bind(Int64(exactly: number.rounded(.towardZero)) ?? 0, at: index)
            case .decimal(let number): statement.bind(NSDecimalNumber(decimal: number).int64Value, at: index)
            case nil: statement.bindNull(at: index)
            }
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            switch QueryValues.number(value) {
            case .integer(let number): statement.bind(Double(number), at: index)
            case .double(let number): statement.bind(number, at: index)
            case .decimal(let number): statement.bind(NSDecimalNumber(decimal: number).doubleValue, at: index)
            case nil: statement.bindNull(at: index)
            }
        case .dateAttributeType:
            if let date = value as? Date {
                statement.bind(date.timeIntervalSinceReferenceDate, at: index)
            } else {
                statement.bindNull(at: index)
            }
        case .stringAttributeType:
            if let text = QueryValues.string(value) { statement.bind(text, at: index) } else { statement.bind("\(value)", at: index) }
        case .UUIDAttributeType:
            if let uuid = value as? UUID {
                statement.bind(bytes: withUnsafeBytes(of: uuid.uuid) { Array($0) }, at: index)
            } else {
                statement.bindNull(at: index)
            }
        case .URIAttributeType:
            if let url = value as? URL { statement.bind(url.absoluteString, at: index) } else { statement.bind("\(value)", at: index) }
        default:
            if let data = value as? Data {
                statement.bind(bytes: [UInt8](data), at: index)
            } else if let text = value as? String {
                statement.bind(text, at: index)
            } else {
                statement.bindNull(at: index)
            }
        }
    }

    /// Binds a value already in the Swift type objects keep for `type` (see ``storedType(of:)``)
    /// without casting through bridging; false for any other value.
    private static func bindStored(_ value: Any, as type: NSAttributeType, to statement: Statement, at index: Int32) -> Bool {
        guard let stored = storedType(of: type), Swift.type(of: value) == stored else { return false }
        switch type {
        // The dynamic type is the stored type, so each value is a load, not a cast.
        case .integer64AttributeType: statement.bind(StoredValueCast.load(value, as: Int64.self), at: index)
        case .integer32AttributeType: statement.bind(Int64(StoredValueCast.load(value, as: Int32.self)), at: index)
        case .integer16AttributeType: statement.bind(Int64(StoredValueCast.load(value, as: Int16.self)), at: index)
        case .booleanAttributeType: statement.bind(Int64(StoredValueCast.load(value, as: Bool.self) ? 1 : 0), at: index)
        case .doubleAttributeType: statement.bind(StoredValueCast.load(value, as: Double.self), at: index)
        case .floatAttributeType: statement.bind(Double(StoredValueCast.load(value, as: Float.self)), at: index)
        case .dateAttributeType: statement.bind(StoredValueCast.load(value, as: Date.self).timeIntervalSinceReferenceDate, at: index)
        case .stringAttributeType: statement.bind(StoredValueCast.load(value, as: String.self), at: index)
        default: return false
        }
        return true
    }

    /// The Swift type object storage keeps attributes of `type` in (what ``normalized(_:as:)``
    /// makes), for the types that have exactly one.
    static func storedType(of type: NSAttributeType) -> Any.Type? {
        switch type {
        case .integer16AttributeType: Int16.self
        case .integer32AttributeType: Int32.self
        case .integer64AttributeType: Int64.self
        case .booleanAttributeType: Bool.self
        case .doubleAttributeType: Double.self
        case .floatAttributeType: Float.self
        case .decimalAttributeType: Decimal.self
        case .dateAttributeType: Date.self
        case .stringAttributeType: String.self
        case .UUIDAttributeType: UUID.self
        case .URIAttributeType: URL.self
        case .binaryDataAttributeType: Data.self
        default: nil
        }
    }

    /// `value` converted to the Swift type the engine keeps for an attribute of `type`
    /// (`NSNumber` and other integer widths become the declared width), so values read back
    /// from the store and values set by code compare equal.
    /// The decimal a store's real stands for: the shortest decimal that reads back as the same
    /// double (a decimal column is a real, so 87918.25 is stored exactly and must come back as
    /// 87918.25; `Decimal(Double)` of swift-corelibs-foundation gives 87918.24999999998976).
    static func decimal(_ double: Double) -> Decimal {
        guard double.isFinite, let parsed = Decimal(string: String(double), locale: Locale(identifier: "en_US_POSIX")),
            NSDecimalNumber(decimal: parsed).doubleValue == double
        else { return Decimal(double) }
        return parsed
    }

    static func normalized(_ value: Any?, as type: NSAttributeType) -> Any? {
        // Already in its stored type: nothing to convert.
        if let value, let stored = storedType(of: type), Swift.type(of: value) == stored { return value }
        guard let value = KeyPathReader.unwrapped(value) else { return nil }
        switch type {
        case .integer16AttributeType:
            if value is Int16 { return value }
            if case .integer(let n)? = QueryValues.number(value) { return Int16(truncatingIfNeeded: n) }
        case .integer32AttributeType:
            if value is Int32 { return value }
            if case .integer(let n)? = QueryValues.number(value) { return Int32(truncatingIfNeeded: n) }
        case .integer64AttributeType:
            if value is Int64 { return value }
            if case .integer(let n)? = QueryValues.number(value) { return n }
        case .booleanAttributeType:
            if value is Bool { return value }
            if case .integer(let n)? = QueryValues.number(value) { return n != 0 }
        case .doubleAttributeType:
            if value is Double { return value }
            switch QueryValues.number(value) {
            case .integer(let n)?: return Double(n)
            case .double(let n)?: return n
            case .decimal(let n)?: return NSDecimalNumber(decimal: n).doubleValue
            case nil: break
            }
        case .floatAttributeType:
            if value is Float { return value }
            switch QueryValues.number(value) {
            case .integer(let n)?: return Float(n)
            case .double(let n)?: return Float(n)
            case .decimal(let n)?: return NSDecimalNumber(decimal: n).floatValue
            case nil: break
            }
        case .decimalAttributeType:
            if value is Decimal { return value }
            switch QueryValues.number(value) {
            case .integer(let n)?: return Decimal(n)
            case .double(let n)?: return decimal(n)
            case .decimal(let n)?: return n
            case nil: break
            }
        case .stringAttributeType:
            return QueryValues.string(value) ?? value
        case .dateAttributeType:
            if let date = QueryValues.object(value, as: NSDate.self) { return date as Date }
        case .UUIDAttributeType:
            if let uuid = QueryValues.object(value, as: NSUUID.self) { return uuid as UUID }
        case .URIAttributeType:
            if let url = QueryValues.object(value, as: NSURL.self) { return url as URL }
        case .binaryDataAttributeType:
            if let data = QueryValues.object(value, as: NSData.self) { return data as Data }
        default:
            break
        }
        return value
    }
}
#endif

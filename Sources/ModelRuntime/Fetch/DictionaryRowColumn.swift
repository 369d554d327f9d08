#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// How a dictionary fetch reads one result column into the object its rows hold: the common
/// attribute types straight into the `NSNumber`, `NSString` or `NSDate` their Swift value bridges
/// to (no boxing into `Any` and bridging at run time), the others through ``StoreValueCodec``.
enum DictionaryRowColumn {
    case integer16, integer32, integer64, boolean, double, float, date, string
    /// Any other attribute type, or an expression's result type.
    case other(NSAttributeType)
    /// A to-one relationship: the related object's ID.
    case reference(DictionaryReference?)
    /// A column the rows do not show.
    case skipped

    init(type: NSAttributeType?, reference: DictionaryReference?) {
        switch type {
        case nil: self = .skipped
        case .integer16AttributeType?: self = .integer16
        case .integer32AttributeType?: self = .integer32
        case .integer64AttributeType?: self = .integer64
        case .booleanAttributeType?: self = .boolean
        case .doubleAttributeType?: self = .double
        case .floatAttributeType?: self = .float
        case .dateAttributeType?: self = .date
        case .stringAttributeType?: self = .string
        case .objectIDAttributeType?: self = .reference(reference)
        case let type?: self = .other(type)
        }
    }

    /// The value of `column` in the current row of `statement`, as the row holds it; nil for NULL.
    func value(_ statement: Statement, _ column: Int32, store: NSPersistentStore) -> AnyObject? {
        if statement.isNull(at: column) { return nil }
        switch self {
        case .integer16: return Int16(truncatingIfNeeded: statement.int64(at: column)) as AnyObject
        case .integer32: return Int32(truncatingIfNeeded: statement.int64(at: column)) as AnyObject
        case .integer64: return statement.int64(at: column) as AnyObject
        case .boolean: return (statement.int64(at: column) != 0) as AnyObject
        case .double: return statement.double(at: column) as AnyObject
        case .float: return Float(statement.double(at: column)) as AnyObject
        case .date: return Date(timeIntervalSinceReferenceDate: statement.double(at: column)) as AnyObject
        case .string: return statement.string(at: column).map { $0 as AnyObject }
        case .other(let type): return StoreValueCodec.read(statement, column, as: type).map { $0 as AnyObject }
        case .reference(let reference): return reference?.objectID(statement, column, store: store)
        case .skipped: return nil
        }
    }
}
#endif

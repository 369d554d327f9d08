#if !canImport(CoreData)
import Foundation
import ModelStore

/// Constants in the store's representation: dates as seconds since 2001-01-01, UUIDs as their
/// 16 bytes, booleans as 0/1, decimals as reals, URIs as their absolute string.
enum FetchSQLValues {
    /// The value bound against a column of `kind`, or nil when the value can never equal or
    /// order with such a column in memory (a string against a number column, for example).
    static func binding(_ raw: Any, for kind: SQLValueKind) -> SQLiteValue? {
        switch kind {
        case .integer, .real, .decimal:
            return number(raw)
        case .date:
            return (raw as? Date).map { .real($0.timeIntervalSinceReferenceDate) }
        case .text:
            if let url = raw as? URL { return .text(url.absoluteString) }
            return QueryValues.string(raw).map { .text($0) }
        case .blob:
            return blob(raw)
        case .any:
            if let value = number(raw) { return value }
            if let date = raw as? Date { return .real(date.timeIntervalSinceReferenceDate) }
            if let text = QueryValues.string(raw) { return .text(text) }
            return blob(raw)
        }
    }

    private static func number(_ raw: Any) -> SQLiteValue? {
        switch QueryValues.number(raw) {
        case .integer(let value): return .integer(value)
        case .double(let value): return .real(value)
        case .decimal(let value): return .real(NSDecimalNumber(decimal: value).doubleValue)
        case nil: return nil
        }
    }

    private static func blob(_ raw: Any) -> SQLiteValue? {
        if let uuid = raw as? UUID { return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }) }
        if let data = raw as? Data { return .blob(Array(data)) }
        return nil
    }

    /// The stored row a constant names (an object or object ID), `.some(nil)` for an object
    /// with no row here, nil when the value is not an object reference.
    static func storeRow(_ raw: Any) -> StoreRow?? {
        guard let reference = raw as? any StoreRowReferencing else { return nil }
        return .some(reference.storeRow)
    }
}
#endif

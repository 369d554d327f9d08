import Foundation
import ModelSchema

/// A model's literal value (a default value) as the store holds it: integers and booleans as
/// INTEGER, floating-point and dates (seconds since 2001-01-01) as REAL, strings and URIs as
/// TEXT, UUIDs as 16 bytes. Nil when the value has no stored form for the type.
enum StoreLiteral {
    static func value(_ literal: AttributeValue, type: AttributeType) -> SQLiteValue? {
        switch (type, literal) {
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            return .integer(number)
        case (.integer16, .number(let text)), (.integer32, .number(let text)), (.integer64, .number(let text)):
            return Int64(text).map(SQLiteValue.integer) ?? Double(text).map { .integer(Int64(exactly: $0.rounded(.towardZero)) ?? 0) }
        case (.boolean, .boolean(let flag)): return .integer(flag ? 1 : 0)
        case (.boolean, .integer(let number)): return .integer(number == 0 ? 0 : 1)
        case (.double, .integer(let number)), (.float, .integer(let number)), (.decimal, .integer(let number)):
            return .real(Double(number))
        case (.double, .number(let text)), (.float, .number(let text)), (.decimal, .number(let text)):
            return Double(text).map(SQLiteValue.real)
        case (.string, .string(let text)), (.uri, .uri(let text)), (.uri, .string(let text)): return .text(text)
        case (.date, .date(let text)): return ISO8601.date(from: text).map { .real($0.timeIntervalSinceReferenceDate) }
        case (.uuid, .uuid(let text)), (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { return nil }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        default: return nil
        }
    }
}

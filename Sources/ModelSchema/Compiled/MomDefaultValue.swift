import Foundation

/// Reads an attribute's archived default value (`NSDefaultValue`): plain numbers, Booleans and
/// strings, and the `NSDate`, `NSUUID`, `NSURL` and `NSDecimalNumber` objects. Numbers come back
/// in a canonical spelling (`2.5`, `3`), dates as UTC ISO 8601 and UUIDs in upper case, so a
/// default survives writing and reading with its value, not always with its written text.
/// Binary data defaults have no ``AttributeValue`` and are dropped.
struct MomDefaultValue {
    typealias Failure = KeyedArchiveReader.Failure

    let archive: KeyedArchiveReader

    func value(_ uid: UInt64, type: AttributeType, what: String) throws(Failure) -> AttributeValue? {
        switch archive.entry(uid) {
        case .integer(let number): return scalar(integer: number, type: type)
        case .boolean(let flag): return type.isNumeric ? .integer(flag ? 1 : 0) : .boolean(flag)
        case .real(let number): return scalar(real: number, type: type)
        case .string(let text): return string(text, type: type)
        case .data: return nil
        case .dictionary:
            let (className, fields) = try archive.object(uid)
            switch className {
            case "NSDate":
                guard case .real(let seconds)? = fields[field: "NS.time"] else { throw Failure(message: "\(what) is a malformed date") }
                return .date(Self.iso8601(Date(timeIntervalSinceReferenceDate: seconds)))
            case "NSUUID":
                guard case .data(let bytes)? = fields[field: "NS.uuidbytes"], bytes.count == 16 else {
                    throw Failure(message: "\(what) is a malformed UUID")
                }
                let uuid = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                        bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                return .uuid(uuid.uuidString)
            case "NSURL":
                guard let relative = try archive.string(fields[field: "NS.relative"], what: "the URL of \(what)") else {
                    throw Failure(message: "\(what) is a malformed URL")
                }
                return .uri(relative)
            case "NSDecimalNumber":
                return .number(try Self.decimalText(fields, what: what))
            case "NSString", "NSMutableString":
                return try archive.string(.uid(uid), what: what).flatMap { string($0, type: type) }
            case "NSData", "NSMutableData":
                return nil
            default:
                throw Failure(message: "\(what) is an \(className), which the reader does not support")
            }
        default:
            throw Failure(message: "\(what) has an unsupported kind of value")
        }
    }

    func scalar(integer: Int64, type: AttributeType) -> AttributeValue {
        switch type {
        case .boolean: .boolean(integer != 0)
        case .double, .float, .decimal: .number(String(integer))
        default: .integer(integer)
        }
    }

    func scalar(real: Double, type: AttributeType) -> AttributeValue {
        if type.isInteger, real == real.rounded(), abs(real) < 9.2e18 { return .integer(Int64(real)) }
        return .number(Self.numberText(real))
    }

    func string(_ text: String, type: AttributeType) -> AttributeValue {
        switch type {
        case .uuid: .uuid(text)
        case .uri: .uri(text)
        default: .string(text)
        }
    }

    /// `3` for integral values, otherwise Swift's shortest round-tripping form (`2.5`, `1e-07`).
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `NSDecimalNumber`'s keyed form: a little-endian mantissa of up to 128 bits (`NS.mantissa`,
    /// `NS.length` 16-bit words), a base-10 exponent and a sign, rendered as plain decimal text.
    static func decimalText(_ fields: KeyedArchiveReader.Fields, what: String) throws(Failure) -> String {
        guard case .data(let bytes)? = fields[field: "NS.mantissa"], bytes.count <= 16, bytes.count % 2 == 0,
            case .integer(let exponent)? = fields[field: "NS.exponent"], (-128...127).contains(exponent)
        else { throw Failure(message: "\(what) is a malformed decimal number") }
        var negative = false
        if case .boolean(let flag)? = fields[field: "NS.negative"] { negative = flag }
        if case .integer(let flag)? = fields[field: "NS.negative"] { negative = flag != 0 }
        var words = stride(from: 0, to: bytes.count, by: 2).map { UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 }
        var digits: [Character] = []
        while words.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for index in words.indices.reversed() {
                let current = remainder << 16 | words[index]
                words[index] = current / 10
                remainder = current % 10
            }
            digits.append(Character(String(remainder)))
        }
        if digits.isEmpty { return "0" }
        var text = String(digits.reversed())
        if exponent >= 0 {
            text += String(repeating: "0", count: Int(exponent))
        } else {
            let shift = Int(-exponent)
            if text.count <= shift { text = String(repeating: "0", count: shift - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -shift))
        }
        return negative ? "-" + text : text
    }
}

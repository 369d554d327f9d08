import Foundation

/// A JSON value with a canonical rendering: object keys sorted, two-space indentation, `\n`
/// line ends and shortest round-tripping numbers, so equal values always print the same bytes.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// The canonical text, ending in a newline.
    public func rendered() -> String {
        var output = ""
        render(into: &output, indent: "")
        output += "\n"
        return output
    }

    private func render(into output: inout String, indent: String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += Self.format(value)
        case .string(let value): Self.quote(value, into: &output)
        case .array(let items):
            guard !items.isEmpty else {
                output += "[]"
                return
            }
            let inner = indent + "  "
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                item.render(into: &output, indent: inner)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            let inner = indent + "  "
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                output += inner
                Self.quote(key, into: &output)
                output += ": "
                members[key]!.render(into: &output, indent: inner)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        }
    }

    private static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func quote(_ string: String, into output: inout String) {
        output += TextEscaping.jsonString(string)
    }
}

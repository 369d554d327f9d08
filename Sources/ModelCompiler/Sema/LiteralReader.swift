import Foundation
import ModelSchema

/// Reads default values and validation bounds, checking each against the attribute's type.
struct LiteralReader {
    let diagnostics: DiagnosticCollector

    /// The value of `node` as a literal of `type`, or nil after reporting why it is not one.
    func literal(_ node: YAMLNode, of type: AttributeType, _ what: String) -> AttributeValue? {
        guard let text = node.scalarValue, !node.isNull else {
            diagnostics.error("\(what) must be a single value, found \(node.kindDescription)", at: node.location)
            return nil
        }
        let core = node.coreValue
        func mismatch(_ expected: String) -> AttributeValue? {
            diagnostics.error("\(what) '\(text)' is not \(expected)", at: node.location)
            return nil
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .int(let value)? = core else {
                if NumberLiteralLimits.digits(of: text) != nil, !text.contains(where: { ".eE".contains($0) }) {
                    let range = type.integerRange!
                    diagnostics.error(
                        "\(what) \(text) does not fit in \(type.name) (\(range.lowerBound)...\(range.upperBound))", at: node.location)
                    return nil
                }
                return mismatch("an integer")
            }
            let range = type.integerRange!
            guard range.contains(Int64(value)) else {
                diagnostics.error(
                    "\(what) \(value) does not fit in \(type.name) (\(range.lowerBound)...\(range.upperBound))",
                    at: node.location)
                return nil
            }
            return .integer(Int64(value))
        case .decimal, .double, .float:
            let number: (text: String, value: Double)
            switch core {
            case .int(let value)?: number = (String(value), Double(value))
            case .float(let value)? where value.isFinite: number = (text, value)
            default: return mismatch("a finite number")
            }
            let problem =
                type == .decimal
                ? NumberLiteralLimits.decimalProblem(number.text)
                : NumberLiteralLimits.floatingPointProblem(number.text, value: number.value, isFloat: type == .float)
            if let problem {
                diagnostics.error("\(what) \(text) \(problem)", at: node.location)
                return nil
            }
            return .number(number.text)
        case .string:
            return .string(text)
        case .boolean:
            guard case .bool(let value)? = core else { return mismatch("true or false") }
            return .boolean(value)
        case .date:
            guard ISO8601.date(from: text) != nil else {
                return mismatch("an ISO 8601 date (such as 2024-01-31 or 2024-01-31T12:00:00Z)")
            }
            return .date(text)
        case .uuid:
            guard UUID(uuidString: text) != nil else { return mismatch("a UUID") }
            return .uuid(text.uppercased())
        case .uri:
            guard let url = URL(string: text), url.scheme != nil else { return mismatch("an absolute URI") }
            return .uri(text)
        case .binaryData, .transformable, .objectID, .undefined, .composite:
            diagnostics.error("attributes of type \(type.name) cannot have \(what)", at: node.location)
            return nil
        }
    }

    /// Orders two literals of the same numeric or date type.
    static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.number(let a), .number(let b)):
            guard let a = Double(a), let b = Double(b) else { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.date(let a), .date(let b)):
            guard let a = ISO8601.date(from: a), let b = ISO8601.date(from: b) else { return nil }
            return a.compare(b)
        default: return nil
        }
    }
}

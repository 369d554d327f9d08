#if !canImport(CoreData)
import Foundation

/// Writes predicates and expressions in the format language the way Foundation's
/// `predicateFormat` does: `name == "x"`, `age BETWEEN {1, 5}`, `name CONTAINS[cd] "a"`,
/// `ANY tags.name == "x"`, compound subpredicates of a compound in parentheses
/// (`(a == 1 AND b == 2) AND c == 3`), `NOT a == 1`, dates as `CAST(<seconds>, "NSDate")`.
enum PredicateFormatWriter {
    static func predicate(_ predicate: NSPredicate) -> String {
        switch predicate {
        case let comparison as NSComparisonPredicate:
            return self.comparison(comparison)
        case let compound as NSCompoundPredicate:
            return self.compound(compound)
        default:
            if predicate.block != nil {
                return "BLOCKPREDICATE(0x\(String(UInt(bitPattern: ObjectIdentifier(predicate).hashValue), radix: 16)))"
            }
            return predicate.fixedValue == true ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }

    private static func compound(_ compound: NSCompoundPredicate) -> String {
        func operand(_ predicate: NSPredicate) -> String {
            predicate is NSCompoundPredicate ? "(\(self.predicate(predicate)))" : self.predicate(predicate)
        }
        switch compound.compoundPredicateType {
        case .not:
            return "NOT " + (compound.predicates.first.map(operand) ?? "TRUEPREDICATE")
        case .and:
            return compound.predicates.isEmpty ? "TRUEPREDICATE" : compound.predicates.map(operand).joined(separator: " AND ")
        case .or:
            return compound.predicates.isEmpty ? "FALSEPREDICATE" : compound.predicates.map(operand).joined(separator: " OR ")
        }
    }

    private static func comparison(_ comparison: NSComparisonPredicate) -> String {
        let modifier =
            switch comparison.comparisonPredicateModifier {
            case .direct: ""
            case .any: "ANY "
            case .all: "ALL "
            }
        var letters = ""
        if comparison.options.contains(.caseInsensitive) { letters += "c" }
        if comparison.options.contains(.diacriticInsensitive) { letters += "d" }
        if comparison.options.contains(.normalized) { letters += "n" }
        if comparison.options.contains(.localeSensitive) { letters += "l" }
        let options = letters.isEmpty ? "" : "[\(letters)]"
        return "\(modifier)\(expression(comparison.leftExpression)) \(symbol(comparison.predicateOperatorType))\(options) "
            + expression(comparison.rightExpression)
    }

    static func symbol(_ type: NSComparisonPredicate.Operator) -> String {
        switch type {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .customSelector: "CUSTOMSELECTOR"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }

    static func expression(_ expression: NSExpression) -> String {
        switch expression.kind {
        case .constant(let value):
            return constant(value)
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(_, let components, let operand):
            let path = components.map(keyComponent).joined(separator: ".")
            return operand.map { self.expression($0) + "." + path } ?? path
        case .function(let name, let arguments):
            if let op = Self.infix[name], arguments.count == 2 {
                return operand(arguments[0], of: op, right: false) + " \(op.symbol) " + operand(arguments[1], of: op, right: true)
            }
            return "\(name)(\(arguments.map(self.expression).joined(separator: ", ")))"
        case .aggregate(let elements):
            return "{" + elements.map(self.expression).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(self.expression(collection)), $\(variable), \(self.predicate(predicate)))"
        case .call(let target, let selector, let arguments):
            return "FUNCTION(" + ([self.expression(target), constant(selector)] + arguments.map(self.expression)).joined(separator: ", ")
                + ")"
        case .fetch(let request, let context, let countOnly):
            return "FETCH(\(self.expression(request)), \(self.expression(context)), \(countOnly ? "YES" : "NO"))"
        }
    }

    /// The arithmetic functions written as operators (`a + b`), with their binding strength.
    private static let infix: [String: (symbol: String, precedence: Int)] = [
        "add:to:": ("+", 1), "from:subtract:": ("-", 1), "multiply:by:": ("*", 2), "divide:by:": ("/", 2),
        "raise:toPower:": ("**", 3),
    ]

    /// An operand of an infix operator, in parentheses when it is an operation that binds less
    /// (or as much, on the side the operator does not group to), so the text parses back.
    private static func operand(_ expression: NSExpression, of op: (symbol: String, precedence: Int), right: Bool) -> String {
        let text = self.expression(expression)
        guard case .function(let name, let arguments) = expression.kind, let inner = infix[name], arguments.count == 2 else { return text }
        let groupsRight = op.symbol == "**"
        let needs = inner.precedence < op.precedence || (inner.precedence == op.precedence && right != groupsRight)
        return needs ? "(\(text))" : text
    }

    /// A key that is a reserved word is written `#key` so the format parses back.
    private static func keyComponent(_ key: String) -> String {
        PredicateKeywords.reserved.contains(key.uppercased()) ? "#" + key : key
    }

    static func constant(_ value: Any?) -> String {
        guard let value = KeyPathReader.unwrapped(value) else { return "nil" }
        if let custom = value as? any PredicateComparableValue { return custom.predicateFormatDescription }
        if let string = QueryValues.string(value) { return quoted(string) }
        if let number = QueryValues.number(value) { return self.number(number) }
        switch value {
        case let date as Date:
            return "CAST(\(String(format: "%f", date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case let uuid as UUID:
            return uuid.uuidString
        case let data as Data:
            return "{length = \(data.count), bytes = 0x\(data.map { String(format: "%02x", $0) }.joined())}"
        case let expression as NSExpression:
            return self.expression(expression)
        default:
            break
        }
        if let elements = QueryValues.collectionElements(value) {
            var written = elements.map(constant)
            // Sets have no order; sorting keeps the output the same from run to run.
            if QueryValues.isUnordered(value) { written.sort() }
            return "{" + written.joined(separator: ", ") + "}"
        }
        return String(describing: value)
    }

    private static func quoted(_ string: String) -> String {
        var result = "\""
        for character in string {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// Numbers as `NSNumber.description` writes them: integers plainly, whole doubles without a
    /// fraction, other doubles in their shortest exact form.
    private static func number(_ number: QueryValues.Number) -> String {
        switch number {
        case .integer(let v):
            return String(v)
        case .double(let v):
            if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
            return "\(v)"
        case .decimal(let v):
            return "\(v)"
        }
    }
}
#endif

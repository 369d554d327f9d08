#if !canImport(CoreData)
import Foundation
import ModelStore

/// Function expressions in a fetch: arithmetic on numbers (`price * quantity > 100`, `age + 1`),
/// `abs:`, and `now()`, translated to SQL with the results of in-memory evaluation: a nil operand
/// gives nil (NULL), division is never integer division, a zero divisor gives nil, integer
/// overflow falls back to floating point (as SQLite does). Functions of constants only are
/// computed once, as in memory.
extension FetchSQLBuilder {
    private static let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "modulus:by:": "%"]

    func functionOperand(_ name: String, _ arguments: [NSExpression], _ expression: NSExpression, in scope: SQLScope)
        throws(FetchSQLError) -> SQLOperand
    {
        if name == "now", arguments.isEmpty { return .constant(Date()) }
        if Self.isAggregateFunction(name) { return try aggregateOperand(name, arguments, expression, in: scope) }
        let supported = Self.operators[name] != nil ? arguments.count == 2 : name == "abs:" && arguments.count == 1
        guard supported else { throw FetchSQLError(.unsupported, "function \(name) in \(expression) is not supported in a fetch") }
        var operands: [SQLOperand] = []
        for argument in arguments { operands.append(try operand(argument, in: scope)) }
        // Constants only: the value in-memory evaluation gives.
        if operands.allSatisfy({ if case .constant = $0 { true } else { false } }) {
            let values = operands.map { operand -> Any? in if case .constant(let value) = operand { value } else { nil } }
            return .constant(ExpressionFunctions.apply(name, values))
        }
        var terms: [(sql: SQLFragment, kind: SQLValueKind)] = []
        for (operand, argument) in zip(operands, arguments) {
            switch operand {
            case .constant(nil):
                return .constant(nil)
            case .constant(let value?):
                // A value that is not a number makes the function nil, as in memory.
                guard let number = QueryValues.number(value), let bound = FetchSQLValues.binding(QueryValues.box(number), for: .any)
                else { return .constant(nil) }
                let isInteger = if case .integer = number { true } else { false }
                terms.append((SQLFragment(sql: "?", bindings: [bound]), isInteger ? .integer : .real))
            case .path(.value(let value, let kind)):
                guard [.integer, .real, .decimal, .any].contains(kind) else {
                    throw FetchSQLError(.unsupported, "\(expression): \(argument) is not a number; arithmetic needs numeric attributes")
                }
                terms.append((value, kind))
            case .path:
                throw FetchSQLError(.unsupported, "\(expression): \(argument) is not a number; arithmetic needs numeric attributes")
            }
        }
        let integers = terms.allSatisfy { $0.kind == .integer }
        if name == "abs:" {
            return .path(.value(.concat([.init(sql: "abs("), terms[0].sql, .init(sql: ")")], nullable: true), terms[0].kind))
        }
        guard let op = Self.operators[name] else { throw FetchSQLError(.unsupported, "function \(name) is not supported in a fetch") }
        if name == "modulus:by:", !integers {
            // SQLite's `%` truncates its operands to integers; in memory the remainder is exact.
            throw FetchSQLError(.unsupported, "\(expression): modulus:by: of numbers that are not integers is not supported in a fetch")
        }
        // Division in memory gives a real number even for integers.
        let left =
            name == "divide:by:"
            ? SQLFragment.concat([.init(sql: "CAST("), terms[0].sql, .init(sql: " AS REAL)")], nullable: true)
            : terms[0].sql
        let sql = SQLFragment.concat([.init(sql: "("), left, .init(sql: " \(op) "), terms[1].sql, .init(sql: ")")], nullable: true)
        return .path(.value(sql, integers && name != "divide:by:" ? .integer : .real))
    }
}
#endif

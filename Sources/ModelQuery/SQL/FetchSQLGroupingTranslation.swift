#if !canImport(CoreData)
import Foundation
import ModelStore

/// Grouped and aggregating dictionary fetches: `SELECT SUM(t0.ZAMOUNT), t0.ZCATEGORY … GROUP BY
/// t0.ZCATEGORY HAVING …`. Key path values are selected as in `.properties`; other values are
/// expressions translated as predicates' operands are, with the aggregate functions `sum:`,
/// `count:`, `min:`, `max:` and `average:` allowed in the select list and the `HAVING` clause.
extension FetchSQLBuilder {
    /// The select list of a grouped fetch, its result columns and the select list's parameters.
    func groupedSelection(_ grouping: FetchSQLGrouping, root: SQLRow, scope: SQLScope) throws(FetchSQLError)
        -> (sql: String, columns: [FetchSQL.ResultColumn], bindings: [SQLiteValue])
    {
        var names: [String] = []
        var results: [FetchSQL.ResultColumn] = []
        var bindings: [SQLiteValue] = []
        for value in grouping.values {
            if let (path, components) = Self.plainKeyPath(value.expression) {
                let resolved = try resolve(components[...], from: root, in: scope, path: path)
                for (sql, column) in try selectedColumns(resolved, keyPath: path) {
                    names.append(sql)
                    results.append(.property(keyPath: value.name, column: column))
                }
            } else {
                let fragment = try withAggregates { () throws(FetchSQLError) in try valueFragment(value.expression, in: scope) }
                names.append(fragment.sql)
                bindings += fragment.bindings
                results.append(.expression(name: value.name))
            }
        }
        guard !names.isEmpty else { throw FetchSQLError(.unsupported, "a dictionary fetch needs at least one property") }
        return (names.joined(separator: ", "), results, bindings)
    }

    /// ` GROUP BY …` (empty without group-by expressions), with its parameters.
    func groupBy(_ grouping: FetchSQLGrouping, root: SQLRow, scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        var terms: [SQLFragment] = []
        for expression in grouping.groupBy {
            if let (path, components) = Self.plainKeyPath(expression) {
                let resolved = try resolve(components[...], from: root, in: scope, path: path)
                for (sql, _) in try selectedColumns(resolved, keyPath: path) { terms.append(SQLFragment(sql: sql)) }
            } else {
                terms.append(try valueFragment(expression, in: scope))
            }
        }
        guard !terms.isEmpty else { return SQLFragment(sql: "") }
        return SQLFragment(sql: " GROUP BY " + terms.map(\.sql).joined(separator: ", "), bindings: terms.flatMap(\.bindings))
    }

    /// ` HAVING …` (empty without a having predicate): key paths and variables naming a selected
    /// value stand for its expression.
    func having(_ grouping: FetchSQLGrouping, in scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        guard let predicate = grouping.having else { return SQLFragment(sql: "") }
        guard !grouping.groupBy.isEmpty else {
            throw FetchSQLError(.unsupported, "a having predicate requires properties to group by")
        }
        namedValues = Dictionary(grouping.values.map { ($0.name, $0.expression) }, uniquingKeysWith: { first, _ in first })
        defer { namedValues = [:] }
        let condition = try withAggregates { () throws(FetchSQLError) in try self.predicate(predicate, in: scope) }
        if condition.isAlwaysTrue { return SQLFragment(sql: "") }
        // NULL rejects a group, as it rejects a row in WHERE.
        var text = condition.sql
        if text.hasPrefix("("), condition.isOneTerm { text = String(text.dropFirst().dropLast()) }
        return SQLFragment(sql: " HAVING " + text, bindings: condition.bindings)
    }

    /// The selected value a `HAVING` key path or variable names, translated; nil when it names
    /// none. The value's own key paths resolve against the entity (no renaming inside).
    func namedValueOperand(_ name: String, in scope: SQLScope) throws(FetchSQLError) -> SQLOperand? {
        guard let expression = namedValues[name] else { return nil }
        let saved = namedValues
        namedValues = [:]
        defer { namedValues = saved }
        return try operand(expression, in: scope)
    }

    /// A key path expression from the fetched object (`amount`, `category.name`).
    static func plainKeyPath(_ expression: NSExpression) -> (String, [String])? {
        guard case .keyPath(let path, let components, let base) = expression.kind else { return nil }
        switch base?.kind {
        case nil, .evaluatedObject?: return (path, components)
        default: return nil
        }
    }

    /// An expression as one SQL value.
    func valueFragment(_ expression: NSExpression, in scope: SQLScope) throws(FetchSQLError) -> SQLFragment {
        switch try operand(expression, in: scope) {
        case .path(.value(let fragment, _)):
            return fragment
        case .constant(nil):
            return SQLFragment(sql: "NULL", nullable: true)
        case .constant(let value?):
            guard let bound = FetchSQLValues.binding(value, for: .any) else {
                throw FetchSQLError(.unsupported, "\(expression): the constant cannot be a value in SQL")
            }
            return SQLFragment(sql: "?", bindings: [bound])
        case .path(.reference(let key, _, _)):
            return SQLFragment(sql: key, nullable: true)
        case .path:
            throw FetchSQLError(.unsupported, "\(expression) is not a single value a fetch can select or group by")
        }
    }

    private func withAggregates<T>(_ body: () throws(FetchSQLError) -> T) throws(FetchSQLError) -> T {
        let saved = allowsAggregates
        allowsAggregates = true
        defer { allowsAggregates = saved }
        return try body()
    }

    private static let aggregateFunctions = ["sum:": "SUM", "count:": "COUNT", "min:": "MIN", "max:": "MAX", "average:": "AVG"]

    /// Whether `name` is one of the aggregate functions a fetch computes in SQL.
    package static func isAggregateFunction(_ name: String) -> Bool { aggregateFunctions[name] != nil }

    /// `sum:(amount)` as `SUM(t0.ZAMOUNT)`: allowed only where an aggregate is (the values and the
    /// having predicate of a dictionary fetch), never nested. `count:` of the object counts rows.
    func aggregateOperand(_ name: String, _ arguments: [NSExpression], _ expression: NSExpression, in scope: SQLScope)
        throws(FetchSQLError) -> SQLOperand
    {
        guard let function = Self.aggregateFunctions[name], arguments.count == 1 else {
            throw FetchSQLError(.unsupported, "function \(name) in \(expression) takes one argument")
        }
        guard allowsAggregates else {
            throw FetchSQLError(
                .unsupported,
                "\(expression): aggregate functions are only supported in the expression descriptions and having predicate of a dictionary fetch"
            )
        }
        allowsAggregates = false
        defer { allowsAggregates = true }
        let argument = try operand(arguments[0], in: scope)
        switch argument {
        case .path(.row(let row)) where name == "count:":
            return .path(.value(SQLFragment(sql: "COUNT(\(row.primaryKey))"), .integer))
        case .path(.reference(let key, _, _)) where name == "count:":
            return .path(.value(SQLFragment(sql: "COUNT(\(key))"), .integer))
        case .path(.value(let value, let kind)):
            switch name {
            case "count:":
                return .path(.value(.concat([.init(sql: "COUNT("), value, .init(sql: ")")], nullable: false), .integer))
            case "sum:", "average:":
                guard [.integer, .real, .decimal, .any].contains(kind) else {
                    throw FetchSQLError(.unsupported, "\(expression): \(arguments[0]) is not a number; \(name) needs numeric values")
                }
                let resultKind: SQLValueKind = name == "average:" ? .real : kind
                return .path(.value(.concat([.init(sql: "\(function)("), value, .init(sql: ")")], nullable: true), resultKind))
            default:
                return .path(.value(.concat([.init(sql: "\(function)("), value, .init(sql: ")")], nullable: true), kind))
            }
        default:
            throw FetchSQLError(.unsupported, "\(expression): \(name) needs an attribute key path or arithmetic on attributes")
        }
    }
}
#endif

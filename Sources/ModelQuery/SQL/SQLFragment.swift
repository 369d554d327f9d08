#if !canImport(CoreData)
import Foundation
import ModelStore

/// SQL text with the values of its `?` parameters in text order, so fragments can be combined in
/// any order without renumbering.
struct SQLFragment {
    var sql: String
    var bindings: [SQLiteValue] = []
    /// Whether the fragment can be NULL (a comparison with a NULL column). `NOT` treats NULL as
    /// false so that the SQL keeps the two-valued logic of in-memory evaluation.
    var nullable = false

    static let alwaysTrue = SQLFragment(sql: "1")
    static let alwaysFalse = SQLFragment(sql: "0")

    static func constant(_ value: Bool) -> SQLFragment { value ? alwaysTrue : alwaysFalse }

    var isAlwaysTrue: Bool { sql == "1" }
    var isAlwaysFalse: Bool { sql == "0" }

    /// Text around other fragments: `SQLFragment.join(["a", frag, " = ", other])`.
    static func concat(_ parts: [SQLFragment], nullable: Bool) -> SQLFragment {
        SQLFragment(sql: parts.map(\.sql).joined(), bindings: parts.flatMap(\.bindings), nullable: nullable)
    }

    /// The fragment as a boolean that is never NULL (NULL counts as false).
    var definite: SQLFragment {
        nullable ? SQLFragment(sql: "IFNULL(\(sql), 0)", bindings: bindings) : self
    }

    /// A parenthesised form safe to embed after `NOT`.
    var grouped: SQLFragment {
        isOneTerm ? self : SQLFragment(sql: "(\(sql))", bindings: bindings, nullable: nullable)
    }

    /// Whether the text is one parenthesised group or one function call (`f(…)`, `EXISTS (…)`)
    /// with nothing after it. Values are always bound, so the text holds no string literals.
    var isOneTerm: Bool {
        guard sql.hasSuffix(")"), let open = sql.firstIndex(of: "(") else { return false }
        let head = sql[..<open]
        guard head.isEmpty || head == "EXISTS " || head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return false }
        var depth = 0
        for (offset, character) in sql[open...].enumerated() {
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth == 0 { return sql.distance(from: open, to: sql.endIndex) == offset + 1 }
            }
        }
        return false
    }

    /// `NOT p` with NULL counted as false in `p`.
    var negated: SQLFragment {
        if isAlwaysTrue { return .alwaysFalse }
        if isAlwaysFalse { return .alwaysTrue }
        let inner = definite.grouped
        return SQLFragment(sql: "NOT \(inner.sql)", bindings: inner.bindings)
    }

    /// `a AND b …` (or `OR`), folding constant operands, parenthesised.
    static func combine(_ parts: [SQLFragment], and: Bool) -> SQLFragment {
        let absorbing = and ? SQLFragment.alwaysFalse : .alwaysTrue
        if parts.contains(where: { $0.sql == absorbing.sql }) { return absorbing }
        let kept = parts.filter { $0.sql != (and ? "1" : "0") }
        if kept.isEmpty { return and ? .alwaysTrue : .alwaysFalse }
        if kept.count == 1 { return kept[0] }
        return SQLFragment(
            sql: "(" + kept.map(\.sql).joined(separator: and ? " AND " : " OR ") + ")", bindings: kept.flatMap(\.bindings),
            nullable: kept.contains { $0.nullable })
    }
}

/// A row in the statement: the fetched object (`t0`), a joined to-one destination, or an
/// element of a to-many relationship inside a subquery.
struct SQLRow {
    let alias: String
    let entity: StoreLayout.EntityLayout
    let table: StoreLayout.Table

    func column(_ index: Int) -> String { "\(alias).\(table.columns[index].name)" }
    var primaryKey: String { "\(alias).Z_PK" }
    var entityNumber: String { "\(alias).Z_ENT" }
}

/// One `FROM` level: the statement itself or a subquery, with its to-one joins (made once per
/// relationship and row) and the `SUBQUERY` variables visible in it.
final class SQLScope {
    let parent: SQLScope?
    let row: SQLRow
    private(set) var joins: [String] = []
    private var joinedRows: [String: SQLRow] = [:]
    private var variables: [String: SQLRow]

    init(row: SQLRow, parent: SQLScope?, variables: [String: SQLRow] = [:]) {
        self.row = row
        self.parent = parent
        self.variables = variables
    }

    /// The scope of the fetched object: key paths without a variable start there.
    var outermost: SQLScope { parent?.outermost ?? self }

    func variable(_ name: String) -> SQLRow? { variables[name] ?? parent?.variable(name) }

    func joined(_ key: String) -> SQLRow? { joinedRows[key] }

    func addJoin(_ key: String, row: SQLRow, sql: String) {
        joinedRows[key] = row
        joins.append(sql)
    }

    var joinClause: String { joins.map { " " + $0 }.joined() }
}
#endif

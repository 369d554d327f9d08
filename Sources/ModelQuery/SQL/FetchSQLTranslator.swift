#if !canImport(CoreData)
import Foundation
import ModelStore

/// Translates a fetch (entity, predicate, sort descriptors, page, selection) into one SQL
/// statement over Core Data's store layout, in the style of Core Data's own fetch SQL: the
/// fetched table is `t0`, joined and subquery rows `t1`, `t2`, …; rows are selected as
/// `t0.Z_ENT, t0.Z_PK, t0.Z_OPT, <columns>`. Everything the predicate says becomes SQL; what
/// cannot is a ``FetchSQLError`` naming the part. See docs/runtime/FetchSQL.md.
public enum FetchSQLTranslator {
    public static func translate(_ request: FetchSQLRequest, layout: StoreLayout) throws(FetchSQLError) -> FetchSQL {
        try FetchSQLBuilder(layout: layout).statement(for: request)
    }
}

/// The state of one translation: the alias counter.
package final class FetchSQLBuilder {
    let layout: StoreLayout
    private var aliasCount = 0
    /// The constants bound as one converted parameter each, in translation order (what
    /// ``FetchPlanCache`` checks before reusing the statement for other values).
    var boundConstants: [(value: Any, kind: SQLValueKind)] = []
    /// Whether aggregate functions may be translated here (a grouped fetch's values and having
    /// predicate, outside another aggregate).
    var allowsAggregates = false
    /// While translating a having predicate: the selected values by name.
    var namedValues: [String: NSExpression] = [:]

    init(layout: StoreLayout) { self.layout = layout }

    func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    func statement(for request: FetchSQLRequest) throws(FetchSQLError) -> FetchSQL {
        guard layout.entity(number: request.entity.entityNumber)?.name == request.entity.name else {
            throw FetchSQLError(.unsupported, "entity \(request.entity.name) is not in this store's layout")
        }
        let root = row(request.entity)
        let scope = SQLScope(row: root, parent: nil)
        let numbers = request.includesSubentities ? request.entity.entityNumbers : request.entity.entityNumber...request.entity.entityNumber

        // Selection first, then the filter, then the order: joins are numbered in that order.
        var grouping: FetchSQLGrouping?
        var selected: String
        var resultColumns: [FetchSQL.ResultColumn]
        var selectBindings: [SQLiteValue] = []
        if case .grouped(let grouped) = request.selection {
            grouping = grouped
            (selected, resultColumns, selectBindings) = try groupedSelection(grouped, root: root, scope: scope)
        } else {
            (selected, resultColumns) = try selection(request, root: root, scope: scope, numbers: numbers)
        }
        var conditions: [SQLFragment] = []
        if numbers != root.table.entityNumbers {
            conditions.append(
                SQLFragment(
                    sql: numbers.count == 1
                        ? "\(root.entityNumber) = \(numbers.lowerBound)"
                        : "(\(root.entityNumber) >= \(numbers.lowerBound) AND \(root.entityNumber) <= \(numbers.upperBound))"))
        }
        if let predicate = request.predicate { conditions.append(try self.predicate(predicate, in: scope)) }
        let condition = SQLFragment.combine(conditions, and: true)
        let groupBy = try grouping.map { grouping throws(FetchSQLError) in try self.groupBy(grouping, root: root, scope: scope) }
        let having = try grouping.map { grouping throws(FetchSQLError) in try self.having(grouping, in: scope) }
        let order = try orderBy(request.sortDescriptors, root: root, scope: scope)

        var sql = "SELECT \(selected) FROM \(root.table.name) \(root.alias)\(scope.joinClause)"
        if !condition.isAlwaysTrue {
            // A WHERE of one top-level AND needs no parentheses around it.
            var text = condition.sql
            if text.hasPrefix("("), condition.isOneTerm { text = String(text.dropFirst().dropLast()) }
            sql += " WHERE \(text)"
        }
        if let groupBy { sql += groupBy.sql }
        if let having { sql += having.sql }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if request.selection == .count {
            if request.limit > 0 || request.offset > 0 {
                sql =
                    "SELECT COUNT(*) FROM (\(sql.replacingOccurrences(of: "SELECT COUNT(*) FROM", with: "SELECT 1 FROM", options: .anchored))\(page(request)))"
            }
        } else {
            sql += page(request)
        }
        let bindings = selectBindings + condition.bindings + (groupBy?.bindings ?? []) + (having?.bindings ?? [])
        return FetchSQL(sql: sql, bindings: bindings, resultColumns: resultColumns)
    }

    private func page(_ request: FetchSQLRequest) -> String {
        if request.limit > 0 { return " LIMIT \(request.limit)" + (request.offset > 0 ? " OFFSET \(request.offset)" : "") }
        return request.offset > 0 ? " LIMIT -1 OFFSET \(request.offset)" : ""
    }

    // MARK: Selection

    private func selection(_ request: FetchSQLRequest, root: SQLRow, scope: SQLScope, numbers: ClosedRange<Int>) throws(FetchSQLError)
        -> (String, [FetchSQL.ResultColumn])
    {
        switch request.selection {
        case .count:
            return ("COUNT(*)", [.count])
        case .objectIDs:
            return ("\(root.entityNumber), \(root.primaryKey)", [.entityNumber, .primaryKey])
        case .rows:
            var used = Set<Int>()
            for number in numbers {
                guard let entity = layout.entity(number: number) else { continue }
                for property in entity.properties {
                    switch property.storage {
                    case .column(let index): used.insert(index)
                    case .composite(let indexes): used.formUnion(indexes)
                    case .toOne(let key, let entity, let order): used.formUnion([key, entity, order].compactMap { $0 })
                    case .none, .inverseOfToOne, .joinTable: break
                    }
                }
            }
            let columns = used.sorted()
            let names = ["Z_ENT", "Z_PK", "Z_OPT"].map { "\(root.alias).\($0)" } + columns.map(root.column)
            return (names.joined(separator: ", "), [.entityNumber, .primaryKey, .optimisticLock] + columns.map { .tableColumn($0) })
        case .properties(let keyPaths):
            var names: [String] = []
            var results: [FetchSQL.ResultColumn] = []
            for keyPath in keyPaths {
                let components = KeyPathReader.components(keyPath)
                let resolved = try resolve(components[...], from: root, in: scope, path: keyPath)
                for (sql, column) in try selectedColumns(resolved, keyPath: keyPath) {
                    names.append(sql)
                    results.append(.property(keyPath: keyPath, column: column))
                }
            }
            guard !names.isEmpty else { throw FetchSQLError(.unsupported, "a dictionary fetch needs at least one property") }
            return (names.joined(separator: ", "), results)
        case .grouped:
            // `statement(for:)` selects grouped values itself (their parameters come first).
            throw FetchSQLError(.unsupported, "a grouped selection is translated with its parameters")
        }
    }

    /// The columns a selected key path reads: its attribute column(s), or a to-one's key and
    /// destination entity columns.
    func selectedColumns(_ resolved: ResolvedPath, keyPath: String) throws(FetchSQLError) -> [(String, StoreLayout.Column)] {
        switch resolved {
        case .composite(let leaves):
            return leaves.map { ($0.sql, $0.column) }
        case .value(let value, _):
            // Key paths name columns here (aggregates are refused below), so the column is the table's.
            if let described = columnDescription(value.sql) { return [(value.sql, described)] }
        case .reference(let key, let entity, _):
            var columns: [(String, StoreLayout.Column)] = []
            if let described = columnDescription(key) { columns.append((key, described)) }
            if let entity, let described = columnDescription(entity) { columns.append((entity, described)) }
            if !columns.isEmpty { return columns }
        default:
            break
        }
        throw FetchSQLError(
            .unsupported, "property \(keyPath) cannot be fetched as a dictionary value (use an attribute or a to-one relationship)")
    }

    /// The table column an aliased column reference (`t1.ZNAME`) names.
    private var aliasTables: [String: StoreLayout.Table] = [:]

    private func columnDescription(_ qualified: String) -> StoreLayout.Column? {
        let parts = qualified.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let table = aliasTables[parts[0]] else { return nil }
        return table.columns.first { $0.name == parts[1] }
    }

    func register(_ row: SQLRow) { aliasTables[row.alias] = row.table }

    // MARK: Order

    private static let collations: [String: String] = [
        "caseInsensitiveCompare:": "NSCollateNoCase",
        "localizedCompare:": "NSCollateLocaleSensitive",
        "localizedCaseInsensitiveCompare:": "NSCollateLocaleSensitiveNoCase",
        "localizedStandardCompare:": "NSCollateFinderlike",
    ]

    /// `ORDER BY` terms: a key path to an attribute (through to-ones, joined), with the
    /// selector's collation. SQLite puts NULL first ascending and last descending, as Core Data
    /// and in-memory sorting do.
    private func orderBy(_ descriptors: [NSSortDescriptor], root: SQLRow, scope: SQLScope) throws(FetchSQLError) -> [String] {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let key = descriptor.key else {
                throw FetchSQLError(.unsupported, "sort descriptor \(descriptor) has no key; a fetch sorts by key paths only")
            }
            guard descriptor.block == nil else {
                throw FetchSQLError(
                    .unsupported, "sort descriptor on \(key) uses a comparator block, which a fetch cannot translate to SQL")
            }
            guard case .value(let value, _) = try resolve(descriptor.components[...], from: root, in: scope, path: key) else {
                throw FetchSQLError(
                    .unsupported, "sort descriptor on \(key): a fetch sorts by attributes (also through to-one relationships) only")
            }
            var term = value.sql
            if let selector = descriptor.selector?.name, let collation = Self.collations[selector] { term += " COLLATE \(collation)" }
            if !descriptor.ascending { term += " DESC" }
            terms.append(term)
        }
        return terms
    }
}
#endif

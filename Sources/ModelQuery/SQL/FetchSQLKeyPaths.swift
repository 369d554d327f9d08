#if !canImport(CoreData)
import Foundation
import ModelStore

/// How a value is stored, which decides how a constant compared with it is bound.
enum SQLValueKind: Equatable {
    case integer, real, decimal, date, text, blob
    /// An expression whose storage is not one column's (`@count` is `.integer`).
    case any

    init(_ type: StoreLayout.ColumnType) {
        switch type {
        case .integer: self = .integer
        case .float: self = .real
        case .decimal: self = .decimal
        case .timestamp: self = .date
        case .varchar: self = .text
        case .blob: self = .blob
        }
    }
}

/// What a key path leads to, from a row.
enum ResolvedPath {
    /// A scalar value: an attribute's column, a composite leaf, an aggregate over a to-many.
    case value(SQLFragment, SQLValueKind)
    /// An object row (`SELF`, a `SUBQUERY` variable).
    case row(SQLRow)
    /// A to-one relationship: the key column and, when the destination has sub-entities, the
    /// destination entity column.
    case reference(key: String, entity: String?, destination: StoreLayout.EntityLayout)
    /// A to-many relationship, and the rest of the key path to apply to each element.
    case toMany(from: SQLRow, relationship: StoreLayout.PropertyLayout, rest: ArraySlice<String>)
    /// A whole composite attribute: its leaf columns.
    case composite([(sql: String, column: StoreLayout.Column)])
}

/// The rows of a to-many relationship as a subquery source.
struct ToManySource {
    /// `ZTAG t2`, or `Z_1TAGS t2 JOIN ZTAG t3 ON t3.Z_PK = t2.Z_2TAGS` for a join table.
    let from: String
    /// `t2.ZNOTE = t0.Z_PK`
    let correlation: String
    let element: SQLRow
}

extension FetchSQLBuilder {
    func row(_ entity: StoreLayout.EntityLayout) -> SQLRow {
        let row = SQLRow(alias: newAlias(), entity: entity, table: layout.table(of: entity))
        register(row)
        return row
    }

    func destination(of property: StoreLayout.PropertyLayout, from row: SQLRow) throws(FetchSQLError) -> StoreLayout.EntityLayout {
        guard let number = property.destinationEntityNumber, let entity = layout.entity(number: number) else {
            throw FetchSQLError(.unsupported, "relationship \(property.name) of \(row.entity.name) has no destination entity in the store")
        }
        return entity
    }

    /// Follows `components` from `row`: attributes end the path, to-ones join (once per row and
    /// relationship, `LEFT OUTER JOIN` so a nil relationship keeps its row), a to-many stops
    /// with the rest of the path, `@count`/`@sum`/`@avg`/`@min`/`@max` after a to-many become
    /// correlated aggregates.
    func resolve(_ components: ArraySlice<String>, from start: SQLRow, in scope: SQLScope, path: String) throws(FetchSQLError)
        -> ResolvedPath
    {
        var row = start
        var index = components.startIndex
        while index < components.endIndex {
            let name = components[index]
            let rest = components[(index + 1)...]
            if name.hasPrefix("@") {
                throw FetchSQLError(.unsupported, "collection operator \(name) in \(path) must follow a to-many relationship")
            }
            guard let slot = row.entity.slot(of: name) else {
                throw FetchSQLError(.unknownKeyPath, "keypath \(path) not found in entity \(row.entity.name)")
            }
            let property = row.entity.properties[slot]
            switch property.storage {
            case .none:
                throw FetchSQLError(
                    .transientProperty,
                    "keypath \(path): \(name) of \(row.entity.name) is transient and not stored, so a fetch cannot use it")
            case .column(let column):
                guard rest.isEmpty else {
                    throw FetchSQLError(
                        .unknownKeyPath, "keypath \(path): attribute \(name) of \(row.entity.name) has no property \(rest.first!)")
                }
                return .value(SQLFragment(sql: row.column(column), nullable: true), SQLValueKind(row.table.columns[column].type))
            case .composite(let columns):
                if rest.isEmpty { return .composite(columns.map { (row.column($0), row.table.columns[$0]) }) }
                let leaf = Array(rest)
                guard
                    let column = columns.first(where: {
                        if case .attribute(_, _, let leafPath) = row.table.columns[$0].role { leafPath == leaf } else { false }
                    })
                else {
                    throw FetchSQLError(
                        .unknownKeyPath, "keypath \(path): composite attribute \(name) has no element \(leaf.joined(separator: "."))")
                }
                return .value(SQLFragment(sql: row.column(column), nullable: true), SQLValueKind(row.table.columns[column].type))
            case .toOne(let key, let entityColumn, _):
                let destination = try destination(of: property, from: row)
                if rest.isEmpty {
                    return .reference(key: row.column(key), entity: entityColumn.map(row.column), destination: destination)
                }
                let joinKey = "\(row.alias).\(name)"
                if let joined = scope.joined(joinKey) {
                    row = joined
                } else {
                    let joined = self.row(destination)
                    scope.addJoin(
                        joinKey, row: joined,
                        sql: "LEFT OUTER JOIN \(joined.table.name) \(joined.alias) ON \(row.column(key)) = \(joined.primaryKey)")
                    row = joined
                }
            case .inverseOfToOne, .joinTable:
                if let first = rest.first, first.hasPrefix("@") {
                    return .value(
                        try aggregate(first, over: property, from: row, rest: rest.dropFirst(), in: scope, path: path),
                        first == "@count" ? .integer : .any)
                }
                return .toMany(from: row, relationship: property, rest: rest)
            }
            index += 1
        }
        return .row(row)
    }

    /// The elements of a to-many relationship of `row`: through the inverse's key column, or
    /// through the join table.
    func toManySource(_ relationship: StoreLayout.PropertyLayout, from row: SQLRow) throws(FetchSQLError) -> ToManySource {
        let destination = try destination(of: relationship, from: row)
        switch relationship.storage {
        case .inverseOfToOne:
            guard let inverseName = relationship.inverseName, let slot = destination.slot(of: inverseName),
                case .toOne(let key, _, _) = destination.properties[slot].storage
            else {
                throw FetchSQLError(
                    .unsupported, "to-many relationship \(relationship.name) of \(row.entity.name) has no stored inverse key")
            }
            let element = self.row(destination)
            return ToManySource(
                from: "\(element.table.name) \(element.alias)", correlation: "\(element.column(key)) = \(row.primaryKey)", element: element)
        case .joinTable(let index):
            let joinTable = layout.joinTables[index]
            // The destination's column is the one named after this relationship (checked with
            // the entity too, for a relationship whose inverse has the same name).
            func leadsHere(_ side: StoreLayout.JoinTable.Side) -> Bool {
                side.relationshipName == relationship.name && side.entityName == destination.name
            }
            let secondIsTarget =
                leadsHere(joinTable.second) || (!leadsHere(joinTable.first) && joinTable.second.relationshipName == relationship.name)
            let (source, target) = secondIsTarget ? (joinTable.first, joinTable.second) : (joinTable.second, joinTable.first)
            let link = newAlias()
            let element = self.row(destination)
            return ToManySource(
                from:
                    "\(joinTable.name) \(link) JOIN \(element.table.name) \(element.alias) ON \(element.primaryKey) = \(link).\(target.column)",
                correlation: "\(link).\(source.column) = \(row.primaryKey)", element: element)
        default:
            throw FetchSQLError(.unsupported, "\(relationship.name) of \(row.entity.name) is not a stored to-many relationship")
        }
    }

    /// `EXISTS (SELECT 1 FROM <elements> WHERE <correlation> AND <condition>)` over the elements
    /// reached by `relationship` then `rest` (nested to-manys nest subqueries, as `ANY` flattens
    /// nested collections).
    func exists(
        _ relationship: StoreLayout.PropertyLayout, from row: SQLRow, rest: ArraySlice<String>, in scope: SQLScope, path: String,
        condition: (ResolvedPath, SQLScope) throws(FetchSQLError) -> SQLFragment
    ) throws(FetchSQLError) -> SQLFragment {
        let source = try toManySource(relationship, from: row)
        let inner = SQLScope(row: source.element, parent: scope)
        let resolved = try resolve(rest, from: source.element, in: inner, path: path)
        let test: SQLFragment
        if case .toMany(let nestedRow, let nested, let nestedRest) = resolved {
            test = try exists(nested, from: nestedRow, rest: nestedRest, in: inner, path: path, condition: condition)
        } else {
            test = try condition(resolved, inner)
        }
        if test.isAlwaysFalse { return .alwaysFalse }
        let filter = test.isAlwaysTrue ? "" : " AND \(test.sql)"
        return SQLFragment(
            sql: "EXISTS (SELECT 1 FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation)\(filter))", bindings: test.bindings)
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` over a to-many relationship as a correlated
    /// subquery. `@sum` of no elements is 0 (as in memory); the others are NULL.
    func aggregate(
        _ operation: String, over relationship: StoreLayout.PropertyLayout, from row: SQLRow, rest: ArraySlice<String>, in scope: SQLScope,
        path: String
    ) throws(FetchSQLError) -> SQLFragment {
        let source = try toManySource(relationship, from: row)
        let inner = SQLScope(row: source.element, parent: scope)
        if operation == "@count" {
            guard rest.isEmpty else { throw FetchSQLError(.unsupported, "keypath \(path): nothing may follow @count") }
            return SQLFragment(sql: "(SELECT COUNT(*) FROM \(source.from) WHERE \(source.correlation))")
        }
        let function: String
        switch operation {
        case "@sum": function = "SUM"
        case "@avg": function = "AVG"
        case "@min": function = "MIN"
        case "@max": function = "MAX"
        default: throw FetchSQLError(.unsupported, "keypath \(path): collection operator \(operation) is not supported in a fetch")
        }
        guard case .value(let value, _) = try resolve(rest, from: source.element, in: inner, path: path) else {
            throw FetchSQLError(.unsupported, "keypath \(path): \(operation) needs an attribute of the relationship's destination after it")
        }
        let select = "(SELECT \(function)(\(value.sql)) FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation))"
        return SQLFragment(sql: function == "SUM" ? "IFNULL(\(select), 0)" : select, nullable: function != "SUM")
    }
}
#endif

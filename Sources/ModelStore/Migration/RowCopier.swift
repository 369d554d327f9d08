import ModelSchema

/// Copies the rows of a migration step from the renamed source tables into the destination's
/// tables, with one `INSERT … SELECT` per (destination entity, source entity) and per join table.
struct RowCopier {
    typealias Expression = (sql: String, bindings: [SQLiteValue])

    let step: StoreMigrationStep
    let connection: StoreConnection
    /// Source table name → its temporary name.
    let renamed: [String: String]
    /// Order columns with no source values, numbered after the copy: positions within `partition`
    /// in `sort` order.
    var pendingOrders: Set<PendingOrder> = []
    /// Entity and join-table rows copied so far, reported to `rowsCopied` after each statement.
    private(set) var copiedRows = 0
    let rowsCopied: ((Int) -> Void)?

    struct PendingOrder: Hashable {
        let table: String
        let column: String
        let partition: String
        let sort: String
    }

    init(step: StoreMigrationStep, connection: StoreConnection, renamed: [String: String], rowsCopied: ((Int) -> Void)? = nil) {
        self.step = step
        self.connection = connection
        self.renamed = renamed
        self.rowsCopied = rowsCopied
    }

    // MARK: Entity tables

    mutating func copyEntityRows() throws {
        let layout = step.destinationLayout
        for (tableIndex, table) in layout.tables.enumerated() {
            for entity in layout.entities where entity.tableIndex == tableIndex {
                guard let sourceName = step.mapping.sourceEntity(of: entity.name), let old = step.sourceLayout.entity(named: sourceName),
                    let from = renamed[step.sourceLayout.table(of: old).name]
                else { continue }
                let oldTable = step.sourceLayout.table(of: old)
                var expressions = [Expression](repeating: ("NULL", []), count: table.columns.count)
                for (index, column) in table.columns.enumerated() {
                    switch column.role {
                    case .primaryKey: expressions[index] = ("Z_PK", [])
                    case .entityNumber: expressions[index] = ("?", [.integer(Int64(entity.entityNumber))])
                    case .optimisticLock: expressions[index] = ("Z_OPT", [])
                    default: break
                    }
                }
                for property in entity.properties {
                    switch property.storage {
                    case .column(let index):
                        expressions[index] = attribute(property.name, path: [], of: entity, from: old, in: oldTable)
                    case .composite(let indexes):
                        for index in indexes {
                            guard case .attribute(_, _, let path) = table.columns[index].role else { continue }
                            expressions[index] = attribute(property.name, path: path, of: entity, from: old, in: oldTable)
                        }
                    case .toOne(let key, let entityColumn, let order):
                        toOne(
                            property, of: entity, from: old, in: oldTable, table: table, key: key, entityColumn: entityColumn, order: order,
                            into: &expressions)
                    default: break
                    }
                }
                let sql =
                    "INSERT INTO \(quoted(table.name)) (" + table.columns.map { quoted($0.name) }.joined(separator: ", ") + ") SELECT "
                    + expressions.map(\.sql).joined(separator: ", ") + " FROM \(quoted(from)) WHERE Z_ENT = ?"
                try copy(sql, expressions.flatMap(\.bindings) + [.integer(Int64(old.entityNumber))])
            }
        }
    }

    /// The value of a destination attribute (or a composite's leaf at `path`): the mapped source
    /// column, with the default for rows without a value when the attribute is required; the
    /// default value for a new attribute; NULL otherwise.
    private func attribute(
        _ name: String, path: [String], of entity: StoreLayout.EntityLayout, from old: StoreLayout.EntityLayout,
        in oldTable: StoreLayout.Table
    ) -> Expression {
        let lookup = step.destinationLookup
        let declared = lookup.entity(named: entity.name).flatMap { lookup.allProperties(of: $0).attributes.first { $0.name == name } }
        let leaf = declared.flatMap { Self.leaf($0, path: path, lookup: lookup) }
        let fallback = leaf.flatMap { leaf in leaf.defaultValue.flatMap { StoreLiteral.value($0, type: leaf.type) } }
        if let sourceName = step.mapping.sourceProperty(name, of: entity.name), let slot = old.slot(of: sourceName) {
            var column: String?
            switch old.properties[slot].storage {
            case .column(let index) where path.isEmpty: column = oldTable.columns[index].name
            case .composite(let indexes):
                column = indexes.first { index in
                    if case .attribute(_, _, let oldPath) = oldTable.columns[index].role { oldPath == path } else { false }
                }.map { oldTable.columns[$0].name }
            default: break
            }
            if let column {
                if let fallback, declared?.isOptional == false { return ("COALESCE(\(quoted(column)), ?)", [fallback]) }
                return (quoted(column), [])
            }
        }
        return fallback.map { ("?", [$0]) } ?? ("NULL", [])
    }

    static func leaf(_ attribute: Attribute, path: [String], lookup: VersionLookup) -> Attribute? {
        var current = attribute
        for name in path {
            guard case .composite(let typeName) = current.type, let type = lookup.composite(named: typeName),
                let field = type.attributes.first(where: { $0.name == name })
            else { return nil }
            current = field
        }
        return current
    }

    /// A to-one's key, destination entity and order columns from the mapped source to-one.
    private mutating func toOne(
        _ property: StoreLayout.PropertyLayout, of entity: StoreLayout.EntityLayout, from old: StoreLayout.EntityLayout,
        in oldTable: StoreLayout.Table, table: StoreLayout.Table, key: Int, entityColumn: Int?, order: Int?,
        into expressions: inout [Expression]
    ) {
        guard let sourceName = step.mapping.sourceProperty(property.name, of: entity.name), let slot = old.slot(of: sourceName),
            case .toOne(let oldKey, let oldEntity, let oldOrder) = old.properties[slot].storage
        else { return }
        let keyColumn = quoted(oldTable.columns[oldKey].name)
        expressions[key] = (keyColumn, [])
        if let entityColumn {
            if let oldEntity {
                expressions[entityColumn] = renumbered(quoted(oldTable.columns[oldEntity].name))
            } else if let number = property.destinationEntityNumber {
                expressions[entityColumn] = ("CASE WHEN \(keyColumn) IS NULL THEN NULL ELSE ? END", [.integer(Int64(number))])
            }
        }
        if let order {
            if let oldOrder {
                expressions[order] = (quoted(oldTable.columns[oldOrder].name), [])
            } else {
                pendingOrders.insert(
                    .init(table: table.name, column: table.columns[order].name, partition: table.columns[key].name, sort: "Z_PK"))
            }
        }
    }

    /// An entity-number column's value in the destination's numbering.
    private func renumbered(_ column: String) -> Expression {
        let pairs = step.entityNumbers.sorted { $0.key < $1.key }
        guard !pairs.isEmpty else { return ("NULL", []) }
        return (
            "CASE \(column)" + String(repeating: " WHEN ? THEN ?", count: pairs.count) + " END",
            pairs.flatMap { [SQLiteValue.integer(Int64($0.key)), .integer(Int64($0.value))] }
        )
    }

    func tableName(of entity: String) -> String? {
        step.destinationLayout.entity(named: entity).map { step.destinationLayout.table(of: $0).name }
    }

    // MARK: After the copy

    /// To-one keys whose row is gone (its entity was removed) become NULL, with their entity and
    /// order columns.
    func clearDanglingKeys() throws {
        let layout = step.destinationLayout
        for table in layout.tables {
            for column in table.columns {
                guard case .foreignKey(let entityName, let property) = column.role, let entity = layout.entity(named: entityName),
                    let slot = entity.slot(of: property), let number = entity.properties[slot].destinationEntityNumber,
                    let target = layout.entity(number: number)
                else { continue }
                let companions = table.columns.filter {
                    switch $0.role {
                    case .foreignEntity(entityName, property), .order(entityName, property): true
                    default: false
                    }
                }
                let assignments = ([column] + companions).map { "\(quoted($0.name)) = NULL" }.joined(separator: ", ")
                try run(
                    "UPDATE \(quoted(table.name)) SET \(assignments) WHERE \(quoted(column.name)) IS NOT NULL AND \(quoted(column.name)) NOT IN (SELECT Z_PK FROM \(quoted(layout.table(of: target).name)))",
                    [])
            }
        }
    }

    /// Relationships that become ordered get Core Data's order values
    /// (``StoreLayout/orderValue(at:)``) in key order.
    func fillOrderColumns() throws {
        for order in pendingOrders.sorted(by: { ($0.table, $0.column) < ($1.table, $1.column) }) {
            let (table, column, partition, sort) = (quoted(order.table), quoted(order.column), quoted(order.partition), quoted(order.sort))
            // One pass: the positions come from a window over the table (UPDATE … FROM, SQLite 3.33).
            try run(
                "UPDATE \(table) SET \(column) = (positions.position + 1) * \(StoreLayout.orderSpacing) FROM (SELECT rowid AS id, ROW_NUMBER() OVER (PARTITION BY \(partition) ORDER BY \(sort)) AS position FROM \(table) WHERE \(column) IS NULL AND \(partition) IS NOT NULL) AS positions WHERE \(table).rowid = positions.id",
                [])
        }
    }

    /// Runs an `INSERT … SELECT` and counts the rows it copied.
    mutating func copy(_ sql: String, _ bindings: [SQLiteValue]) throws {
        try run(sql, bindings)
        copiedRows += connection.changes
        rowsCopied?(copiedRows)
    }

    func run(_ sql: String, _ bindings: [SQLiteValue]) throws {
        let statement = try connection.prepare(sql)
        statement.bind(bindings)
        while try statement.step() {}
    }
}

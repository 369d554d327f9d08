import ModelSchema

/// An existing store's layout of a model version, read from the store itself.
public struct ExistingStoreLayout: Sendable {
    /// The version's layout with the store's entity numbers, column names and join-table names,
    /// so an engine reads and writes the store by name whatever order its columns are in.
    public let layout: StoreLayout
    /// What the store lacks or has otherwise than the version needs; empty when the layout can
    /// be used. Each names the table, column or entity.
    public let differences: [String]
    /// Whether ``layout`` differs from the layout a new store of the version gets.
    public let differsFromNewStores: Bool
}

extension StoreSchema {
    /// Reads how an existing store lays out `version`, as Core Data reads a store: entity numbers
    /// from `Z_PRIMARYKEY` (a renamed entity may keep its renaming identifier there), tables and
    /// columns by name (stores migrated in place have later columns at the end, so order is never
    /// compared), the join table of a relationship between two ends of one entity under either
    /// side's name, join columns with any numeric suffix. What is missing, or declared with
    /// another type, is a difference.
    public static func existingLayout(of connection: StoreConnection, version: ModelVersion) throws -> ExistingStoreLayout {
        let created = StoreLayout(version)
        var differences: [String] = []
        let numbers = try entityNumbers(of: connection, layout: created, version: version, differences: &differences)
        guard differences.isEmpty else { return .init(layout: created, differences: differences, differsFromNewStores: false) }
        let numbered = numbers == created.entityNumbersByName ? created : StoreLayout(version, numbers: numbers)
        var reader = ExistingTableReader(connection: connection, layout: numbered)
        let layout = try reader.read()
        differences += reader.differences
        return .init(layout: layout, differences: differences, differsFromNewStores: !layout.hasSameNames(as: created))
    }

    /// The store's number of each entity of the version, or differences when the store's
    /// entities are not the version's or are not numbered depth-first from 1.
    private static func entityNumbers(
        of connection: StoreConnection, layout: StoreLayout, version: ModelVersion, differences: inout [String]
    ) throws -> [String: Int] {
        let rows = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        var numbers: [String: Int] = [:]
        var parents: [String: Int] = [:]
        for row in rows {
            guard let number = row[0].integerValue.map(Int.init) else { continue }
            let name = row[1].textValue ?? ""
            let entity = version.entity(named: name) ?? version.entities.first { $0.renamingIdentifier == name }
            guard let entity, numbers[entity.name] == nil else {
                differences.append("Z_PRIMARYKEY has entity \(number) '\(name)', which the model does not have")
                continue
            }
            numbers[entity.name] = number
            parents[entity.name] = row[2].integerValue.map(Int.init) ?? 0
        }
        for entity in layout.entities where numbers[entity.name] == nil {
            differences.append("entity '\(entity.name)' is missing from Z_PRIMARYKEY")
        }
        guard differences.isEmpty else { return numbers }
        for entity in layout.entities {
            let parent = version.entity(named: entity.name)?.parentName.flatMap { numbers[$0] } ?? 0
            if parents[entity.name] != parent {
                differences.append(
                    "entity \(numbers[entity.name]!) '\(entity.name)' has parent \(parents[entity.name]!) in the store, \(parent) in the model"
                )
            }
        }
        // Depth-first from 1: the numbers are 1…n and each subtree's are contiguous from its root.
        let expectedRange = Set(1...max(layout.entities.count, 1))
        var depthFirst = Set(numbers.values) == expectedRange || layout.entities.isEmpty
        for entity in layout.entities where depthFirst {
            let subtree = entity.entityNumbers.map { layout.entities[$0 - 1].name }
            let mine = Set(subtree.map { numbers[$0]! })
            let first = numbers[entity.name]!
            depthFirst = mine == Set(first..<(first + subtree.count))
        }
        if !depthFirst, differences.isEmpty {
            let listed = rows.map { "\($0[0].integerValue ?? 0) \($0[1].textValue ?? "")" }.joined(separator: ", ")
            differences.append("Z_PRIMARYKEY numbers the entities in an order this runtime cannot read (\(listed))")
        }
        return numbers
    }
}

/// Reads the tables and join tables of a layout from a store, renaming the layout's columns and
/// join tables to the store's.
private struct ExistingTableReader {
    let connection: StoreConnection
    let layout: StoreLayout
    var differences: [String] = []
    /// Layout column → store column, per table (only where they differ).
    var renamed: [String: [String: String]] = [:]
    /// The store's form of each join table, by the layout's name.
    var joinTablesByName: [String: StoreLayout.JoinTable] = [:]

    init(connection: StoreConnection, layout: StoreLayout) {
        self.connection = connection
        self.layout = layout
    }

    /// The declared columns of `table`, keyed by upper-cased name (SQLite names ignore case).
    func columns(of table: String) throws -> [String: (name: String, type: String)] {
        var result: [String: (name: String, type: String)] = [:]
        for row in try connection.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) {
            let name = row[0].textValue ?? ""
            result[name.uppercased()] = (name, (row[1].textValue ?? "").uppercased())
        }
        return result
    }

    mutating func read() throws -> StoreLayout {
        var tables: [StoreLayout.Table] = []
        for table in layout.tables { tables.append(try read(table)) }
        var joinTables: [StoreLayout.JoinTable] = []
        for joinTable in layout.joinTables {
            let read = try read(joinTable)
            joinTables.append(read)
            joinTablesByName[joinTable.name] = read
        }
        // Indexes as a new store with these names would have them.
        var indexes: [StoreLayout.Index] = []
        for index in layout.indexes {
            if let joinTable = joinTablesByName[index.table] {
                indexes.append(
                    .init(
                        name: "\(joinTable.name)_\(joinTable.second.column)_INDEX", table: joinTable.name,
                        elements: [
                            .init(column: joinTable.second.column, ordering: nil), .init(column: joinTable.first.column, ordering: nil),
                        ],
                        isUnique: false))
                continue
            }
            let rename = renamed[index.table] ?? [:]
            indexes.append(
                .init(
                    name: index.name, table: index.table,
                    elements: index.elements.map { .init(column: rename[$0.column] ?? $0.column, ordering: $0.ordering) },
                    isUnique: index.isUnique))
        }
        return StoreLayout(
            entities: layout.entities, tables: tables, joinTables: joinTables, indexes: indexes,
            entityNumbersByName: layout.entityNumbersByName)
    }

    private mutating func read(_ table: StoreLayout.Table) throws -> StoreLayout.Table {
        let stored = try columns(of: table.name)
        guard !stored.isEmpty else {
            differences.append("table \(table.name) is missing")
            return table
        }
        var columns: [StoreLayout.Column] = []
        for column in table.columns {
            var found = stored[column.name.uppercased()]
            if found == nil, case .foreignEntity = column.role {
                // `Z<destination entity number>_<RELATIONSHIP>`: the number is the one the
                // destination had when the column was added.
                let suffix = column.name.drop { $0 != "_" }
                let candidates = stored.values.filter { candidate in
                    let upper = candidate.name.uppercased()
                    return upper.hasSuffix(suffix.uppercased()) && upper.dropLast(suffix.count).dropFirst().allSatisfy(\.isNumber)
                        && upper.dropLast(suffix.count).count > 1
                }
                if candidates.count == 1 { found = candidates[0] }
            }
            guard let found else {
                differences.append("table \(table.name) lacks column \(column.name) (\(column.type.rawValue))")
                columns.append(column)
                continue
            }
            let type = column.role == .primaryKey ? "INTEGER" : column.type.rawValue
            if !Self.sameType(found.type, type) {
                differences.append("column \(table.name).\(found.name) is \(found.type) in the store, the model needs \(type)")
            }
            if found.name != column.name { renamed[table.name, default: [:]][column.name] = found.name }
            columns.append(.init(name: found.name, type: column.type, role: column.role))
        }
        return .init(name: table.name, rootEntityNumber: table.rootEntityNumber, entityNumbers: table.entityNumbers, columns: columns)
    }

    /// Declared types that store a value the same way (`REAL` for `FLOAT`).
    private static func sameType(_ stored: String, _ needed: String) -> Bool {
        if stored == needed { return true }
        let reals: Set<String> = ["FLOAT", "REAL", "DOUBLE"]
        return reals.contains(stored) && reals.contains(needed)
    }

    private mutating func read(_ joinTable: StoreLayout.JoinTable) throws -> StoreLayout.JoinTable {
        // Either side may name the table of a relationship between two ends of one entity.
        var names = [joinTable.name]
        if !joinTable.first.relationshipName.isEmpty, let number = layout.entity(named: joinTable.second.entityName)?.entityNumber {
            names.append("Z_\(number)" + joinTable.first.relationshipName.uppercased())
        }
        var name: String?
        var stored: [String: (name: String, type: String)] = [:]
        for candidate in names {
            stored = try columns(of: candidate)
            if !stored.isEmpty {
                name = candidate
                break
            }
        }
        guard let name else {
            differences.append("join table \(joinTable.name) is missing")
            return joinTable
        }
        let keys = stored.values.map(\.name).filter { !$0.uppercased().hasPrefix("Z_FOK_") }.sorted()
        var taken: Set<String> = []
        func column(for side: StoreLayout.JoinTable.Side, base: String) -> String? {
            if let exact = keys.first(where: { $0.uppercased() == side.column.uppercased() }), !taken.contains(exact) {
                taken.insert(exact)
                return exact
            }
            // A numeric suffix other than ours (columns are made unique across the store's join tables).
            let matches = keys.filter {
                !taken.contains($0) && $0.uppercased().hasPrefix(base) && $0.uppercased().dropFirst(base.count).allSatisfy(\.isNumber)
            }
            guard matches.count == 1 else { return nil }
            taken.insert(matches[0])
            return matches[0]
        }
        let firstBase = Self.base(of: joinTable.first.column)
        let secondBase = Self.base(of: joinTable.second.column)
        let first = column(for: joinTable.first, base: firstBase)
        let second = column(for: joinTable.second, base: secondBase)
        guard let first, let second else {
            differences.append(
                "join table \(name) has columns (\(keys.joined(separator: ", "))), the model needs (\(joinTable.first.column), \(joinTable.second.column))"
            )
            return joinTable
        }
        // An order column is named after the key column whose order it keeps.
        var orderColumns: [String] = []
        for order in joinTable.orderColumns {
            let key = "Z_" + order.dropFirst("Z_FOK_".count)
            let storeKey = key == joinTable.first.column ? first : key == joinTable.second.column ? second : key
            let wanted = "Z_FOK_" + storeKey.dropFirst(2)
            guard let found = stored[wanted.uppercased()] else {
                differences.append("join table \(name) lacks column \(wanted)")
                orderColumns.append(order)
                continue
            }
            orderColumns.append(found.name)
        }
        return .init(
            name: name,
            first: .init(entityName: joinTable.first.entityName, column: first, relationshipName: joinTable.first.relationshipName),
            second: .init(entityName: joinTable.second.entityName, column: second, relationshipName: joinTable.second.relationshipName),
            orderColumns: orderColumns)
    }

    /// A join column's name without a uniqueness suffix: `Z_<n>` and the relationship's name
    /// (which cannot end in a digit-only part after `Z_<n>` is removed).
    private static func base(of column: String) -> String {
        let upper = column.uppercased()
        let prefix = upper.prefix { $0 == "Z" || $0 == "_" || $0.isNumber }
        var name = upper.dropFirst(prefix.count)
        while let last = name.last, last.isNumber { name = name.dropLast() }
        return String(prefix) + name
    }
}

extension StoreLayout {
    /// Whether two layouts of one version give every table, column and join table the same names
    /// and every entity the same number.
    public func hasSameNames(as other: StoreLayout) -> Bool {
        entityNumbersByName == other.entityNumbersByName
            && tables.map { $0.columns.map(\.name) } == other.tables.map { $0.columns.map(\.name) }
            && joinTables == other.joinTables
    }
}

import ModelSchema

extension StoreSchema {
    /// How an existing store differs from the layout of the version that should have written it:
    /// entity numbers, names and parents in `Z_PRIMARYKEY` (a renamed entity may keep its
    /// renaming identifier there), and each table's and join table's columns with their declared
    /// types. Empty when an engine can read and write the store by the layout's indexes.
    public static func differences(of connection: StoreConnection, from layout: StoreLayout, version: ModelVersion) throws -> [String] {
        var differences: [String] = []
        let rows = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        var seen: Set<Int> = []
        for row in rows {
            guard let number = row[0].integerValue.map(Int.init) else { continue }
            seen.insert(number)
            let name = row[1].textValue ?? ""
            guard let entity = layout.entity(number: number) else {
                differences.append("Z_PRIMARYKEY has entity \(number) '\(name)', which the model does not have")
                continue
            }
            let accepted = [entity.name, version.entity(named: entity.name)?.renamingIdentifier].compactMap { $0 }
            if !accepted.contains(name) {
                differences.append("entity \(number) is '\(name)' in the store and '\(entity.name)' in the model")
            }
            if row[2].integerValue != Int64(entity.superEntityNumber) {
                differences.append(
                    "entity \(number) '\(entity.name)' has parent \(row[2].integerValue ?? 0) in the store, \(entity.superEntityNumber) in the model"
                )
            }
        }
        for entity in layout.entities where !seen.contains(entity.entityNumber) {
            differences.append("entity \(entity.entityNumber) '\(entity.name)' is missing from Z_PRIMARYKEY")
        }
        var expected: [(table: String, columns: [(name: String, type: String)])] = layout.tables.map { table in
            (table.name, table.columns.map { ($0.name, $0.type.rawValue) })
        }
        for joinTable in layout.joinTables {
            expected.append(
                (joinTable.name, ([joinTable.first.column, joinTable.second.column] + joinTable.orderColumns).map { ($0, "INTEGER") }))
        }
        for (table, columns) in expected {
            let actual = try connection.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            guard !actual.isEmpty else {
                differences.append("table \(table) is missing")
                continue
            }
            let found = actual.map { "\($0[0].textValue ?? "") \($0[1].textValue ?? "")" }
            let wanted = columns.map { "\($0.name) \($0.type)" }
            if found != wanted {
                differences.append(
                    "table \(table) has columns (\(found.joined(separator: ", "))), the model needs (\(wanted.joined(separator: ", ")))")
            }
        }
        return differences
    }
}

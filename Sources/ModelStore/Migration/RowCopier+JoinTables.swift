import ModelSchema

extension RowCopier {
    /// Where a destination join table's pairs come from: a source join table, or the key column
    /// of a to-one that became to-many (on either side).
    struct PairSource {
        var table: String
        var owner: String
        var other: String
        var filter: String
        /// The position of `other` in the owner's relationship, and of the owner in the inverse.
        var ownerOrder: String?
        var inverseOrder: String?
    }

    mutating func copyJoinTables() throws {
        for joinTable in step.destinationLayout.joinTables {
            let owner = joinTable.first.entityName
            let relationship = joinTable.second.relationshipName
            guard let sourceOwnerName = step.mapping.sourceEntity(of: owner),
                let sourceOwner = step.sourceLayout.entity(named: sourceOwnerName),
                let sourceRelationship = step.mapping.sourceProperty(relationship, of: owner),
                let slot = sourceOwner.slot(of: sourceRelationship),
                let source = try pairSource(sourceOwner.properties[slot], of: sourceOwner)
            else { continue }
            let ownerOrder = "Z_FOK_" + joinTable.second.column.dropFirst(2)
            let inverseOrder = "Z_FOK_" + joinTable.first.column.dropFirst(2)
            var columns = [joinTable.first.column, joinTable.second.column]
            var values = [source.owner, source.other]
            for (column, value, partition, sort) in [
                (ownerOrder, source.ownerOrder, joinTable.first.column, joinTable.second.column),
                (inverseOrder, source.inverseOrder, joinTable.second.column, joinTable.first.column),
            ] where joinTable.orderColumns.contains(column) {
                columns.append(column)
                values.append(value ?? "NULL")
                if value == nil { pendingOrders.insert(.init(table: joinTable.name, column: column, partition: partition, sort: sort)) }
            }
            guard let ownerTable = tableName(of: owner), let otherTable = tableName(of: joinTable.second.entityName) else { continue }
            let sql =
                "INSERT OR IGNORE INTO \(quoted(joinTable.name)) (" + columns.map(quoted).joined(separator: ", ") + ") SELECT "
                + values.joined(separator: ", ") + " FROM \(quoted(source.table)) WHERE \(source.filter)"
                + " AND \(source.owner) IN (SELECT Z_PK FROM \(quoted(ownerTable)))"
                + " AND \(source.other) IN (SELECT Z_PK FROM \(quoted(otherTable)))"
            try copy(sql, [])
        }
    }

    private func pairSource(_ property: StoreLayout.PropertyLayout, of owner: StoreLayout.EntityLayout) throws -> PairSource? {
        let layout = step.sourceLayout
        switch property.storage {
        case .joinTable(let index):
            let joinTable = layout.joinTables[index]
            guard let from = renamed[joinTable.name] else { return nil }
            let declaring = declaringEntity(of: property.name, in: owner.name)
            let ownerFirst = joinTable.second.relationshipName == property.name && joinTable.first.entityName == declaring
            let (ownerColumn, otherColumn) =
                ownerFirst ? (joinTable.first.column, joinTable.second.column) : (joinTable.second.column, joinTable.first.column)
            let existing = Set(try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(from)]).compactMap { $0[0].textValue })
            func ifPresent(_ name: String) -> String? { existing.contains(name) ? quoted(name) : nil }
            return PairSource(
                table: from, owner: quoted(ownerColumn), other: quoted(otherColumn), filter: "1",
                ownerOrder: ifPresent("Z_FOK_" + otherColumn.dropFirst(2)), inverseOrder: ifPresent("Z_FOK_" + ownerColumn.dropFirst(2)))
        case .toOne(let key, _, let order):
            let table = layout.table(of: owner)
            guard let from = renamed[table.name] else { return nil }
            let keyColumn = quoted(table.columns[key].name)
            return PairSource(
                table: from, owner: "Z_PK", other: keyColumn,
                filter:
                    "\(keyColumn) IS NOT NULL AND Z_ENT BETWEEN \(owner.entityNumbers.lowerBound) AND \(owner.entityNumbers.upperBound)",
                ownerOrder: nil, inverseOrder: order.map { quoted(table.columns[$0].name) })
        case .inverseOfToOne:
            guard let number = property.destinationEntityNumber, let destination = layout.entity(number: number),
                let inverse = property.inverseName, let slot = destination.slot(of: inverse),
                case .toOne(let key, _, let order) = destination.properties[slot].storage
            else { return nil }
            let table = layout.table(of: destination)
            guard let from = renamed[table.name] else { return nil }
            let keyColumn = quoted(table.columns[key].name)
            return PairSource(
                table: from, owner: keyColumn, other: "Z_PK",
                filter:
                    "\(keyColumn) IS NOT NULL AND Z_ENT BETWEEN \(destination.entityNumbers.lowerBound) AND \(destination.entityNumbers.upperBound)",
                ownerOrder: order.map { quoted(table.columns[$0].name) }, inverseOrder: nil)
        default:
            return nil
        }
    }

    /// The entity of the source version that declares a property `entity` has.
    private func declaringEntity(of property: String, in entity: String) -> String {
        let lookup = step.sourceLookup
        guard let start = lookup.entity(named: entity) else { return entity }
        for candidate in [start] + lookup.ancestors(of: start) where candidate.relationships.contains(where: { $0.name == property }) {
            return candidate.name
        }
        return entity
    }
}

import ModelSchema

extension LayoutBuilder {
    /// One join table per many-to-many pair (or inverse-less to-many), named after the side
    /// whose entity name sorts first.
    func joinTables() -> [StoreLayout.JoinTable] {
        var result: [StoreLayout.JoinTable] = []
        var done: Set<String> = []
        for entity in order {
            for relationship in entity.relationships.sortedByName(\.name) where usesJoinTable(relationship) {
                guard let own = numbers[entity.name], let destination = numbers[relationship.destinationName] else { continue }
                let inverse = self.inverse(of: relationship)
                let key = [entity.name + "." + relationship.name, relationship.destinationName + "." + (inverse?.name ?? "")].sorted()
                    .joined(separator: "|")
                guard done.insert(key).inserted else { continue }
                // The named side: the entity whose name sorts first (this one when there is no inverse).
                var (a, aRel, aNumber, b, bRel, bNumber) = (
                    entity.name, relationship, own, relationship.destinationName, inverse, destination
                )
                if let inverse, relationship.destinationName < entity.name {
                    (a, aRel, aNumber, b, bRel, bNumber) = (
                        relationship.destinationName, inverse, destination, entity.name, relationship, own
                    )
                }
                let name = "Z_\(aNumber)" + aRel.name.uppercased()
                // Each column holds the keys of one side and is named after the relationship leading to it.
                var firstColumn = "Z_\(aNumber)" + (bRel?.name ?? aRel.name).uppercased()
                let secondColumn = "Z_\(bNumber)" + aRel.name.uppercased()
                if firstColumn == secondColumn { firstColumn += "1" }
                var orderColumns: [String] = []
                if aRel.isOrdered { orderColumns.append("Z_FOK_" + secondColumn.dropFirst(2)) }
                if let bRel, bRel.isOrdered { orderColumns.append("Z_FOK_" + firstColumn.dropFirst(2)) }
                result.append(
                    .init(
                        name: name, first: .init(entityName: a, column: firstColumn, relationshipName: bRel?.name ?? ""),
                        second: .init(entityName: b, column: secondColumn, relationshipName: aRel.name), orderColumns: orderColumns))
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    func indexes(tables: [StoreLayout.Table], joinTables: [StoreLayout.JoinTable]) -> [StoreLayout.Index] {
        var result: [StoreLayout.Index] = []
        for table in tables {
            for column in table.columns {
                if case .foreignKey = column.role {
                    result.append(
                        .init(
                            name: "\(table.name)_\(column.name)_INDEX", table: table.name,
                            elements: [.init(column: column.name, ordering: nil)], isUnique: false))
                }
            }
            for column in table.columns {
                if case .attribute(let entity, let property, _) = column.role,
                    lookup.entity(named: entity)?.attribute(named: property)?.isIndexed == true
                {
                    result.append(
                        .init(
                            name: "\(table.name)_\(column.name)_INDEX", table: table.name,
                            elements: [.init(column: column.name, ordering: nil)], isUnique: false))
                }
            }
            if table.entityNumbers.count > 1 {
                result.append(
                    .init(
                        name: "\(table.name)_Z_ENT_INDEX", table: table.name, elements: [.init(column: "Z_ENT", ordering: nil)],
                        isUnique: false))
            }
            for entity in order[(table.entityNumbers.lowerBound - 1)..<table.entityNumbers.upperBound] {
                func column(_ property: String) -> String? {
                    table.columns.first {
                        switch $0.role {
                        case .attribute(_, let name, _), .foreignKey(_, let name): name == property
                        default: false
                        }
                    }?.name
                }
                for constraint in entity.uniquenessConstraints {
                    let columns = constraint.compactMap(column)
                    guard columns.count == constraint.count, !columns.isEmpty else { continue }
                    result.append(
                        .init(
                            name: "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"), table: table.name,
                            elements: columns.map { .init(column: $0, ordering: "COLLATE BINARY ASC") }, isUnique: true))
                }
                for index in entity.fetchIndexes where index.kind == .binary {
                    let columns = index.elements.map { (column($0.propertyName), $0.isAscending) }
                    guard !columns.isEmpty, columns.allSatisfy({ $0.0 != nil }) else { continue }
                    result.append(
                        .init(
                            name: "Z_\(entity.name)_\(index.name)", table: table.name,
                            elements: columns.map { .init(column: $0.0!, ordering: "COLLATE BINARY " + ($0.1 ? "ASC" : "DESC")) },
                            isUnique: false))
                }
            }
        }
        for joinTable in joinTables {
            result.append(
                .init(
                    name: "\(joinTable.name)_\(joinTable.second.column)_INDEX", table: joinTable.name,
                    elements: [
                        .init(column: joinTable.second.column, ordering: nil), .init(column: joinTable.first.column, ordering: nil),
                    ], isUnique: false))
        }
        return result
    }
}

import ModelSchema

extension LayoutBuilder {
    /// One join table per many-to-many pair (or inverse-less to-many). Entities are taken in
    /// name order ignoring case, sub-entities among them, and their relationships in the same
    /// order; the first side reached names the table `Z_<its entity number><ITS RELATIONSHIP>`.
    /// Between two ends of one entity the relationship whose name sorts last names it (Core Data's
    /// choice there is not explained; inferred from the fixtures, and a reader accepts either).
    /// Each side's column holds its entity's keys and is named after the relationship pointing
    /// at it, made unique among all join columns by a numeric suffix, sides in the order reached.
    func joinTables() -> [StoreLayout.JoinTable] {
        var result: [StoreLayout.JoinTable] = []
        var done: Set<String> = []
        var usedColumns: Set<String> = []
        func unique(_ base: String) -> String {
            if usedColumns.insert(base).inserted { return base }
            var suffix = 1
            while !usedColumns.insert(base + String(suffix)).inserted { suffix += 1 }
            return base + String(suffix)
        }
        for entity in version.entities.sortedByNameIgnoringCase(\.name) {
            for relationship in entity.relationships.sortedByNameIgnoringCase(\.name) where usesJoinTable(relationship) {
                guard let own = numbers[entity.name], let destination = numbers[relationship.destinationName] else { continue }
                let inverse = self.inverse(of: relationship)
                let key = [entity.name + "." + relationship.name, relationship.destinationName + "." + (inverse?.name ?? "")].sorted()
                    .joined(separator: "|")
                guard done.insert(key).inserted else { continue }
                let (a, aNumber, b, bNumber) = (entity.name, own, relationship.destinationName, destination)
                var (aRel, bRel) = (relationship, inverse)
                if let inverse, relationship.destinationName == entity.name, entity.relationship(named: inverse.name) != nil,
                    inverse.name.lowercased() > relationship.name.lowercased()
                {
                    (aRel, bRel) = (inverse, relationship)
                }
                let name = "Z_\(aNumber)" + aRel.name.uppercased()
                var firstBase = "Z_\(aNumber)" + (bRel?.name ?? aRel.name).uppercased()
                let secondBase = "Z_\(bNumber)" + aRel.name.uppercased()
                // Two columns of one name in one table (an inverse-less or self-inverse relationship
                // of an entity to itself): the first gets the suffix, as stores this project
                // created always had it.
                if firstBase == secondBase { firstBase += "1" }
                let firstColumn = unique(firstBase)
                let secondColumn = unique(secondBase)
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

    /// Core Data's indexes in the order it creates them: per table its to-one key indexes and,
    /// with sub-entities, its `Z_ENT` index; the join tables' indexes; then per entity the indexes
    /// of its indexed attributes (an attribute marked indexed, or the only element of a fetch
    /// index: `Z_<Entity>_<attribute>`, framework 847 and later), its fetch indexes and its
    /// uniqueness constraints.
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
            if table.entityNumbers.count > 1 {
                result.append(
                    .init(
                        name: "\(table.name)_Z_ENT_INDEX", table: table.name, elements: [.init(column: "Z_ENT", ordering: nil)],
                        isUnique: false))
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
        for table in tables {
            for entity in order[(table.entityNumbers.lowerBound - 1)..<table.entityNumbers.upperBound] {
                // The column of a property of the entity or one it inherits.
                let owners = Set([entity.name] + lookup.ancestors(of: entity).map(\.name))
                func column(_ property: String) -> String? {
                    table.columns.first {
                        switch $0.role {
                        case .attribute(let owner, let name, _), .foreignKey(let owner, let name):
                            owners.contains(owner) && name == property
                        default: false
                        }
                    }?.name
                }
                var indexed: [String] = entity.attributes.sortedByName(\.name).filter(\.isIndexed).map(\.name)
                let attributes = Set(lookup.allProperties(of: entity).attributes.map(\.name))
                for index in entity.fetchIndexes where index.kind == .binary && index.elements.count == 1 {
                    let name = index.elements[0].propertyName
                    if attributes.contains(name), !indexed.contains(name) { indexed.append(name) }
                }
                for attribute in indexed {
                    guard let column = column(attribute) else { continue }
                    result.append(
                        .init(
                            name: "Z_\(entity.name)_\(attribute)", table: table.name,
                            elements: [.init(column: column, ordering: "COLLATE BINARY ASC")], isUnique: false))
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
                for constraint in entity.uniquenessConstraints {
                    let columns = constraint.compactMap(column)
                    guard columns.count == constraint.count, !columns.isEmpty else { continue }
                    result.append(
                        .init(
                            name: "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"), table: table.name,
                            elements: columns.map { .init(column: $0, ordering: "COLLATE BINARY ASC") }, isUnique: true))
                }
            }
        }
        return result
    }
}

import ModelSchema

/// The group of columns Core Data orders a table by (see docs/StoreFormat.md, "Column order"):
/// integers (attributes, to-one keys and their entity columns), the `Z_FOK_` ordering columns as
/// one block, reals (Double, Float, Date and Decimal together), text, blobs.
private func columnGroup(_ column: StoreLayout.Column) -> Int {
    if case .order = column.role { return 1 }
    switch column.type {
    case .integer: return 0
    case .float, .decimal, .timestamp: return 2
    case .varchar: return 3
    case .blob: return 4
    }
}

func columnType(of type: AttributeType) -> StoreLayout.ColumnType {
    switch type {
    case .integer16, .integer32, .integer64, .boolean: .integer
    case .double, .float: .float
    case .decimal: .decimal
    case .date: .timestamp
    case .string, .uri: .varchar
    case .binaryData, .uuid, .transformable, .objectID, .composite: .blob
    // Core Data allows Undefined only on transient attributes, which get no column.
    case .undefined: .blob
    }
}

extension LayoutBuilder {
    /// The columns of one inheritance tree's table in Core Data's order, and for each (entity,
    /// property) the indexes of its columns.
    func columns(of tree: [Entity]) -> ([StoreLayout.Column], [String: [String: [Int]]]) {
        struct Pending {
            let column: StoreLayout.Column
            let entityRank: Int
            let propertyRank: Int
            let propertyName: String
            let entityName: String
            let withinProperty: Int
        }
        var pending: [Pending] = []
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        func unique(_ base: String) -> String {
            if used.insert(base).inserted { return base }
            var suffix = 1
            while !used.insert(base + String(suffix)).inserted { suffix += 1 }
            return base + String(suffix)
        }
        for (entityRank, entity) in tree.enumerated() {
            for attribute in entity.attributes.sortedByName(\.name) where !attribute.isTransient {
                for (offset, leaf) in leaves(of: attribute).enumerated() {
                    let columnName = unique("Z" + (leaf.path.last ?? attribute.name).uppercased())
                    pending.append(
                        .init(
                            column: .init(
                                name: columnName, type: columnType(of: leaf.type),
                                role: .attribute(entity: entity.name, property: attribute.name, path: leaf.path)),
                            // Blobs: Transformable attributes before Binary (and UUID) ones.
                            entityRank: entityRank,
                            propertyRank: columnType(of: leaf.type) == .blob && !leaf.type.isTransformable ? 1 : 0,
                            propertyName: attribute.name, entityName: entity.name, withinProperty: offset))
                }
            }
            for relationship in entity.relationships.sortedByName(\.name)
            where !relationship.isToMany && !relationship.isTransient {
                let upper = relationship.name.uppercased()
                let key = unique("Z" + upper)
                var columns: [StoreLayout.Column] = [
                    .init(name: key, type: .integer, role: .foreignKey(entity: entity.name, property: relationship.name))
                ]
                if hasSubEntities(relationship.destinationName), let destination = numbers[relationship.destinationName] {
                    columns.append(
                        .init(
                            name: unique("Z\(destination)_" + upper), type: .integer,
                            role: .foreignEntity(entity: entity.name, property: relationship.name)))
                }
                if let inverse = inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
                    columns.append(
                        .init(
                            name: unique("Z_FOK_" + upper), type: .integer, role: .order(entity: entity.name, property: relationship.name)))
                }
                for (offset, column) in columns.enumerated() {
                    pending.append(
                        .init(
                            column: column, entityRank: entityRank, propertyRank: 2, propertyName: relationship.name,
                            entityName: entity.name, withinProperty: offset))
                }
            }
        }
        // Within a group entity by entity (in entity-number order), then attributes before to-one
        // keys (integers) or Transformable before other blobs, then by property name.
        pending.sort {
            let left = (columnGroup($0.column), $0.entityRank, $0.propertyRank)
            let right = (columnGroup($1.column), $1.entityRank, $1.propertyRank)
            if left != right { return left < right }
            if $0.propertyName != $1.propertyName { return $0.propertyName < $1.propertyName }
            return $0.withinProperty < $1.withinProperty
        }
        var columns: [StoreLayout.Column] = [
            .init(name: "Z_PK", type: .integer, role: .primaryKey), .init(name: "Z_ENT", type: .integer, role: .entityNumber),
            .init(name: "Z_OPT", type: .integer, role: .optimisticLock),
        ]
        var indexes: [String: [String: [Int]]] = [:]
        for item in pending {
            indexes[item.entityName, default: [:]][item.propertyName, default: []].append(columns.count)
            columns.append(item.column)
        }
        return (columns, indexes)
    }
}

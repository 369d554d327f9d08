import ModelSchema

extension StoreLayout {
    /// Computes the layout of `version`. The version is assumed to have passed the compiler's
    /// checks; unknown parents or destinations are skipped rather than trapped on.
    public init(_ version: ModelVersion) {
        var builder = LayoutBuilder(version)
        self = builder.build()
    }
}

/// The SQL type group Core Data orders columns by: integers (with keys and order columns), then
/// reals (Double, Float, Date and Decimal, in name order together), text, blobs.
private func typeGroup(_ type: StoreLayout.ColumnType) -> Int {
    switch type {
    case .integer: 0
    case .float, .decimal, .timestamp: 1
    case .varchar: 2
    case .blob: 3
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
    }
}

private struct LayoutBuilder {
    let version: ModelVersion
    let lookup: VersionLookup
    var numbers: [String: Int] = [:]
    /// The highest entity number in each entity's subtree (depth-first numbering keeps it contiguous).
    var lastInSubtree: [String: Int] = [:]
    var order: [Entity] = []
    var childrenByParent: [String: [Entity]] = [:]

    init(_ version: ModelVersion) {
        self.version = version
        lookup = VersionLookup(version)
        for entity in version.entities {
            if let parent = entity.parentName, lookup.entity(named: parent) != nil {
                childrenByParent[parent, default: []].append(entity)
            }
        }
    }

    /// Roots sorted by name, each followed depth-first by its sub-entities sorted by name.
    mutating func number() {
        func visit(_ entity: Entity) {
            guard numbers[entity.name] == nil else { return }
            order.append(entity)
            numbers[entity.name] = order.count
            for child in (childrenByParent[entity.name] ?? []).sorted(by: { $0.name < $1.name }) { visit(child) }
            lastInSubtree[entity.name] = order.count
        }
        let roots = version.entities.filter { $0.parentName == nil || lookup.entity(named: $0.parentName!) == nil }
        for root in roots.sorted(by: { $0.name < $1.name }) { visit(root) }
    }

    func root(of entity: Entity) -> Entity { lookup.ancestors(of: entity).last ?? entity }

    func hasSubEntities(_ name: String) -> Bool { !(childrenByParent[name] ?? []).isEmpty }

    func leaves(of attribute: Attribute, path: [String] = [], depth: Int = 0) -> [(path: [String], type: AttributeType)] {
        guard case .composite(let name) = attribute.type else { return [(path, attribute.type)] }
        guard depth < 32, let composite = lookup.composite(named: name) else { return [] }
        return composite.attributes.filter { !$0.isTransient }.flatMap { leaves(of: $0, path: path + [$0.name], depth: depth + 1) }
    }

    /// True when the relationship is stored in a join table: a to-many whose inverse is a
    /// to-many or that has no inverse.
    func usesJoinTable(_ relationship: Relationship) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse = inverse(of: relationship) else { return true }
        return inverse.isToMany
    }

    func inverse(of relationship: Relationship) -> Relationship? {
        guard let name = relationship.inverseName, let destination = lookup.entity(named: relationship.destinationName) else { return nil }
        return lookup.allProperties(of: destination).relationships.first { $0.name == name }
    }

    mutating func build() -> StoreLayout {
        number()
        var tables: [StoreLayout.Table] = []
        var tableIndexByRoot: [String: Int] = [:]
        var columnIndex: [String: [String: [Int]]] = [:]  // entity → property → column indexes
        for entity in order where root(of: entity).name == entity.name {
            let first = numbers[entity.name]!
            let last = lastInSubtree[entity.name]!
            let (columns, indexByProperty) = columns(of: Array(order[(first - 1)..<last]))
            tableIndexByRoot[entity.name] = tables.count
            tables.append(
                .init(name: "Z" + entity.name.uppercased(), rootEntityNumber: first, entityNumbers: first...last, columns: columns))
            columnIndex.merge(indexByProperty) { $1 }
        }
        let joinTables = joinTables()
        var entities: [StoreLayout.EntityLayout] = []
        for entity in order {
            let number = numbers[entity.name]!
            let rootEntity = root(of: entity)
            let all = lookup.allProperties(of: entity)
            var properties: [StoreLayout.PropertyLayout] = []
            // The column lookup uses the declaring entity: the nearest entity (self or ancestor) declaring the name.
            var owners: [String: String] = [:]
            for declaringEntity in lookup.ancestors(of: entity).reversed() + [entity] {
                for attribute in declaringEntity.attributes { owners[attribute.name] = declaringEntity.name }
                for relationship in declaringEntity.relationships { owners[relationship.name] = declaringEntity.name }
            }
            func declaring(_ name: String) -> String { owners[name] ?? entity.name }
            for attribute in all.attributes.sorted(by: { $0.name < $1.name }) {
                let indexes = columnIndex[declaring(attribute.name)]?[attribute.name] ?? []
                let storage: StoreLayout.PropertyLayout.Storage =
                    attribute.isTransient
                    ? .none : (attribute.type.isComposite ? .composite(indexes) : indexes.first.map { .column($0) } ?? .none)
                properties.append(
                    .init(
                        name: attribute.name, slot: properties.count, isRelationship: false, destinationEntityNumber: nil, storage: storage)
                )
            }
            for relationship in all.relationships.sorted(by: { $0.name < $1.name }) {
                let owner = declaring(relationship.name)
                var storage: StoreLayout.PropertyLayout.Storage = .none
                if relationship.isTransient {
                    storage = .none
                } else if !relationship.isToMany {
                    let indexes = columnIndex[owner]?[relationship.name] ?? []
                    let table = tables[tableIndexByRoot[rootEntity.name]!]
                    func find(_ role: (StoreLayout.Column.Role) -> Bool) -> Int? { indexes.first { role(table.columns[$0].role) } }
                    if let key = find({ if case .foreignKey = $0 { true } else { false } }) {
                        storage = .toOne(
                            key: key, entity: find({ if case .foreignEntity = $0 { true } else { false } }),
                            order: find({ if case .order = $0 { true } else { false } }))
                    }
                } else if usesJoinTable(relationship) {
                    if let index = joinTables.firstIndex(where: { $0.involves(entity: owner, relationship: relationship.name) }) {
                        storage = .joinTable(index)
                    }
                } else {
                    storage = .inverseOfToOne
                }
                properties.append(
                    .init(
                        name: relationship.name, slot: properties.count, isRelationship: true,
                        destinationEntityNumber: numbers[relationship.destinationName], storage: storage))
            }
            entities.append(
                .init(
                    name: entity.name, entityNumber: number, superEntityNumber: entity.parentName.flatMap { numbers[$0] } ?? 0,
                    rootEntityNumber: numbers[rootEntity.name]!, entityNumbers: number...lastInSubtree[entity.name]!,
                    tableIndex: tableIndexByRoot[rootEntity.name]!, properties: properties,
                    slotsByName: Dictionary(properties.map { ($0.name, $0.slot) }, uniquingKeysWith: { first, _ in first })))
        }
        return StoreLayout(
            entities: entities, tables: tables, joinTables: joinTables, indexes: indexes(tables: tables, joinTables: joinTables),
            entityNumbersByName: numbers)
    }

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
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
                for (offset, leaf) in leaves(of: attribute).enumerated() {
                    let columnName = unique("Z" + (leaf.path.last ?? attribute.name).uppercased())
                    pending.append(
                        .init(
                            column: .init(
                                name: columnName, type: columnType(of: leaf.type),
                                role: .attribute(entity: entity.name, property: attribute.name, path: leaf.path)),
                            entityRank: entityRank, propertyRank: 0, propertyName: attribute.name, entityName: entity.name,
                            withinProperty: offset))
                }
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name })
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
                            column: column, entityRank: entityRank, propertyRank: 1, propertyName: relationship.name,
                            entityName: entity.name, withinProperty: offset))
                }
            }
        }
        pending.sort {
            let left = (typeGroup($0.column.type), $0.entityRank, $0.propertyRank)
            let right = (typeGroup($1.column.type), $1.entityRank, $1.propertyRank)
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

    /// One join table per many-to-many pair (or inverse-less to-many), named after the side
    /// whose entity name sorts first.
    func joinTables() -> [StoreLayout.JoinTable] {
        var result: [StoreLayout.JoinTable] = []
        var done: Set<String> = []
        for entity in order {
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where usesJoinTable(relationship) {
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

extension AttributeType {
    var isComposite: Bool { if case .composite = self { true } else { false } }
}

extension StoreLayout.JoinTable {
    func involves(entity: String, relationship: String) -> Bool {
        (first.entityName == entity && second.relationshipName == relationship)
            || (second.entityName == entity && first.relationshipName == relationship)
    }
}

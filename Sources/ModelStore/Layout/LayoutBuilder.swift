import ModelSchema

extension StoreLayout {
    /// Computes the layout of `version`. The version is assumed to have passed the compiler's
    /// checks; unknown parents or destinations are skipped rather than trapped on.
    public init(_ version: ModelVersion) {
        var builder = LayoutBuilder(version)
        self = builder.build()
    }

    /// The layout of `version` with the given entity numbers (an existing store's `Z_PRIMARYKEY`)
    /// instead of Core Data's numbering. The numbers must be depth-first: each entity's subtree
    /// holds the numbers from its own up to its last sub-entity's (``EntityNumbering/check``).
    init(_ version: ModelVersion, numbers: [String: Int]) {
        var builder = LayoutBuilder(version)
        builder.assignedNumbers = numbers
        self = builder.build()
    }
}

struct LayoutBuilder {
    let version: ModelVersion
    let lookup: VersionLookup
    var numbers: [String: Int] = [:]
    /// The highest entity number in each entity's subtree (depth-first numbering keeps it contiguous).
    var lastInSubtree: [String: Int] = [:]
    var order: [Entity] = []
    var childrenByParent: [String: [Entity]] = [:]
    /// Entity numbers to use instead of Core Data's (an existing store's).
    var assignedNumbers: [String: Int]? = nil

    init(_ version: ModelVersion) {
        self.version = version
        lookup = VersionLookup(version)
        for entity in version.entities {
            if let parent = entity.parentName, lookup.entity(named: parent) != nil {
                childrenByParent[parent, default: []].append(entity)
            }
        }
    }

    /// Roots sorted by name ignoring case (as `caseInsensitiveCompare:` orders them), each
    /// followed depth-first by its sub-entities in the same order; or the assigned numbers.
    mutating func number() {
        var visitOrder: [Entity] = []
        func visit(_ entity: Entity) {
            guard numbers[entity.name] == nil else { return }
            visitOrder.append(entity)
            numbers[entity.name] = visitOrder.count
            for child in (childrenByParent[entity.name] ?? []).sortedByNameIgnoringCase(\.name) { visit(child) }
            lastInSubtree[entity.name] = visitOrder.count
        }
        let roots = version.entities.filter { $0.parentName == nil || lookup.entity(named: $0.parentName!) == nil }
        for root in roots.sortedByNameIgnoringCase(\.name) { visit(root) }
        order = visitOrder
        guard let assignedNumbers else { return }
        // The subtree of an entity keeps its size; only where it starts moves.
        let sizes = visitOrder.map { lastInSubtree[$0.name]! - numbers[$0.name]! }
        for (entity, size) in zip(visitOrder, sizes) {
            let number = assignedNumbers[entity.name] ?? numbers[entity.name]!
            numbers[entity.name] = number
            lastInSubtree[entity.name] = number + size
        }
        order = visitOrder.sorted { numbers[$0.name]! < numbers[$1.name]! }
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
            for attribute in all.attributes.sortedByName(\.name) {
                let indexes = columnIndex[declaring(attribute.name)]?[attribute.name] ?? []
                let storage: StoreLayout.PropertyLayout.Storage =
                    attribute.isTransient
                    ? .none : (attribute.type.isComposite ? .composite(indexes) : indexes.first.map { .column($0) } ?? .none)
                properties.append(
                    .init(
                        name: attribute.name, slot: properties.count, isRelationship: false, destinationEntityNumber: nil, storage: storage)
                )
            }
            for relationship in all.relationships.sortedByName(\.name) {
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
                        destinationEntityNumber: numbers[relationship.destinationName], storage: storage,
                        inverseName: relationship.inverseName))
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
}

extension Array {
    /// The elements in name order. Sorts positions rather than the (large) schema values, so
    /// each value is copied once, not on every swap.
    func sortedByName(_ name: (Element) -> String) -> [Element] {
        let names = map(name)
        return indices.sorted { names[$0] < names[$1] }.map { self[$0] }
    }

    /// The elements in name order ignoring case, as Foundation's `caseInsensitiveCompare:` orders
    /// ASCII names; names equal but for case keep their byte order.
    func sortedByNameIgnoringCase(_ name: (Element) -> String) -> [Element] {
        let names = map(name)
        let folded = names.map { $0.lowercased() }
        return indices.sorted { folded[$0] != folded[$1] ? folded[$0] < folded[$1] : names[$0] < names[$1] }.map { self[$0] }
    }
}

extension AttributeType {
    var isComposite: Bool { if case .composite = self { true } else { false } }
    var isTransformable: Bool { if case .transformable = self { true } else { false } }
}

extension StoreLayout.JoinTable {
    func involves(entity: String, relationship: String) -> Bool {
        (first.entityName == entity && second.relationshipName == relationship)
            || (second.entityName == entity && first.relationshipName == relationship)
    }
}

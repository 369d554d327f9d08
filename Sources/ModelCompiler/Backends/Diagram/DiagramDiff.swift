import ModelSchema

/// Two versions → one diagram of both (`modelgen diagram --diff`): the newer version's entities
/// and relationships, with what the older one had and the newer one lost, each marked with how
/// the step between them changes it. What changes is the migration planner's mapping
/// (``MigrationPlanner``: renames through renaming identifiers, stored properties); transient
/// properties, which it does not map, are compared by name.
public enum DiagramDiff {
    public static func diagram(from old: ModelVersion, to new: ModelVersion, modelName: String) -> Diagram {
        var diff = DiffState(old: old, new: new)
        for mapping in MigrationPlanner.step(from: old, to: new).entities { diff.apply(mapping) }
        diff.compareTransientProperties()
        let entities = diff.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let oldMemberships = DiagramBuilder.memberships(in: old)
        let newMemberships = DiagramBuilder.memberships(in: new)
        let memberships = entities.map { entity in
            (entity.name, (entity.change == .removed ? oldMemberships : newMemberships)[entity.name] ?? [])
        }
        return Diagram(
            modelName: modelName, versions: [old.name, new.name], entities: entities, links: DiagramLinker.links(diff.linkEnds()),
            groups: DiagramBuilder.groups(memberships), isDiff: true)
    }
}

/// The union being built: the newer version's entities, changes marked as the plan is applied.
private struct DiffState {
    let old: VersionLookup
    let new: VersionLookup
    var entities: [DiagramEntity]
    /// The newer version's entities by name: their index in ``entities``.
    let indexes: [String: Int]
    /// Older entity name → its name in the diagram (the newer name when it was renamed).
    var unionNames: [String: String] = [:]
    var relationshipChanges: [LinkEnd.Key: DiagramChange] = [:]
    /// Relationships of the older version the newer one does not have: (older entity, relationship).
    var removedRelationships: [(entity: String, relationship: Relationship)] = []
    var addedEntities: Set<String> = []

    init(old: ModelVersion, new: ModelVersion) {
        self.old = VersionLookup(old)
        self.new = VersionLookup(new)
        entities = new.entities.map(DiagramBuilder.entity)
        indexes = Dictionary(new.entities.enumerated().map { ($1.name, $0) }) { first, _ in first }
        let mapping = VersionMapping(from: old, to: new)
        for (destination, source) in mapping.sourceEntities { unionNames[source] = destination }
    }

    func unionName(_ oldName: String) -> String { unionNames[oldName] ?? oldName }

    mutating func apply(_ mapping: EntityMapping) {
        switch mapping.kind {
        case .added:
            guard let name = mapping.destinationName else { return }
            addedEntities.insert(name)
            update(name) { entity in
                entity.change = .added
                for index in entity.attributes.indices { entity.attributes[index].change = .added }
            }
        case .removed:
            guard let name = mapping.sourceName, let entity = old.entity(named: name) else { return }
            var removed = DiagramBuilder.entity(entity)
            removed.change = .removed
            removed.parentName = entity.parentName.map(unionName)
            for index in removed.attributes.indices { removed.attributes[index].change = .removed }
            entities.append(removed)
            removedRelationships += entity.relationships.map { (name, $0) }
        case .renamed, .changed:
            guard let source = mapping.sourceName, let destination = mapping.destinationName else { return }
            if mapping.kind == .renamed {
                update(destination) { $0.change = .renamed(from: source) }
            } else if !mapping.changes.isEmpty {
                update(destination) { $0.change = .changed(aspects: mapping.changes.map(\.aspect)) }
            }
            for property in mapping.properties { apply(property, source: source, destination: destination) }
        }
    }

    /// A property mapping lists inherited properties too; each is marked where it is declared.
    private mutating func apply(_ property: PropertyMapping, source: String, destination: String) {
        let change: DiagramChange
        switch property.kind {
        case .added: change = .added
        case .renamed: change = .renamed(from: property.sourceName ?? "")
        case .changed: change = .changed(aspects: property.changes.map(\.aspect))
        case .removed:
            guard let name = property.sourceName, let entity = old.entity(named: source) else { return }
            removeProperty(named: name, of: entity, shownIn: destination)
            return
        }
        guard let name = property.destinationName, let entity = new.entity(named: destination) else { return }
        if entity.attribute(named: name) != nil {
            update(destination) { entity in
                for index in entity.attributes.indices where entity.attributes[index].name == name {
                    entity.attributes[index].change = change
                }
            }
        } else if entity.relationship(named: name) != nil {
            relationshipChanges[LinkEnd.Key(entity: destination, name: name)] = change
        }
    }

    /// A property the older entity declared that the newer one lacks, shown after the newer
    /// entity's own.
    private mutating func removeProperty(named name: String, of entity: Entity, shownIn destination: String) {
        if let attribute = entity.attribute(named: name) {
            var removed = DiagramBuilder.attribute(attribute)
            removed.change = .removed
            update(destination) { $0.attributes.append(removed) }
        } else if let relationship = entity.relationship(named: name) {
            removedRelationships.append((entity.name, relationship))
        }
    }

    /// Transient properties are not part of the migration plan: one whose name the other version's
    /// entity does not have (declared or inherited) is added or removed.
    mutating func compareTransientProperties() {
        for (source, destination) in unionNames.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard let before = old.entity(named: source), let after = new.entity(named: destination) else { continue }
            let oldNames = old.allProperties(of: before)
            let newNames = new.allProperties(of: after)
            let oldAttributes = Set(oldNames.attributes.map(\.name))
            let newAttributes = Set(newNames.attributes.map(\.name))
            let oldRelationships = Set(oldNames.relationships.map(\.name))
            let newRelationships = Set(newNames.relationships.map(\.name))
            for attribute in after.attributes where attribute.isTransient && !oldAttributes.contains(attribute.name) {
                update(destination) { entity in
                    for index in entity.attributes.indices where entity.attributes[index].name == attribute.name {
                        entity.attributes[index].change = .added
                    }
                }
            }
            for attribute in before.attributes where attribute.isTransient && !newAttributes.contains(attribute.name) {
                removeProperty(named: attribute.name, of: before, shownIn: destination)
            }
            for relationship in after.relationships where relationship.isTransient && !oldRelationships.contains(relationship.name) {
                relationshipChanges[LinkEnd.Key(entity: destination, name: relationship.name)] = .added
            }
            for relationship in before.relationships where relationship.isTransient && !newRelationships.contains(relationship.name) {
                removedRelationships.append((source, relationship))
            }
        }
    }

    private mutating func update(_ name: String, _ change: (inout DiagramEntity) -> Void) {
        guard let index = indexes[name] else { return }
        change(&entities[index])
    }

    /// The newer version's relationships with their changes, then the removed ones, their
    /// entities and inverses named as in the diagram.
    func linkEnds() -> [LinkEnd] {
        var ends: [LinkEnd] = []
        for entity in new.version.entities {
            for relationship in entity.relationships {
                let key = LinkEnd.Key(entity: entity.name, name: relationship.name)
                let change = relationshipChanges[key] ?? (addedEntities.contains(entity.name) ? .added : .unchanged)
                ends.append(
                    LinkEnd(
                        DiagramRelationship(relationship, of: entity.name, change: change),
                        inverse: DiagramBuilder.inverseKey(relationship, in: new)))
            }
        }
        for (entityName, relationship) in removedRelationships {
            var removed = DiagramRelationship(relationship, of: unionName(entityName), change: .removed)
            removed.destinationName = unionName(relationship.destinationName)
            let inverse = DiagramBuilder.inverseKey(relationship, in: old).map {
                LinkEnd.Key(entity: unionName($0.entity), name: $0.name, isRemoved: true)
            }
            ends.append(LinkEnd(removed, inverse: inverse))
        }
        return ends
    }
}

import ModelSchema

/// One version of a model → the ``Diagram`` of it.
public enum DiagramBuilder {
    public static func diagram(of version: ModelVersion, modelName: String) -> Diagram {
        let lookup = VersionLookup(version)
        let configurations = memberships(in: version)
        let entities = sortedByName(version.entities).map(entity)
        let ends = sortedByName(version.entities).flatMap { entity in
            entity.relationships.map { LinkEnd(DiagramRelationship($0, of: entity.name), inverse: inverseKey($0, in: lookup)) }
        }
        return Diagram(
            modelName: modelName, versions: [version.name], entities: entities, links: DiagramLinker.links(ends),
            groups: groups(entities.map { ($0.name, configurations[$0.name] ?? []) }), isDiff: false)
    }

    static func sortedByName(_ entities: [Entity]) -> [Entity] {
        entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    static func entity(_ entity: Entity) -> DiagramEntity {
        DiagramEntity(
            name: entity.name, parentName: entity.parentName, isAbstract: entity.isAbstract, attributes: entity.attributes.map(attribute))
    }

    static func attribute(_ attribute: Attribute) -> DiagramAttribute {
        DiagramAttribute(
            name: attribute.name, typeName: typeName(attribute), isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            isDerived: attribute.isDerived)
    }

    /// The enum an attribute stores, the class of a Transformable, else the storage type.
    static func typeName(_ attribute: Attribute) -> String {
        if let enumName = attribute.enumName { return enumName }
        if attribute.type == .transformable, let custom = attribute.customClassName, !custom.isEmpty { return custom }
        return attribute.type.name
    }

    /// The entity and name of the relationship's inverse: declared by the destination or one of
    /// its ancestors.
    static func inverseKey(_ relationship: Relationship, in lookup: VersionLookup) -> LinkEnd.Key? {
        guard let inverseName = relationship.inverseName, let destination = lookup.entity(named: relationship.destinationName)
        else { return nil }
        let declarer = ([destination] + lookup.ancestors(of: destination)).first { $0.relationship(named: inverseName) != nil }
        return declarer.map { LinkEnd.Key(entity: $0.name, name: inverseName) }
    }

    /// Entity name → the configurations of the version that list it, in the version's order.
    static func memberships(in version: ModelVersion) -> [String: [String]] {
        var memberships: [String: [String]] = [:]
        for configuration in version.configurations {
            for name in Set(configuration.entityNames) { memberships[name, default: []].append(configuration.name) }
        }
        return memberships
    }

    /// Entities grouped by the exact set of configurations that list them (see ``DiagramGroup``).
    static func groups(_ memberships: [(entity: String, configurations: [String])]) -> [DiagramGroup] {
        var groups: [[String]: [String]] = [:]
        for (name, member) in memberships where !member.isEmpty { groups[member, default: []].append(name) }
        return groups.map { DiagramGroup(configurations: $0.key, entityNames: $0.value) }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}

/// A relationship waiting to be paired with its inverse.
struct LinkEnd {
    struct Key: Hashable {
        let entity: String
        let name: String
        /// A relationship of the older version that a `--diff` shows as removed: its own key,
        /// even when the newer version declares one of the same name.
        var isRemoved = false
    }

    var relationship: DiagramRelationship
    var inverse: Key?

    init(_ relationship: DiagramRelationship, inverse: Key?) {
        self.relationship = relationship
        self.inverse = inverse
    }

    var key: Key { Key(entity: relationship.entityName, name: relationship.name, isRemoved: relationship.change == .removed) }
}

/// Pairs relationships with their inverses into links, each pair once.
enum DiagramLinker {
    /// The link starts at whichever of the two comes first by entity, then relationship name. A
    /// relationship is paired with the one its inverse names when that one names it back, or
    /// names no inverse it can find (an inverse declared on a subentity).
    static func links(_ ends: [LinkEnd]) -> [DiagramLink] {
        let sorted = ends.sorted {
            ($0.relationship.entityName, $0.relationship.name) < ($1.relationship.entityName, $1.relationship.name)
        }
        let byKey = Dictionary(sorted.map { ($0.key, $0) }) { first, _ in first }
        var used: Set<LinkEnd.Key> = []
        var links: [DiagramLink] = []
        for end in sorted where used.insert(end.key).inserted {
            var inverse: DiagramRelationship?
            if end.inverse == end.key {
                inverse = end.relationship  // its own inverse (`friends` of `Person`)
            } else if let key = end.inverse, !used.contains(key), let other = byKey[key],
                other.inverse == end.key || other.inverse == nil
            {
                used.insert(key)
                inverse = other.relationship
            }
            links.append(DiagramLink(forward: end.relationship, inverse: inverse))
        }
        return links
    }
}

import ModelSchema

/// What `modelgen diagram` draws, independent of the output format: the entities of one version
/// (or of two, for `--diff`) with their attributes, the relationships between them, inheritance
/// and configurations. The Mermaid and DOT writers only lay this out.
///
/// Order is fixed so the output is the same on every run: entities by name (UTF-8 order),
/// attributes in declaration order (removed ones after the others), links by the name of the
/// entity and relationship that starts them, groups by name.
public struct Diagram: Hashable, Sendable {
    public var modelName: String
    /// The version drawn, or the two compared, older first.
    public var versions: [String]
    public var entities: [DiagramEntity]
    public var links: [DiagramLink]
    public var groups: [DiagramGroup]
    /// Whether this is a `--diff` diagram, whose changes are coloured and explained in a legend.
    public var isDiff: Bool

    public init(
        modelName: String, versions: [String], entities: [DiagramEntity], links: [DiagramLink], groups: [DiagramGroup], isDiff: Bool
    ) {
        self.modelName = modelName
        self.versions = versions
        self.entities = entities
        self.links = links
        self.groups = groups
        self.isDiff = isDiff
    }

    /// `Trips 2`, or `Trips 1 → Trips 2`.
    public var title: String { versions.joined(separator: " → ") }

    /// Each entity by name (the first of two with one name), for writers that look entities up.
    public var entitiesByName: [String: DiagramEntity] {
        Dictionary(entities.map { ($0.name, $0) }) { first, _ in first }
    }

    /// Child → parent, for every entity whose parent is in the diagram, in entity order.
    public var inheritance: [(child: DiagramEntity, parent: String)] {
        let names = Set(entities.map(\.name))
        return entities.compactMap { entity in
            guard let parent = entity.parentName, names.contains(parent) else { return nil }
            return (entity, parent)
        }
    }
}

/// How an entity, attribute or relationship differs between the two versions of a `--diff`.
public enum DiagramChange: Hashable, Sendable {
    case unchanged
    case added
    case removed
    /// Renamed through its renaming identifier; the name in the older version.
    case renamed(from: String)
    /// Kept under its name, with something else changed: the aspects the migration plan names
    /// (`type`, `optionality`, `parent`, …).
    case changed(aspects: [String])

    /// The word a legend and a marker use.
    public var word: String {
        switch self {
        case .unchanged: "unchanged"
        case .added: "added"
        case .removed: "removed"
        case .renamed: "renamed"
        case .changed: "changed"
        }
    }

    /// What a marker after a name says: `added`, `removed`, `changed: type`; nil when unchanged
    /// or renamed (a renamed thing is named `old → new` instead).
    public var marker: String? {
        switch self {
        case .unchanged, .renamed: nil
        case .added, .removed: word
        case .changed(let aspects): aspects.isEmpty ? word : "changed: " + aspects.joined(separator: ", ")
        }
    }

    /// `notes → remarks` for a renamed thing, else the name.
    public func displayName(_ name: String) -> String {
        if case .renamed(let old) = self { return "\(old) → \(name)" }
        return name
    }

    /// The change that decides an edge's colour when its two ends differ.
    static func strongest(_ changes: [DiagramChange]) -> DiagramChange {
        let rank: (DiagramChange) -> Int = {
            switch $0 {
            case .removed: 4
            case .added: 3
            case .renamed: 2
            case .changed: 1
            case .unchanged: 0
            }
        }
        return changes.max { rank($0) < rank($1) } ?? .unchanged
    }
}

public struct DiagramEntity: Hashable, Sendable {
    public var name: String
    public var parentName: String?
    public var isAbstract: Bool
    public var attributes: [DiagramAttribute]
    public var change: DiagramChange

    public init(name: String, parentName: String?, isAbstract: Bool, attributes: [DiagramAttribute], change: DiagramChange = .unchanged) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.change = change
    }
}

public struct DiagramAttribute: Hashable, Sendable {
    public var name: String
    /// The type as the model names it: `String`, `Integer 16`, an enum or composite name.
    public var typeName: String
    public var isOptional: Bool
    public var isTransient: Bool
    public var isDerived: Bool
    public var change: DiagramChange

    public init(
        name: String, typeName: String, isOptional: Bool, isTransient: Bool = false, isDerived: Bool = false,
        change: DiagramChange = .unchanged
    ) {
        self.name = name
        self.typeName = typeName
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.change = change
    }

    /// `transient`, `derived`, `transient derived` or nothing, after the type.
    public var qualifiers: String {
        [isTransient ? "transient" : nil, isDerived ? "derived" : nil].compactMap { $0 }.joined(separator: " ")
    }
}

/// One side of a link: a relationship as its entity declares it.
public struct DiagramRelationship: Hashable, Sendable {
    public var entityName: String
    public var name: String
    public var destinationName: String
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    public var minCount: Int?
    public var maxCount: Int?
    public var deleteRule: RelationshipDeleteRule
    public var change: DiagramChange

    public init(_ relationship: Relationship, of entityName: String, change: DiagramChange = .unchanged) {
        self.entityName = entityName
        name = relationship.name
        destinationName = relationship.destinationName
        isToMany = relationship.isToMany
        isOrdered = relationship.isOrdered
        isOptional = relationship.isOptional
        isTransient = relationship.isTransient
        minCount = relationship.minCount
        maxCount = relationship.maxCount
        deleteRule = relationship.deleteRule
        self.change = change
    }

    /// How many destination objects one object of the entity has, in UML's notation: `1`,
    /// `0..1`, `0..*`, `1..*`, `2..5`; an optional to-many with a minimum is `0 or 2..5` (empty, or
    /// within the bounds, as Core Data validates it).
    public var cardinality: String {
        guard isToMany else { return isOptional ? "0..1" : "1" }
        let upper = maxCount.flatMap { $0 > 0 ? String($0) : nil } ?? "*"
        let minimum = minCount ?? 0
        if isOptional {
            return minimum > 0 ? "0 or \(minimum)..\(upper)" : "0..\(upper)"
        }
        return "\(max(minimum, 1))..\(upper)"
    }

    /// `ordered, cascade`: what the cardinality does not say, the delete rule always.
    public var details: String {
        var words: [String] = []
        if isOrdered { words.append("ordered") }
        if isTransient { words.append("transient") }
        words.append(deleteRuleName)
        return words.joined(separator: ", ")
    }

    /// The delete rule as the model format spells it.
    public var deleteRuleName: String { deleteRule.rawValue }
}

/// A relationship and its inverse, drawn as one line; a relationship without an inverse
/// (`oneWay`) is a link with no inverse.
public struct DiagramLink: Hashable, Sendable {
    public var forward: DiagramRelationship
    public var inverse: DiagramRelationship?

    public init(forward: DiagramRelationship, inverse: DiagramRelationship?) {
        self.forward = forward
        self.inverse = inverse
    }

    public var change: DiagramChange { DiagramChange.strongest([forward.change] + (inverse.map { [$0.change] } ?? [])) }
}

/// Entities drawn together because they belong to the same configurations. An entity in several
/// configurations is in the group of exactly those (`Cloud + Local`), so groups never overlap,
/// as Graphviz clusters and Mermaid namespaces require. Entities in no configuration are in no
/// group.
public struct DiagramGroup: Hashable, Sendable {
    /// The configuration names, in the model's order.
    public var configurations: [String]
    public var entityNames: [String]

    public init(configurations: [String], entityNames: [String]) {
        self.configurations = configurations
        self.entityNames = entityNames
    }

    public var name: String { configurations.joined(separator: " + ") }
}

import ModelSchema

/// A mapping model as its author wrote it — in Xcode's editor (`.xcmappingmodel`) or in YAML
/// (`.mapping.yaml`) — with where each part was written, before it is checked against the model
/// and completed with what Xcode generates (``MappingCompiler``).
struct MappingSource: Sendable {
    /// The mapping model's name: the `.cdm` file is `<name>.cdm`.
    var name: String
    /// The file diagnostics point into.
    var path: String
    var sourceVersion: VersionReference?
    var destinationVersion: VersionReference?
    var entityMappings: [EntityMappingSource]
    /// Whether each entity mapping lists all its property mappings (Xcode's editor) rather than
    /// only those that differ from what Xcode generates (the YAML form).
    var listsEveryProperty: Bool

    /// Which version of the model one side of the mapping is, and, for Xcode's editor, the copy of
    /// that version it embedded when the mapping was made.
    struct VersionReference: Sendable {
        var name: String
        var location: SourceLocation
        var embeddedOutline: ModelOutline? = nil
    }
}

struct EntityMappingSource: Sendable {
    /// The mapping's name when written; otherwise `<Source>To<Destination>` (or the one entity's name).
    var name: String?
    /// Xcode's mapping type name (`Undefined`, `Custom`, `Add`, `Remove`, `Copy`, `Transform`).
    var typeName: String?
    /// Where the type name is written, when it is.
    var typeLocation: SourceLocation? = nil
    var sourceEntityName: String?
    var destinationEntityName: String?
    /// Where the entity names are written, when they are.
    var sourceLocation: SourceLocation? = nil
    var destinationLocation: SourceLocation? = nil
    var policyClassName: String?
    /// A source expression written in the mapping; nil for the fetch of the source entity Xcode writes.
    var sourceExpression: MappingExpression?
    var attributeMappings: [PropertyMappingSource]
    var relationshipMappings: [PropertyMappingSource]
    var location: SourceLocation
}

struct PropertyMappingSource: Sendable {
    var name: String
    /// The value expression written in the mapping; nil for the one Xcode generates.
    var valueExpression: MappingExpression?
    /// Whether the mapping asks for no value at all (the YAML form's `value: null`).
    var hasNoValue: Bool = false
    var location: SourceLocation
}

/// The entities of a model version with their own (not inherited) property names: what a mapping
/// model's embedded copy of a version is compared with.
struct ModelOutline: Hashable, Sendable {
    struct EntityOutline: Hashable, Sendable {
        var parentName: String?
        var attributeNames: Set<String>
        var relationshipNames: Set<String>
    }

    var entities: [String: EntityOutline]

    init(entities: [String: EntityOutline]) {
        self.entities = entities
    }

    init(_ version: ModelVersion) {
        var entities: [String: EntityOutline] = [:]
        for entity in version.entities {
            entities[entity.name] = EntityOutline(
                parentName: entity.parentName, attributeNames: Set(entity.attributes.map(\.name)),
                relationshipNames: Set(entity.relationships.map(\.name)))
        }
        self.entities = entities
    }

    /// The first difference from `other`, in words ("entity 'Section' is not in version 'V3'"); nil when equal.
    func firstDifference(from other: ModelOutline, otherName: String) -> String? {
        for name in entities.keys.sorted() {
            guard let theirs = other.entities[name] else { return "entity '\(name)' is not in \(otherName)" }
            let ours = entities[name]!
            if let missing = ours.attributeNames.subtracting(theirs.attributeNames).sorted().first {
                return "attribute '\(name).\(missing)' is not in \(otherName)"
            }
            if let missing = ours.relationshipNames.subtracting(theirs.relationshipNames).sorted().first {
                return "relationship '\(name).\(missing)' is not in \(otherName)"
            }
            if let extra = theirs.attributeNames.union(theirs.relationshipNames).subtracting(
                ours.attributeNames.union(ours.relationshipNames)
            )
            .sorted().first {
                return "\(otherName) has '\(name).\(extra)', which the copy lacks"
            }
            if ours.parentName != theirs.parentName { return "entity '\(name)' has another parent in \(otherName)" }
        }
        if let extra = other.entities.keys.filter({ entities[$0] == nil }).sorted().first {
            return "\(otherName) has entity '\(extra)', which the copy lacks"
        }
        return nil
    }
}

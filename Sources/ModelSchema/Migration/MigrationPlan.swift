/// One way a mapped entity or property differs between two versions (`type`, `optionality`,
/// `parent`, …), and why Core Data cannot infer it when it cannot.
public struct MigrationChange: Hashable, Sendable {
    /// A stable identifier of what changed (see `docs/Migrations.md` for the list).
    public var aspect: String
    public var from: String
    public var to: String
    /// Why lightweight migration cannot infer this change; nil when it can.
    public var obstacle: String?

    public init(aspect: String, from: String, to: String, obstacle: String? = nil) {
        self.aspect = aspect
        self.from = from
        self.to = to
        self.obstacle = obstacle
    }
}

/// How an entity or property of the source version maps to the destination version.
public enum MappingKind: String, Hashable, Sendable {
    case added
    case removed
    case renamed
    case changed
}

/// A stored property's mapping between two versions.
public struct PropertyMapping: Hashable, Sendable {
    public var kind: MappingKind
    public var isRelationship: Bool
    public var sourceName: String?
    public var destinationName: String?
    public var changes: [MigrationChange]
    /// Where the destination property (or, for a removal, the destination entity) is declared.
    public var location: SourceLocation?

    public var name: String { destinationName ?? sourceName ?? "" }
}

/// An entity's mapping between two versions: how it maps and how its properties do.
public struct EntityMapping: Hashable, Sendable {
    public var kind: MappingKind
    public var sourceName: String?
    public var destinationName: String?
    public var changes: [MigrationChange]
    public var properties: [PropertyMapping]
    public var location: SourceLocation?

    public var name: String { destinationName ?? sourceName ?? "" }
}

/// The mapping between two consecutive versions that lightweight migration would infer, and
/// whether it can infer it. Entities and properties that do not change are not listed.
public struct MigrationStep: Hashable, Sendable {
    public var source: String
    public var destination: String
    public var entities: [EntityMapping]
    /// Whether the model declares a custom migration for this step (`customMigrations`).
    public var isCustom: Bool
    /// The name of the model's mapping model for this step, when it has one: automatic migration
    /// runs the step through it instead of inferring the mapping.
    public var mappingModel: String? = nil
    /// Where the destination version is declared.
    public var location: SourceLocation?

    /// Whether Core Data can infer the mapping: no change has an obstacle.
    public var isInferable: Bool { obstacles.isEmpty }

    /// Every change Core Data cannot infer, with the entity and property it belongs to.
    public var obstacles: [(entity: EntityMapping, property: PropertyMapping?, change: MigrationChange)] {
        entities.flatMap { entity in
            entity.changes.filter { $0.obstacle != nil }.map { (entity, nil as PropertyMapping?, $0) }
                + entity.properties.flatMap { property in
                    property.changes.filter { $0.obstacle != nil }.map { (entity, property as PropertyMapping?, $0) }
                }
        }
    }
}

/// The steps between consecutive versions of a model, oldest first.
public struct MigrationPlan: Hashable, Sendable {
    public var model: String
    public var steps: [MigrationStep]

    public init(model: String, steps: [MigrationStep]) {
        self.model = model
        self.steps = steps
    }
}

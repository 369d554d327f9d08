/// A Core Data model: one or more versions, one of them current.
///
/// Mirrors `.xcdatamodeld`: a single-version model is a model with one version.
public struct Model: Hashable, Sendable {
    /// The model's name, taken from its file or folder name (`Trips.modeld` → `Trips`).
    public var name: String
    /// The versions in the order the manifest lists them, oldest first.
    public var versions: [ModelVersion]
    /// The name of the version new stores are created with.
    public var currentVersionName: String
    /// Versions that have been released to users and must no longer change.
    public var shippedVersionNames: [String]
    /// Steps between consecutive versions that the app migrates in code, not by lightweight migration.
    public var customMigrations: [VersionStep]
    /// The mapping models that belong to the model (beside an `.xcdatamodeld`, inside a `.modeld`
    /// folder), checked against it, sorted by name.
    public var mappingModels: [ModelMappingModel]

    public init(
        name: String, versions: [ModelVersion], currentVersionName: String, shippedVersionNames: [String] = [],
        customMigrations: [VersionStep] = [], mappingModels: [ModelMappingModel] = []
    ) {
        self.name = name
        self.versions = versions
        self.currentVersionName = currentVersionName
        self.shippedVersionNames = shippedVersionNames
        self.customMigrations = customMigrations
        self.mappingModels = mappingModels
    }

    public var currentVersion: ModelVersion? {
        versions.first { $0.name == currentVersionName }
    }
}

/// A mapping model of a model: what its compiled `<name>.cdm` holds, and the versions it maps.
public struct ModelMappingModel: Hashable, Sendable {
    /// The mapping model's name: it compiles into `<name>.cdm`.
    public var name: String
    /// The source and destination versions, by name.
    public var step: VersionStep
    public var mapping: MappingModel
    /// Where the mapping model is written (its file).
    public var location: SourceLocation?

    public init(name: String, step: VersionStep, mapping: MappingModel, location: SourceLocation? = nil) {
        self.name = name
        self.step = step
        self.mapping = mapping
        self.location = location
    }
}

/// A step from one version to the next one.
public struct VersionStep: Hashable, Sendable {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// One version of a model: what a single `.xcdatamodel` holds.
public struct ModelVersion: Hashable, Sendable {
    public var name: String
    public var entities: [Entity]
    public var composites: [CompositeType]
    public var enums: [EnumType]
    public var configurations: [Configuration]
    /// The version identifier stores record (`NSStoreModelVersionIdentifiers`; Xcode's "Identifier"
    /// in the model inspector). Not part of any hash.
    public var versionIdentifier: String?
    /// Where the version was declared (its file).
    public var location: SourceLocation?

    public init(
        name: String, entities: [Entity] = [], composites: [CompositeType] = [], enums: [EnumType] = [],
        configurations: [Configuration] = [], versionIdentifier: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.entities = entities
        self.composites = composites
        self.enums = enums
        self.configurations = configurations
        self.versionIdentifier = versionIdentifier
        self.location = location
    }

    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    public func composite(named name: String) -> CompositeType? {
        composites.first { $0.name == name }
    }

    public func enumType(named name: String) -> EnumType? {
        enums.first { $0.name == name }
    }
}

/// Name lookups over one version in constant time, for checks and generators that visit every
/// entity and would otherwise search the entity list again for each reference.
public struct VersionLookup: Sendable {
    public let version: ModelVersion
    private let entitiesByName: [String: Entity]
    private let compositesByName: [String: CompositeType]

    public init(_ version: ModelVersion) {
        self.version = version
        entitiesByName = Dictionary(version.entities.map { ($0.name, $0) }) { first, _ in first }
        compositesByName = Dictionary(version.composites.map { ($0.name, $0) }) { first, _ in first }
    }

    public func entity(named name: String) -> Entity? { entitiesByName[name] }

    public func composite(named name: String) -> CompositeType? { compositesByName[name] }

    /// The entity's ancestors, nearest first. Stops at a cycle or an unknown parent.
    public func ancestors(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentName, seen.insert(parentName).inserted, let parent = entitiesByName[parentName] {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// Attributes and relationships the entity declares or inherits, inherited ones first.
    public func allProperties(of entity: Entity) -> (attributes: [Attribute], relationships: [Relationship]) {
        let lineage = ancestors(of: entity).reversed() + [entity]
        return (lineage.flatMap(\.attributes), lineage.flatMap(\.relationships))
    }
}

/// A named subset of entities, stored together (Core Data's configurations).
public struct Configuration: Hashable, Sendable {
    public var name: String
    public var entityNames: [String]
    /// Whether the configuration is meant for a CloudKit-backed store.
    public var usedWithCloudKit: Bool
    public var location: SourceLocation?

    public init(name: String, entityNames: [String], usedWithCloudKit: Bool = false, location: SourceLocation? = nil) {
        self.name = name
        self.entityNames = entityNames
        self.usedWithCloudKit = usedWithCloudKit
        self.location = location
    }
}

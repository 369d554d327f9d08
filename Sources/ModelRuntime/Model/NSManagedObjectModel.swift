#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import Synchronization

/// A managed object model: entities, configurations and version identifiers
/// (`NSManagedObjectModel`). Load one from a compiled `.momd` or `.mom`, or build one in code.
open class NSManagedObjectModel: NSObject, NSCopying {
    private var storedEntities: [NSEntityDescription] = []
    private var storedConfigurations: [(name: String, entities: [NSEntityDescription])] = []
    private let hashCache = ModelCache<ModelHashes>()
    private let byNameCache = ModelCache<[String: NSEntityDescription]>()
    /// Set once a coordinator uses the model; from then on nothing in it may change.
    package var isInUse: Bool { inUse.load(ordering: .acquiring) }
    /// Atomic: coordinators of one model may be made on several threads at once while others
    /// read the flag, and a thread that sees it set must see the model as it was then (see
    /// docs/runtime/Safety.md, "Engine data shared by contexts and coordinators").
    private let inUse = Atomic<Bool>(false)
    let modelEngineCaches = EngineCaches()
    /// The compiled model (`.momd` folder or `.mom` file) the model was loaded from, if any: its
    /// sibling versions are the source models a migration on load looks for first.
    package private(set) var compiledModelURL: URL?

    /// The fetch request templates by name (see +FetchRequestTemplates).
    var storedFetchRequestTemplates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]

    open var versionIdentifiers: Set<AnyHashable> = [] {
        willSet { requireEditable(self, "the version identifiers") }
    }

    public override init() {
        super.init()
    }

    /// Loads a compiled model: a `.momd` folder (its current version) or a single `.mom` file.
    /// Nil when the file is missing or is not a compiled model.
    public convenience init?(contentsOf url: URL) {
        guard let decoded = try? Self.decode(contentsOf: url) else { return nil }
        self.init(decoded.version, versionIdentifiers: decoded.versionIdentifiers)
        compiledModelURL = url
    }

    /// Builds the description objects of a schema version.
    package convenience init(_ version: ModelVersion, versionIdentifiers: [String]? = nil) {
        self.init()
        ModelSchemaBridge.populate(self, from: version)
        self.versionIdentifiers = Set((versionIdentifiers ?? version.versionIdentifier.map { [$0] } ?? []).map(AnyHashable.init))
    }

    static func decode(contentsOf url: URL) throws(CompiledModelBundle.ReadError) -> DecodedMom {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw CompiledModelBundle.ReadError(message: "\(url.lastPathComponent) does not exist")
        }
        if isFolder.boolValue { return try CompiledModelBundle(contentsOf: url).decodeCurrentVersion() }
        return try CompiledModelBundle.decodeMom(at: url)
    }

    /// Marks the model as used by a persistent store coordinator. Later changes to it, its
    /// entities or their properties stop the process, as Core Data raises for them.
    package func markInUse() {
        inUse.store(true, ordering: .releasing)
    }

    /// The engine's own data of type `T` for the whole model (its store layout), made once by
    /// `make` when the model is in use and on every call before.
    package func engineData<T: AnyObject>(_ type: T.Type = T.self, make: (NSManagedObjectModel) -> T) -> T {
        modelEngineCaches.value(frozen: isInUse) { make(self) }
    }

    // MARK: Entities

    /// The entities, sub-entities included. Setting them makes the model their model.
    open var entities: [NSEntityDescription] {
        get { storedEntities }
        set {
            requireEditable(self, "the entities")
            for entity in storedEntities where entity.managedObjectModelReference === self { entity.managedObjectModelReference = nil }
            storedEntities = newValue
            for entity in newValue { entity.managedObjectModelReference = self }
        }
    }

    open var entitiesByName: [String: NSEntityDescription] {
        byNameCache.value(frozen: isInUse) {
            Dictionary(storedEntities.compactMap { entity in entity.name.map { ($0, entity) } }) { first, _ in first }
        }
    }

    // MARK: Configurations

    /// The names of the configurations set with `setEntities(_:forConfigurationName:)`.
    open var configurations: [String] { storedConfigurations.map(\.name) }

    /// The configuration's entities; nil for an unknown configuration. A nil or empty name, or
    /// Core Data's `PF_DEFAULT_CONFIGURATION_NAME`, means all entities.
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, !configuration.isEmpty, configuration != "PF_DEFAULT_CONFIGURATION_NAME" else { return entities }
        return storedConfigurations.first { $0.name == configuration }?.entities
    }

    open func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        requireEditable(self, "configuration '\(configuration)'")
        if let index = storedConfigurations.firstIndex(where: { $0.name == configuration }) {
            storedConfigurations[index].entities = entities
        } else {
            storedConfigurations.append((configuration, entities))
        }
    }

    // MARK: Version hashes

    /// Entity name → 32-byte version hash, as stores record in `NSStoreModelVersionHashes`.
    open var entityVersionHashesByName: [String: Data] { hashes.entities }

    /// `NSManagedObjectModel.versionChecksum`: base64 of the SHA-256 of the entity hashes.
    open var versionChecksum: String { hashes.checksum }

    var propertyVersionHashes: [String: [String: Data]] { hashes.properties }

    private var hashes: ModelHashes {
        hashCache.value(frozen: isInUse) { ModelHashes(ModelSchemaBridge.version(of: self)) }
    }

    /// Whether a store with this metadata can be opened with the configuration: every entity
    /// of the configuration (all entities for nil) has the version hash the store recorded, and
    /// for the whole model the store records no other entity.
    open func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Any],
            let members = entities(forConfigurationName: configuration)
        else { return false }
        let hashes = entityVersionHashesByName
        for entity in members {
            guard let name = entity.name, let recorded = stored[name] as? Data, recorded == hashes[name] else { return false }
        }
        if configuration == nil || configuration?.isEmpty == true { return Set(stored.keys) == Set(hashes.keys) }
        return true
    }

    /// Each version's checksum in a compiled `.momd`, by version name.
    open class func checksumsForVersionedModel(at modelURL: URL) throws -> [String: String] {
        let bundle = try CompiledModelBundle(contentsOf: modelURL)
        var result: [String: String] = [:]
        for version in bundle.versions {
            if let checksum = version.checksum {
                result[version.name] = checksum
            } else {
                result[version.name] = try bundle.decodeVersion(named: version.name).version.checksumForRuntime
            }
        }
        return result
    }

    // MARK: Merging

    /// The models of the bundles' top-level `.momd` and `.mom` resources (the main bundle's for
    /// nil), merged; nil when two define an entity with the same name or a model is unreadable.
    open class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        var models: [NSManagedObjectModel] = []
        for url in modelURLs(in: bundles) {
            guard let model = NSManagedObjectModel(contentsOf: url) else { return nil }
            models.append(model)
        }
        return NSManagedObjectModel(byMerging: models)
    }

    /// Like `mergedModel(from:)`, but from each `.momd` the version whose entities the store
    /// recorded with their hashes is taken, not the current one; nil when the merged model is not
    /// compatible with the store.
    open class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Any] else { return nil }
        var models: [NSManagedObjectModel] = []
        for url in modelURLs(in: bundles) {
            if url.pathExtension == "momd", let bundle = try? CompiledModelBundle(contentsOf: url) {
                // Of the versions whose every entity the store recorded with that hash, the largest.
                let matching = bundle.versions.filter { version in
                    version.entityHashes.allSatisfy { stored[$0.key] as? Data == $0.value }
                }.max { $0.entityHashes.count < $1.entityHashes.count }
                guard let matching, let decoded = try? bundle.decodeVersion(named: matching.name) else { return nil }
                models.append(NSManagedObjectModel(decoded.version, versionIdentifiers: decoded.versionIdentifiers))
            } else {
                guard let model = NSManagedObjectModel(contentsOf: url) else { return nil }
                models.append(model)
            }
        }
        guard let merged = NSManagedObjectModel(byMerging: models),
            merged.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        else { return nil }
        return merged
    }

    /// The top-level `.momd` and `.mom` resources of the bundles, sorted by path.
    private class func modelURLs(in bundles: [Bundle]?) -> [URL] {
        var urls: [URL] = []
        for bundle in bundles ?? [Bundle.main] {
            for fileExtension in ["momd", "mom"] {
                urls += (bundle.urls(forResourcesWithExtension: fileExtension, subdirectory: nil) ?? []).compactMap {
                    $0.path.map { URL(fileURLWithPath: $0) }
                }
            }
        }
        return urls.sorted { $0.path < $1.path }
    }

    /// Merges the models' entities (copied) and configurations; nil when two models define an
    /// entity with the same name.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        let models = models ?? []
        var names: Set<String> = []
        for entity in models.flatMap(\.entities) {
            guard names.insert(entity.name ?? "").inserted else { return nil }
        }
        self.init()
        ModelSchemaBridge.copyEntities(of: models, into: self)
        versionIdentifiers = models.reduce(into: Set<AnyHashable>()) { $0.formUnion($1.versionIdentifiers) }
        for model in models { adoptFetchRequestTemplates(of: model) }
    }

    /// A copy with copies of every entity and property, relinked among themselves; the copy
    /// can be edited even when the receiver is in use.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel()
        ModelSchemaBridge.copyEntities(of: [self], into: copy)
        copy.versionIdentifiers = versionIdentifiers
        copy.adoptFetchRequestTemplates(of: self)
        return copy
    }

    open override var description: String {
        "(<NSManagedObjectModel>) isEditable \(isInUse ? 0 : 1), entities {\(entities.compactMap(\.name).sorted().joined(separator: ", "))}"
    }
}

/// The hashes of one state of a model, converted once to Foundation types.
private struct ModelHashes {
    let entities: [String: Data]
    let properties: [String: [String: Data]]
    let checksum: String

    init(_ version: ModelVersion) {
        let hashes = VersionHashes(version)
        entities = hashes.entityHashes.mapValues { Data($0) }
        properties = VersionHashes.propertyHashes(version).mapValues { $0.mapValues { Data($0) } }
        checksum = hashes.versionChecksum
    }
}

extension ModelVersion {
    var checksumForRuntime: String { VersionHashes(self).versionChecksum }
}
#endif

// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation
import ModelSchema

/// The store option whose value is an ``NSStagedMigrationManager``: the store is migrated
/// through its stages when it is added.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

public let NSMigrationCancelledError = 134120
public let NSMigrationMissingSourceModelError = 134130
public let NSMigrationMissingMappingModelError = 134140
public let NSMigrationManagerSourceStoreError = 134150
public let NSMigrationManagerDestinationStoreError = 134160
public let NSEntityMigrationPolicyError = 134170
public let NSInferredMappingModelError = 134190
public let NSManagedObjectModelReferenceNotFoundError = 134504
public let NSStagedMigrationFrameworkVersionMismatchError = 134505
public let NSStagedMigrationBackwardMigrationError = 134506
/// A migration failed because a uniqueness constraint was violated.
public let NSMigrationConstraintViolationError = 134111
/// Importing external records failed (Core Data's Spotlight importer; the runtime has none and
/// never reports it).
public let NSExternalRecordImportError = 134200

/// One stage of a staged migration (`NSMigrationStage`), abstract.
open class NSMigrationStage: NSObject {
    /// A name for the stage, for the app's own use.
    open var label: String?

    override init() {
        super.init()
    }

    /// The version checksums the stage passes through, in order.
    var checksums: [String] { [] }
}

/// Consecutive model versions that lightweight migration can migrate between
/// (`NSLightweightMigrationStage`), named by their version checksums. The versions themselves are
/// found among the versions of the coordinator model's `.momd` and the bundles' `.momd`s.
open class NSLightweightMigrationStage: NSMigrationStage {
    private let checksumList: [String]
    open var versionChecksums: [String] { checksumList }

    init(checksums: [String]) {
        checksumList = checksums
        super.init()
    }

    /// A convenience initialiser, as in Core Data.
    public convenience init(_ versionChecksums: [String]) {
        self.init(checksums: versionChecksums)
    }

    override var checksums: [String] { versionChecksums }
}

/// A step between two model versions that the app takes part in (`NSCustomMigrationStage`):
/// `willMigrateHandler` runs with the store still in the current model, then the store is
/// migrated to the next model (the schema only: what lightweight migration cannot infer, such as
/// a new required value, is the handlers' job), then `didMigrateHandler` runs with the store in
/// the next model. Handlers reach the store through the manager's ``NSStagedMigrationManager/container``.
open class NSCustomMigrationStage: NSMigrationStage {
    private let models: (current: NSManagedObjectModelReference, next: NSManagedObjectModelReference)
    open var currentModel: NSManagedObjectModelReference { models.current }
    open var nextModel: NSManagedObjectModelReference { models.next }
    // `public`, not `open`: Core Data declares the handlers in a Swift extension, where they
    // cannot be overridden.
    public var willMigrateHandler:
        ((_ migrationManager: NSStagedMigrationManager, _ migrationStage: NSCustomMigrationStage) throws -> Void)?
    public var didMigrateHandler: ((_ migrationManager: NSStagedMigrationManager, _ migrationStage: NSCustomMigrationStage) throws -> Void)?

    init(current: NSManagedObjectModelReference, next: NSManagedObjectModelReference) {
        models = (current, next)
        super.init()
    }

    /// A convenience initialiser, as in Core Data.
    public convenience init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.init(current: currentModel, next: nextModel)
    }

    override var checksums: [String] { [currentModel.versionChecksum, nextModel.versionChecksum] }
}

/// A model promised to a migration stage, with the version checksum it must have
/// (`NSManagedObjectModelReference`). The model is resolved when the migration runs; a model that
/// does not have the checksum fails the migration with `NSManagedObjectModelReferenceNotFoundError`.
open class NSManagedObjectModelReference: NSObject {
    public let versionChecksum: String
    private let resolve: () -> NSManagedObjectModel?
    private var resolved: NSManagedObjectModel?

    public init(model: NSManagedObjectModel, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = { model }
        super.init()
    }

    /// A compiled `.mom` file (or a `.momd`, whose current version is taken).
    public init(fileURL: URL, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = { NSManagedObjectModel(contentsOf: fileURL) }
        super.init()
    }

    /// The version of a `.momd` in the bundle (the main bundle for nil) whose entity version
    /// hashes are these.
    public init(entityVersionHashes versionHash: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        var hashes: [String: [UInt8]] = [:]
        for (key, value) in versionHash {
            if let name = key as? String, let data = value as? Data { hashes[name] = [UInt8](data) }
        }
        resolve = {
            SourceModelSearch.compiledBundles(in: bundle.map { [$0] } ?? [Bundle.main]).lazy.compactMap { compiled in
                compiled.versions.first { $0.entityHashes.mapValues { [UInt8]($0) } == hashes }.flatMap {
                    try? compiled.decodeVersion(named: $0.name)
                }
            }.first.map { NSManagedObjectModel($0.version, versionIdentifiers: $0.versionIdentifiers) }
        }
        super.init()
    }

    /// The `<name>.momd` (or `<name>.mom`) in the bundle (the main bundle for nil): of a `.momd`,
    /// the version with this checksum.
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = {
            let bundle = bundle ?? Bundle.main
            if let url = bundle.url(forResource: modelName, withExtension: "momd"),
                let compiled = try? CompiledModelBundle(contentsOf: url)
            {
                return SourceModelSearch.model(withChecksum: versionChecksum, in: compiled)
            }
            return bundle.url(forResource: modelName, withExtension: "mom").flatMap { NSManagedObjectModel(contentsOf: $0) }
        }
        super.init()
    }

    /// The model, once resolved; resolving it checks its checksum.
    open var resolvedModel: NSManagedObjectModel {
        if let resolved { return resolved }
        let model = resolve() ?? NSManagedObjectModel()
        resolved = model
        return model
    }

    /// The resolved model, or Core Data's error when it is missing or has another checksum.
    func checkedModel() throws -> NSManagedObjectModel {
        let model = resolvedModel
        guard !model.entities.isEmpty, model.versionChecksum == versionChecksum else {
            throw CoreDataError.make(
                NSManagedObjectModelReferenceNotFoundError,
                "No model with version checksum \(versionChecksum) was found for a migration stage")
        }
        return model
    }
}

/// The stages of a staged migration, in the order of the app's model versions
/// (`NSStagedMigrationManager`). Set it as a store's
/// `NSPersistentStoreStagedMigrationManagerOptionKey` option; when the store is added and was
/// written by an earlier version named in the stages, it is migrated through every version in
/// turn, all or nothing.
open class NSStagedMigrationManager: NSObject {
    public let stages: [NSMigrationStage]
    /// While a custom stage's handler runs: a container on the migrating store, with the stage's
    /// current model (in `willMigrateHandler`) or next model (in `didMigrateHandler`), as Core
    /// Data provides it; nil otherwise.
    public internal(set) var container: NSPersistentContainer?
    /// While a custom stage's handler runs: a background context of ``container`` (a shortcut of
    /// this runtime, not in Core Data).
    public internal(set) var migrationContext: NSManagedObjectContext?

    init(stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }

    /// A convenience initialiser, as in Core Data.
    public convenience init(_ stages: [NSMigrationStage]) {
        self.init(stages: stages)
    }
}
#endif

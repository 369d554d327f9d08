#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

/// What `addPersistentStore` does before it opens a store file: finishes or discards an
/// interrupted migration, and, when the store was written by another model version, migrates it
/// if the options ask for it:
///
/// - `NSPersistentStoreStagedMigrationManagerOptionKey`: through the manager's stages;
/// - `NSMigratePersistentStoresAutomaticallyOption`: through every version from the store's to the
///   model's (see ``SourceModelSearch``), each step through the bundles' compiled mapping model
///   for it (``MappedStoreMigration``) or, with `NSInferMappingModelAutomaticallyOption`,
///   lightweight (in one step when only that one is inferable and no step has a mapping model).
///
/// Otherwise opening it fails with `NSPersistentStoreIncompatibleVersionHashError` before anything
/// is written. Failures leave the store's files byte for byte as they were and throw Core Data's
/// migration errors.
enum StoreMigrationOnLoad {
    static func migrateIfNeeded(at url: URL, options: [AnyHashable: Any]?, model: NSManagedObjectModel) throws {
        let path = url.path
        let target = model.entityVersionHashesByName.mapValues { [UInt8]($0) }
        let interrupted = FileManager.default.fileExists(atPath: StoreMigrationSession.workFolder(of: path))
        guard interrupted || FileManager.default.fileExists(atPath: path) else { return }
        // Nothing to finish and nothing to migrate: no lock, nothing written.
        if !interrupted, storedHashes(path) == target { return }
        // One process migrates at a time; the others wait here, then find the store migrated.
        let lock = try wrap(path: path) { try StoreMigrationLock(storeAt: path) }
        defer { lock.release() }
        try wrap(path: path) { try StoreMigrationSession.recover(storeAt: path) }
        guard FileManager.default.fileExists(atPath: path), let stored = storedHashes(path) else { return }
        guard stored != target else { return }
        if let manager = options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager {
            try StagedMigrationRun(manager: manager, storePath: path, stored: stored, model: model, lock: lock).run()
            return
        }
        guard flag(options, NSMigratePersistentStoresAutomaticallyOption) else {
            // Refused before the store is opened for writing, so not even its -wal is checkpointed.
            throw incompatible(path: path, stored: stored, target: target)
        }
        let chain = try SourceModelSearch.chain(for: stored, storePath: path, to: model)
        let mappings = MappedStoreMigration.mappingModels(for: chain, in: MappedStoreMigration.mappingModels(near: model))
        let infers = flag(options, NSInferMappingModelAutomaticallyOption)
        if !infers, let step = (0..<(chain.count - 1)).first(where: { mappings[$0] == nil }) {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError,
                "Can't find mapping model for migration of the store at \(path) from '\(chain[step].name)' to '\(chain[step + 1].name)' (no compiled mapping model (.cdm) in the bundles is for that step; set NSInferMappingModelAutomaticallyOption to infer it)",
                [NSFilePathErrorKey: path])
        }
        if !mappings.isEmpty {
            try MappedStoreMigration.run(storePath: path, chain: chain, mappings: mappings, holding: lock)
            return
        }
        let stepsInfer = zip(chain, chain.dropFirst()).allSatisfy { MigrationPlanner.step(from: $0, to: $1).isInferable }
        let versions = stepsInfer || chain.count < 3 ? chain : [chain[0], chain[chain.count - 1]]
        try wrap(path: path) { try StoreMigrator.migrate(storeAt: path, through: versions, holding: lock) }
    }

    /// For a read-only load, which never migrates: fails with
    /// `NSPersistentStoreIncompatibleVersionHashError` when another model version wrote the store,
    /// before the store is opened (a read-only open of a WAL store creates its `-shm`).
    static func refuseIncompatible(at url: URL, model: NSManagedObjectModel) throws {
        let target = model.entityVersionHashesByName.mapValues { [UInt8]($0) }
        if let stored = storedHashes(url.path), stored != target { throw incompatible(path: url.path, stored: stored, target: target) }
    }

    /// `NSPersistentStoreIncompatibleVersionHashError`, naming the entities that differ.
    static func incompatible(path: String, stored: [String: [UInt8]], target: [String: [UInt8]]) -> NSError {
        let names = StoreModelMatch.match(stored, against: [.init(name: "model", entityHashes: target)]).differences
            .map { "\($0.entityName) (\($0.kind.rawValue))" }.joined(separator: ", ")
        return CoreDataError.make(
            NSPersistentStoreIncompatibleVersionHashError,
            "The model used to open the store at \(path) is incompatible with the one used to create the store; entities that differ: \(names)",
            [NSFilePathErrorKey: path, NSStoreModelVersionHashesKey: stored.mapValues { Data($0) }])
    }

    /// The entity hashes the store recorded. Read without writing anything (``StoreInspector``)
    /// unless the store has an un-checkpointed `-wal` and is too large to read into memory; then
    /// through an ordinary connection, which checkpoints the `-wal` when it closes, as opening
    /// the store does anyway.
    static func storedHashes(_ path: String) -> [String: [UInt8]]? {
        func size(_ file: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0 }
        let wal = size(path + "-wal")
        if wal == 0 || size(path) + wal <= inMemoryLimit {
            guard let connection = try? StoreInspector.open(path) else { return nil }
            return try? StoreMetadataTable.entityHashes(connection)
        }
        guard let connection = try? StoreConnection.openStore(at: path) else { return nil }
        return try? StoreMetadataTable.entityHashes(connection)
    }

    /// Stores with a `-wal` up to this size are read into memory to be checked.
    static let inMemoryLimit = 64 << 20

    static func flag(_ options: [AnyHashable: Any]?, _ key: String) -> Bool {
        (options?[key] as? Bool) ?? (options?[key] as? NSNumber)?.boolValue ?? false
    }

    /// Runs `body`, turning migration errors into Core Data's, naming the store at `path`.
    static func wrap<T>(path: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreMigrationError {
            let code =
                switch error.kind {
                case .notInferable: NSInferredMappingModelError
                case .sourceMismatch: NSMigrationManagerSourceStoreError
                case .failed: NSMigrationError
                }
            guard let path else { throw CoreDataError.make(code, "Migration failed: \(error.message)") }
            throw CoreDataError.make(code, "Migration of the store at \(path) failed: \(error.message)", [NSFilePathErrorKey: path])
        }
    }
}

/// One run of an ``NSStagedMigrationManager`` over a store: the stages' checksums in order give
/// the versions; the store's position among them and the model's give the steps. Custom stages
/// call their handlers around their step; all steps work on one copy of the store, swapped in
/// when the last is done.
struct StagedMigrationRun {
    let manager: NSStagedMigrationManager
    let storePath: String
    /// The store's entity hashes.
    let stored: [String: [UInt8]]
    let model: NSManagedObjectModel
    /// The store's migration lock, held by the caller.
    let lock: StoreMigrationLock

    func run() throws {
        var order: [String] = []
        for stage in manager.stages {
            for checksum in stage.checksums where order.last != checksum { order.append(checksum) }
        }
        let storeChecksum = VersionHashes(entityHashes: stored).versionChecksum
        guard let first = order.firstIndex(of: storeChecksum) else {
            throw CoreDataError.make(
                NSMigrationMissingSourceModelError, "No migration stage names the store's model (checksum \(storeChecksum))",
                [NSFilePathErrorKey: storePath])
        }
        guard let last = order.lastIndex(of: model.versionChecksum) else {
            throw CoreDataError.make(
                NSManagedObjectModelReferenceNotFoundError, "No migration stage names the model (checksum \(model.versionChecksum))",
                [NSFilePathErrorKey: storePath])
        }
        guard first < last else {
            throw CoreDataError.make(
                NSStagedMigrationBackwardMigrationError, "The store was written by a later model than the stages lead to",
                [NSFilePathErrorKey: storePath])
        }
        let versions = try resolveVersions(order)
        let session = try StoreMigrationOnLoad.wrap(path: storePath) { try StoreMigrationSession(storeAt: storePath, holding: lock) }
        do {
            for index in first..<last {
                let custom = manager.stages.lazy.compactMap { $0 as? NSCustomMigrationStage }.first {
                    $0.currentModel.versionChecksum == order[index] && $0.nextModel.versionChecksum == order[index + 1]
                }
                if let custom, let handler = custom.willMigrateHandler {
                    try withContext(on: session.copyPath, model: custom.currentModel.checkedModel()) { try handler(manager, custom) }
                }
                guard let source = versions[order[index]], let destination = versions[order[index + 1]] else { continue }
                try StoreMigrationOnLoad.wrap(path: storePath) {
                    try session.migrate(from: source, to: destination, allowingObstacles: custom != nil)
                }
                if let custom, let handler = custom.didMigrateHandler {
                    try withContext(on: session.copyPath, model: custom.nextModel.checkedModel()) { try handler(manager, custom) }
                }
            }
            try StoreMigrationOnLoad.wrap(path: storePath) { try session.commit() }
        } catch {
            session.discard()
            throw error
        }
    }

    /// The version with each checksum: a custom stage's model, or a version of a `.momd` near
    /// the model; the model itself for its own checksum.
    private func resolveVersions(_ order: [String]) throws -> [String: ModelVersion] {
        var models: [String: ModelVersion] = [model.versionChecksum: ModelSchemaBridge.version(of: model)]
        for stage in manager.stages {
            guard let custom = stage as? NSCustomMigrationStage else { continue }
            for reference in [custom.currentModel, custom.nextModel] where models[reference.versionChecksum] == nil {
                models[reference.versionChecksum] = ModelSchemaBridge.version(of: try reference.checkedModel())
            }
        }
        if order.contains(where: { models[$0] == nil }) {
            for (checksum, version) in SourceModelSearch.versionsByChecksum(near: model) where models[checksum] == nil {
                models[checksum] = version
            }
        }
        var result: [String: ModelVersion] = [:]
        for checksum in order {
            guard let version = models[checksum] else {
                throw CoreDataError.make(
                    NSManagedObjectModelReferenceNotFoundError,
                    "No model with version checksum \(checksum) was found for a migration stage",
                    [NSFilePathErrorKey: storePath])
            }
            result[checksum] = version
        }
        return result
    }

    /// Runs a handler with ``NSStagedMigrationManager/container`` (and
    /// ``NSStagedMigrationManager/migrationContext``, a background context of it) on the copy
    /// being migrated, opened with `model`; the handler saves its own changes.
    private func withContext(on path: String, model: NSManagedObjectModel, _ body: () throws -> Void) throws {
        let container = NSPersistentContainer(name: "StagedMigration", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: path))
        description.shouldAddStoreAsynchronously = false
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        manager.container = container
        manager.migrationContext = container.newBackgroundContext()
        defer {
            manager.migrationContext = nil
            manager.container = nil
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        try body()
    }
}
#endif

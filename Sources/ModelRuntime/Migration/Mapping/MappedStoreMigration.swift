#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

/// Automatic migration with mapping models: when a store is added with
/// `NSMigratePersistentStoresAutomaticallyOption`, each step of the version chain from the
/// store's version to the model's uses the compiled mapping model (`.cdm`) the bundles hold for
/// exactly that step, as Core Data uses the bundles' mapping model; the other steps are inferred
/// (lightweight). All steps work on one copy of the store (``StoreMigrationSession``), swapped in
/// when the last is done, so a failure at any step leaves the store as it was.
package enum MappedStoreMigration {
    /// The compiled mapping models where those of `model`'s versions are looked for, each file
    /// read once: beside the `.momd` the model was loaded from (the bundle's resources), then in
    /// the main bundle and every loaded bundle.
    static func mappingModels(near model: NSManagedObjectModel) -> [NSMappingModel] {
        var bundles: [Bundle] = []
        if let url = model.compiledModelURL {
            let momd = url.pathExtension == "momd" ? url : url.deletingLastPathComponent()
            if let bundle = Bundle(path: momd.deletingLastPathComponent().path) { bundles.append(bundle) }
        }
        let near = CompiledMappingModel.urls(in: bundles)
        let known = Set(near)
        return CompiledMappingModel.loadAll(
            near + CompiledMappingModel.urls(in: [Bundle.main] + Bundle.allBundles).filter { !known.contains($0) })
    }

    /// The mapping model of each step of `chain` (by the step's index) among `models`.
    static func mappingModels(for chain: [ModelVersion], in models: [NSMappingModel]) -> [Int: NSMappingModel] {
        guard !models.isEmpty, chain.count > 1 else { return [:] }
        var result: [Int: NSMappingModel] = [:]
        for index in 0..<(chain.count - 1) {
            let source = VersionHashes(chain[index]).entityHashes.mapValues { Data($0) }
            let destination = VersionHashes(chain[index + 1]).entityHashes.mapValues { Data($0) }
            if let found = CompiledMappingModel.find(in: models, from: source, to: destination) { result[index] = found }
        }
        return result
    }

    /// Migrates the store through every step of `chain`: through its mapping model where
    /// `mappings` has one, lightweight otherwise (which must then be inferable). `progress` hears
    /// each step as it starts and ends, as ``StoreMigrator`` reports them, and, in a step through a
    /// mapping model, each change of the manager's `migrationProgress` as the step's share done.
    static func run(
        storePath: String, chain: [ModelVersion], mappings: [Int: NSMappingModel], holding lock: StoreMigrationLock?,
        progress: ProgressHandler? = nil
    ) throws {
        let total = chain.count + 1
        progress?(WorkProgress(completed: 0, total: total, step: "copying the store"))
        let session = try StoreMigrationOnLoad.wrap(path: storePath) { try StoreMigrationSession(storeAt: storePath, holding: lock) }
        do {
            for index in 0..<(chain.count - 1) {
                let (source, destination) = (chain[index], chain[index + 1])
                let step = "migrating '\(source.name)' to '\(destination.name)'"
                progress?(WorkProgress(completed: index + 1, total: total, step: step))
                guard let mapping = mappings[index] else {
                    try StoreMigrationOnLoad.wrap(path: storePath) {
                        try session.migrate(from: source, to: destination) { rows in
                            progress?(WorkProgress(completed: index + 1, total: total, step: step, rowsCopied: rows))
                        }
                    }
                    continue
                }
                let mapped = session.workFolder + "/mapped.sqlite"
                let manager = NSMigrationManager(
                    sourceModel: NSManagedObjectModel(source, versionIdentifiers: []),
                    destinationModel: NSManagedObjectModel(destination, versionIdentifiers: []))
                // The manager's progress through the mapping model's steps, as the step's share done.
                let observation = progress.map { report in
                    manager.observe(\.migrationProgress) { manager, _ in
                        report(
                            WorkProgress(
                                completed: index + 1, total: total, step: step, stepFraction: Double(manager.migrationProgress)))
                    }
                }
                defer { observation?.invalidate() }
                try manager.migrateStore(
                    from: URL(fileURLWithPath: session.copyPath), sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                    toDestinationURL: URL(fileURLWithPath: mapped), destinationType: NSSQLiteStoreType, destinationOptions: nil)
                try StoreMigrationOnLoad.wrap(path: storePath) { try session.replaceCopy(withStoreAt: mapped) }
            }
            progress?(WorkProgress(completed: total - 1, total: total, step: "replacing the store"))
            try StoreMigrationOnLoad.wrap(path: storePath) { try session.commit() }
            progress?(WorkProgress(completed: total, total: total, step: "migrated"))
        } catch {
            session.discard()
            throw error
        }
    }

    /// For tools of this package (`modelgen migrate-store`): migrates the store at `path`, written
    /// by `versions[0]`, to the last version, step `index` through `mappings[index]` (a compiled
    /// mapping model) when it has one, lightweight otherwise; all or nothing, waiting while
    /// another process migrates the store. Throws Core Data's migration errors.
    package static func migrate(
        storeAt path: String, through versions: [ModelVersion], mappings: [Int: MappingModel], progress: ProgressHandler?
    ) throws {
        guard versions.count > 1 else { return }
        try run(
            storePath: path, chain: versions, mappings: mappings.mapValues(CompiledMappingModel.model), holding: nil,
            progress: progress)
    }
}
#endif

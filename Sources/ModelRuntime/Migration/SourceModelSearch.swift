#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

/// Finds the model versions a store migrates through to reach a coordinator's model: the
/// versions of a compiled `.momd` in version-name order, from the one that wrote the store (by
/// its entity hashes) to the one with the model's hashes. Searched, in order: the `.momd` the
/// model was loaded from, then the top-level `.momd`s of the main bundle and of every loaded
/// bundle (where Core Data searches), and last the model the store recorded in `Z_MODELCACHE`
/// (a single step from it to the model).
///
/// The model cache is the store's own account of its model, not one of the app's versions: a
/// store some other model wrote (another app's, or the app's before a rewrite) decodes there
/// too. A step from it is taken only when it keeps every row: when it would drop an entity that
/// holds rows (no destination entity pairs with it by name or renaming identifier), the store is
/// refused with `NSMigrationMissingSourceModelError`, as when no model is found at all, and left
/// as it was. Migrating from a version the app ships may drop removed entities' rows, as Core
/// Data does.
enum SourceModelSearch {
    /// A chain of versions, oldest first: the first wrote the store, the last has the model's
    /// hashes (and is the model's own version). Fails with `NSMigrationMissingSourceModelError`
    /// (134130) when no version of the app's model wrote the store and the store's model cache
    /// is missing, unreadable, or would lose rows.
    static func chain(for stored: [String: [UInt8]], storePath: String, to model: NSManagedObjectModel) throws -> [ModelVersion] {
        let destination = ModelSchemaBridge.version(of: model)
        let target = VersionHashes(destination).entityHashes
        for compiled in bundles(near: model) {
            let names = compiled.versions.map(\.name).sorted(by: VersionNameOrder.areInIncreasingOrder)
            let hashes = Dictionary(uniqueKeysWithValues: compiled.versions.map { ($0.name, $0.entityHashes.mapValues { [UInt8]($0) }) })
            guard let first = names.lastIndex(where: { hashes[$0] == stored }),
                let last = names.lastIndex(where: { hashes[$0] == target }), first < last
            else { continue }
            var versions: [ModelVersion] = []
            for name in names[first..<last] {
                guard let decoded = try? compiled.decodeVersion(named: name) else { break }
                versions.append(decoded.version)
            }
            guard versions.count == last - first else { continue }
            return versions + [destination]
        }
        guard let cached = modelCache(of: storePath), VersionHashes(cached).entityHashes == stored else {
            throw missingSource(storePath, "no version of the model wrote it, and it records no readable model of its own")
        }
        guard let lost = rowsLost(from: cached, to: destination, storePath: storePath) else {
            throw missingSource(
                storePath,
                "no version of the model wrote it, and the rows that migrating from the model it records would delete cannot be counted")
        }
        guard lost.isEmpty else {
            let list = lost.map { "\($0.entity) (\($0.rows) rows)" }.joined(separator: ", ")
            throw missingSource(
                storePath,
                "no version of the model wrote it, and migrating from the model it records would delete every row of entities the model does not have: \(list)"
            )
        }
        return [cached, destination]
    }

    /// The store's entities (with rows) that the step from `source` to `destination` would drop:
    /// source entities no destination entity maps from. Counted without writing anything; nil
    /// when some would be dropped and the store's rows cannot be counted.
    static func rowsLost(from source: ModelVersion, to destination: ModelVersion, storePath: String) -> [(entity: String, rows: Int)]? {
        let kept = Set(VersionMapping(from: source, to: destination).sourceEntities.values)
        let dropped = Set(source.entities.map(\.name)).subtracting(kept)
        guard !dropped.isEmpty else { return [] }
        guard let connection = try? StoreInspector.open(storePath), let tables = try? StoreInspector.read(connection).entityTables else {
            return nil
        }
        return tables.filter { dropped.contains($0.entityName) && $0.rowCount > 0 }.map { ($0.entityName, $0.rowCount) }
    }

    static func missingSource(_ path: String, _ reason: String) -> NSError {
        CoreDataError.make(
            NSMigrationMissingSourceModelError, "Can't find model for source store at \(path): \(reason)", [NSFilePathErrorKey: path])
    }

    /// The `.momd` the model came from, then those of the main bundle and every loaded bundle.
    static func bundles(near model: NSManagedObjectModel) -> [CompiledModelBundle] {
        var result: [CompiledModelBundle] = []
        if let url = model.compiledModelURL {
            let folder = url.pathExtension == "momd" ? url : url.deletingLastPathComponent()
            if folder.pathExtension == "momd", let compiled = try? CompiledModelBundle(contentsOf: folder) { result.append(compiled) }
        }
        let known = Set(result.map { $0.url.standardizedFileURL })
        return result + compiledBundles(in: [Bundle.main] + Bundle.allBundles).filter { !known.contains($0.url.standardizedFileURL) }
    }

    /// The top-level `.momd`s of the bundles, each once, sorted by path.
    static func compiledBundles(in bundles: [Bundle]) -> [CompiledModelBundle] {
        var urls: Set<URL> = []
        for bundle in bundles {
            for url in bundle.urls(forResourcesWithExtension: "momd", subdirectory: nil) ?? [] {
                if let path = url.path { urls.insert(URL(fileURLWithPath: path).standardizedFileURL) }
            }
        }
        return urls.sorted { $0.path < $1.path }.compactMap { try? CompiledModelBundle(contentsOf: $0) }
    }

    /// The version of a `.momd` with the checksum, as a model.
    static func model(withChecksum checksum: String, in compiled: CompiledModelBundle) -> NSManagedObjectModel? {
        for version in compiled.versions {
            guard let decoded = try? compiled.decodeVersion(named: version.name),
                (version.checksum ?? decoded.version.checksumForRuntime) == checksum
            else { continue }
            return NSManagedObjectModel(decoded.version, versionIdentifiers: decoded.versionIdentifiers)
        }
        return nil
    }

    /// Every version of the `.momd`s near the model, by checksum.
    static func versionsByChecksum(near model: NSManagedObjectModel) -> [String: ModelVersion] {
        var result: [String: ModelVersion] = [:]
        for compiled in bundles(near: model) {
            for version in compiled.versions {
                guard let decoded = try? compiled.decodeVersion(named: version.name) else { continue }
                let checksum = version.checksum ?? decoded.version.checksumForRuntime
                if result[checksum] == nil { result[checksum] = decoded.version }
            }
        }
        return result
    }

    /// The model the store recorded in `Z_MODELCACHE`, decoded; nil when absent or unreadable.
    static func modelCache(of path: String) -> ModelVersion? {
        guard let connection = try? StoreInspector.open(path),
            let content = try? connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first?.blobValue
        else { return nil }
        return try? ModelStore.ModelCache.decode(content)
    }
}
#endif

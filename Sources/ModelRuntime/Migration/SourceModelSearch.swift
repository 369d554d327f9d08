#if !canImport(CoreData)
import Foundation
import ModelSchema
import ModelStore

/// Finds the model versions a store migrates through to reach a coordinator's model: the
/// versions of a compiled `.momd` in version-name order, from the one that wrote the store (by
/// its entity hashes) to the one with the model's hashes. Searched, in order: the `.momd` the
/// model was loaded from, then the top-level `.momd`s of the main bundle and of every loaded
/// bundle (where Core Data searches), and last the model the store recorded in `Z_MODELCACHE`
/// (a single step from it to the model).
enum SourceModelSearch {
    /// A chain of versions, oldest first: the first wrote the store, the last has the model's
    /// hashes (and is the model's own version).
    static func chain(for stored: [String: [UInt8]], storePath: String, to model: NSManagedObjectModel) -> [ModelVersion]? {
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
        if let cached = modelCache(of: storePath), VersionHashes(cached).entityHashes == stored {
            return [cached, destination]
        }
        return nil
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

import Foundation
import ModelSchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A migration of the store at `storePath`, all or nothing: the store's files are copied chunk by
/// chunk (``StoreFileCopy``: constant memory whatever the store's size; the `-wal` checkpointed
/// into the copy, the original files only read), every step rewrites the copy
/// in a transaction, and ``commit()`` swaps the copy in. Until the commit point the original
/// `.sqlite`, `-wal` and `-shm` are untouched; an interrupted or failed migration leaves only the
/// work folder beside the store, which ``recover(storeAt:)`` removes.
///
/// The work folder is `<store>.migration/`: `store.sqlite` (the copy) and, once the copy is
/// complete and synced, the marker `committed`. From the marker on the migration is finished by
/// rolling forward: the original's `-wal` and `-shm` are removed (the copy holds everything) and
/// the copy is renamed over the original. ``recover(storeAt:)`` (run before every open) finishes
/// a committed migration and discards an uncommitted one.
public final class StoreMigrationSession {
    public let storePath: String
    public let workFolder: String
    /// The copy being migrated (a store other connections, such as a migration stage's handler,
    /// may open between steps).
    public var copyPath: String { workFolder + "/store.sqlite" }
    private var isFinished = false
    /// The lock this session took itself (nil when the caller holds one), released when the
    /// session is committed or discarded.
    private var ownLock: StoreMigrationLock?

    /// Takes the store's migration lock unless the caller holds it (`lock`), recovers an earlier
    /// migration of the store, then copies it.
    public init(storeAt path: String, holding lock: StoreMigrationLock? = nil) throws {
        storePath = path
        workFolder = Self.workFolder(of: path)
        if lock == nil { ownLock = try StoreMigrationLock(storeAt: path) }
        do { try Self.recover(storeAt: path) } catch {
            ownLock?.release()
            throw error
        }
        do {
            try FileManager.default.createDirectory(atPath: workFolder, withIntermediateDirectories: false)
        } catch {
            ownLock?.release()
            throw StoreMigrationError(.failed, "cannot create the migration folder \(workFolder): \(error.localizedDescription)")
        }
        do {
            _ = try StoreFileCopy.copy(storeAt: path, to: copyPath)
        } catch {
            discard()
            throw error
        }
    }

    /// The folder a migration of the store at `path` works in.
    public static func workFolder(of path: String) -> String { path + ".migration" }

    /// Rewrites the copy from `source` to `destination` in one transaction. Refuses a step
    /// lightweight migration cannot infer unless `allowingObstacles` (a custom stage, whose
    /// handlers take care of the data). `rowsCopied` hears the number of rows copied so far.
    public func migrate(
        from source: ModelVersion, to destination: ModelVersion, allowingObstacles: Bool = false, rowsCopied: ((Int) -> Void)? = nil
    ) throws {
        let step = StoreMigrationStep(from: source, to: destination)
        if !allowingObstacles {
            let obstacles = step.obstacles
            guard obstacles.isEmpty else {
                throw StoreMigrationError(
                    .notInferable,
                    "lightweight migration cannot infer the step from '\(source.name)' to '\(destination.name)': "
                        + obstacles.joined(separator: "; "))
            }
        }
        let connection = try StoreConnection.openStore(at: copyPath)
        guard try StoreMetadataTable.entityHashes(connection) == VersionHashes(source).entityHashes else {
            throw StoreMigrationError(.sourceMismatch, "the store was not written by version '\(source.name)' (its entity hashes differ)")
        }
        do {
            try connection.transaction(.exclusive) { try step.apply(to: connection, rowsCopied: rowsCopied) }
        } catch let error as StoreMigrationError {
            throw error
        } catch {
            throw StoreMigrationError(
                .failed, "migrating from '\(source.name)' to '\(destination.name)' failed: \(ErrorText.message(error))")
        }
    }

    /// Makes the store at `path` (a file in ``workFolder``, written by a migration that builds a
    /// new store, such as one through a mapping model) the copy the next steps and the commit
    /// work on. Its `-wal` is checkpointed into it first; the previous copy's files are removed.
    public func replaceCopy(withStoreAt path: String) throws {
        guard (path as NSString).deletingLastPathComponent == workFolder else {
            throw StoreMigrationError(.failed, "a replacement of the migration's copy must be in \(workFolder)")
        }
        do {
            let connection = try StoreConnection.openStore(at: path)
            _ = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw StoreMigrationError(.failed, "cannot checkpoint the migrated store: \(error)")
        }
        for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: copyPath + suffix) }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: copyPath)
        } catch {
            throw StoreMigrationError(.failed, "cannot move the migrated store into place: \(error.localizedDescription)")
        }
    }

    /// Swaps the migrated copy in for the store.
    public func commit() throws {
        do {
            let connection = try StoreConnection.openStore(at: copyPath)
            _ = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw StoreMigrationError(.failed, "cannot checkpoint the migrated store: \(ErrorText.message(error))")
        }
        // The connection is closed: the copy's content is all in its main file.
        if let size = try? FileManager.default.attributesOfItem(atPath: copyPath + "-wal")[.size] as? NSNumber, size.intValue > 0 {
            throw StoreMigrationError(.failed, "the migrated store's -wal could not be checkpointed")
        }
        try Self.sync(copyPath)
        guard FileManager.default.createFile(atPath: workFolder + "/committed", contents: Data()) else {
            throw StoreMigrationError(.failed, "cannot write the migration's commit marker")
        }
        try Self.sync(workFolder + "/committed")
        try Self.sync(workFolder)
        isFinished = true
        defer { ownLock?.release() }
        try Self.rollForward(storeAt: storePath)
    }

    /// Removes the copy; the store stays as it was.
    public func discard() {
        isFinished = true
        try? FileManager.default.removeItem(atPath: workFolder)
        ownLock?.release()
    }

    deinit {
        if !isFinished { try? FileManager.default.removeItem(atPath: workFolder) }
        ownLock?.release()
    }

    /// Finishes a committed migration of the store, or discards an uncommitted one. The caller
    /// holds the store's ``StoreMigrationLock``: an uncommitted folder may be another process's
    /// migration in progress otherwise.
    public static func recover(storeAt path: String) throws {
        let folder = workFolder(of: path)
        guard FileManager.default.fileExists(atPath: folder) else { return }
        if FileManager.default.fileExists(atPath: folder + "/committed") {
            try rollForward(storeAt: path)
        } else {
            do { try FileManager.default.removeItem(atPath: folder) } catch {
                throw StoreMigrationError(
                    .failed, "cannot remove an interrupted migration's folder \(folder): \(error.localizedDescription)")
            }
        }
    }

    private static func rollForward(storeAt path: String) throws {
        let folder = workFolder(of: path)
        let copy = folder + "/store.sqlite"
        if FileManager.default.fileExists(atPath: copy) {
            for suffix in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                do { try FileManager.default.removeItem(atPath: path + suffix) } catch {
                    throw StoreMigrationError(.failed, "cannot remove the store's \(suffix) file: \(error.localizedDescription)")
                }
            }
            guard rename(copy, path) == 0 else {
                throw StoreMigrationError(.failed, "cannot move the migrated store into place: \(String(cString: strerror(errno)))")
            }
            try sync((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `fsync` of a file or folder.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StoreMigrationError(.failed, "cannot open \(path) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StoreMigrationError(.failed, "cannot sync \(path)") }
    }
}

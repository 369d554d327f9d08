#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Copying and moving SQLite stores as Core Data does, through SQLite rather than file copies
/// (a store is its file, its write-ahead log and its shared-memory file).
extension NSPersistentStoreCoordinator {
    /// Replaces the store at `destinationURL` (created when missing) with a copy of the store at
    /// `sourceURL`, including committed changes still in the source's write-ahead log. The
    /// destination must not be one of this coordinator's stores (remove it first, as Core Data
    /// code does before restoring a backup); the source may be. Both must be `NSSQLiteStoreType`
    /// stores; the options are accepted and not used. Everything is checked before the
    /// destination is opened, so a refused replace leaves it byte for byte: the source must be a
    /// Core Data store, and the destination and its `-wal`, `-shm` and `-journal` regular files or
    /// absent (a folder, FIFO, device or symbolic link there is refused, as is a non-empty
    /// destination that is not SQLite; see `StoreFileRemoval`).
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL,
        sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String
    ) throws {
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "Only \(NSSQLiteStoreType) stores can be replaced, not \(storeType)")
        }
        guard destinationURL.path != "/dev/null", sourceURL.path != "/dev/null" else {
            let path = destinationURL.path == "/dev/null" ? destinationURL.path : sourceURL.path
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "A store in memory (\(path)) cannot be replaced or copied by URL",
                [NSFilePathErrorKey: path])
        }
        guard destinationURL.standardizedFileURL != sourceURL.standardizedFileURL else { return }
        if persistentStore(for: destinationURL) != nil {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The store at \(destinationURL.path) is one of the coordinator's stores; remove it before replacing it")
        }
        guard FileManager.default.fileExists(atPath: sourceURL.path) else {
            throw CoreDataError.make(
                NSPersistentStoreOpenError, "No store at \(sourceURL.path)", [NSFilePathErrorKey: sourceURL.path, NSURLErrorKey: sourceURL])
        }
        // A Core Data store, or an error naming what is wrong with it.
        _ = try Self.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: sourceURL, options: sourceOptions)
        _ = try StoreFileRemoval.checkedFiles(of: destinationURL, action: "replace")
        try locked {
            try SQLiteStoreEngine.wrap(path: destinationURL.path) {
                let source = try StoreConnection(path: sourceURL.path, mode: .readOnly)
                try Self.copy(source, toFileAt: destinationURL)
            }
        }
    }

    /// The iOS 15 form of ``replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)``.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL,
        sourceOptions: [AnyHashable: Any]? = nil, type storeType: NSPersistentStore.StoreType
    ) throws {
        try replacePersistentStore(
            at: destinationURL, destinationOptions: destinationOptions, withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions,
            ofType: storeType.rawValue)
    }

    /// Moves `store` to a new SQLite store at `url`: its content (an in-memory store's too) is
    /// copied there, `store` is removed from the coordinator and the copy added in its place, with
    /// `options` and the same configuration and identifier. Objects registered in contexts keep
    /// the IDs of the removed store: fetch them again. `storeType` must be `NSSQLiteStoreType`.
    @discardableResult
    public func migratePersistentStore(
        _ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil, withType storeType: String
    ) throws -> NSPersistentStore {
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError, "Stores can be moved to \(NSSQLiteStoreType) stores only, not \(storeType)")
        }
        guard url.path != "/dev/null" else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A store cannot be moved into memory by URL")
        }
        return try locked {
            guard persistentStores.contains(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The store is not one of the coordinator's stores")
            }
            if let current = store.url, current.standardizedFileURL == url.standardizedFileURL { return store }
            if persistentStore(for: url) != nil {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(url.path) is one of the coordinator's stores")
            }
            _ = try StoreFileRemoval.checkedFiles(of: url, action: "replace")
            try SQLiteStoreEngine.wrap(path: url.path) { try Self.copy(store.engine.connection, toFileAt: url) }
            try remove(store)
            do {
                return try addPersistentStore(ofType: storeType, configurationName: store.configurationName, at: url, options: options)
            } catch {
                // Put the original back, so a failed move changes nothing.
                try? reinstate(store)
                throw error
            }
        }
    }

    /// Copies the database of `source` into the SQLite file at `url` (created when missing),
    /// which gets Core Data's connection settings (write-ahead log).
    private static func copy(_ source: StoreConnection, toFileAt url: URL) throws(StoreSQLiteError) {
        let destination = try StoreConnection(path: url.path, mode: .create)
        try destination.applyConnectionPragmas()
        try source.copyDatabase(into: destination)
    }
}
#endif

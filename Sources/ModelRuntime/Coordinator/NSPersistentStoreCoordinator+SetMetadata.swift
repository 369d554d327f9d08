#if !canImport(CoreData)
import ModelQuery
import ModelSchema
import ModelStore

extension NSPersistentStoreCoordinator {
    /// The metadata keys that identify a store's model version and layout. ``setMetadata(_:forPersistentStoreOfType:at:options:)``
    /// keeps the store's own values of the ones the new metadata leaves out, so a store stays
    /// readable by the model that wrote it (`NSStoreUUID` and `NSStoreType` are always the store's).
    static let storeIdentifyingMetadataKeys: Set<String> = [
        "NSPersistenceFrameworkVersion", "NSStoreModelVersionChecksumKey", "NSStoreModelVersionHashes",
        "NSStoreModelVersionHashesDigest", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers", "_NSAutoVacuumLevel",
    ]

    /// Writes the metadata of the store at `url` without adding it to a coordinator
    /// (`setMetadata(_:forPersistentStoreOfType:at:options:)`): the dictionary replaces the
    /// store's metadata, but for the store's UUID and type and the keys that identify its model
    /// version, which keep the store's values when `metadata` leaves them out. A file that is
    /// not a Core Data SQLite store (or is missing, or is not a regular file) is an error before
    /// anything is opened for writing; the store is changed in one SQLite transaction.
    public class func setMetadata(
        _ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError,
                "Cannot write the metadata of a \(storeType) store at \(url.path): only SQLite stores have a file",
                [NSFilePathErrorKey: url.path])
        }
        // Read-only first: a file that is not a Core Data store is never opened for writing.
        do {
            let reader = try StoreInspector.open(url.path)
            _ = try StoreInspector.read(reader)
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError,
                "The file at \(url.path) is not a readable Core Data SQLite store: \(ErrorText.message(error))",
                [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
        do {
            // Opened as it is: its journal mode and pragmas stay the store's.
            let connection = try StoreConnection(path: url.path, mode: .readWrite)
            try connection.transaction(.immediate) {
                guard let row = try StoreMetadataTable.read(connection) else {
                    throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The store at \(url.path) holds no metadata row")
                }
                let existing = SQLiteStoreEngine.dictionary(row.plist) as? [String: Any] ?? [:]
                var merged = metadata ?? [:]
                for key in storeIdentifyingMetadataKeys where merged[key] == nil {
                    if let value = existing[key] { merged[key] = value }
                }
                merged[NSStoreTypeKey] = NSSQLiteStoreType
                merged[NSStoreUUIDKey] = nil
                var members: [(key: String, value: PropertyList)] = []
                for key in merged.keys.sorted() {
                    guard let value = SQLiteStoreEngine.plist(merged[key]!) else {
                        throw CoreDataError.make(
                            NSPersistentStoreOperationError, "The metadata value for \(key) is not a property list value",
                            [NSFilePathErrorKey: url.path])
                    }
                    members.append((key, value))
                }
                try StoreMetadataTable.write(.init(storeUUID: row.storeUUID, plist: .dictionary(members)), to: connection)
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreOperationError, "Cannot write the metadata of the store at \(url.path): \(ErrorText.message(error))",
                [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
    }

    /// The iOS 15 form of ``setMetadata(_:forPersistentStoreOfType:at:options:)``.
    public class func setMetadata(
        _ metadata: [String: Any]?, type storeType: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        try setMetadata(metadata, forPersistentStoreOfType: storeType.rawValue, at: url, options: options)
    }
}
#endif

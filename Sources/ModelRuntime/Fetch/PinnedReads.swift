#if !canImport(CoreData)
import ModelStore

/// A pinned context's read connections: one per SQLite file store, each in a read transaction
/// begun when the generation was taken, so the context's fetches and faults see the stores as
/// they were then (SQLite's write-ahead log keeps that snapshot for an open read transaction).
final class PinnedReads {
    let token: NSQueryGenerationToken
    private var connections: [ObjectIdentifier: StoreConnection] = [:]

    /// Opens and begins reading every file store of `stores` (a store in memory has one
    /// connection and is read unpinned).
    init(stores: [NSPersistentStore]) throws {
        token = NSQueryGenerationToken.next()
        for store in stores {
            guard let url = store.url, url.path != "/dev/null", store.type == NSSQLiteStoreType else { continue }
            let connection = try SQLiteStoreEngine.wrap { () throws -> StoreConnection in
                let connection = try StoreConnection.openStore(at: url.path)
                try connection.execute("BEGIN DEFERRED")
                // The snapshot is taken by the transaction's first read.
                _ = try connection.rows("SELECT COUNT(*) FROM Z_METADATA")
                return connection
            }
            connections[ObjectIdentifier(store)] = connection
        }
    }

    func connection(for store: NSPersistentStore) -> StoreConnection? { connections[ObjectIdentifier(store)] }

    deinit {
        for connection in connections.values where connection.isInTransaction { try? connection.execute("COMMIT") }
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// What a store's history options set up when the store is added to a coordinator.
enum HistoryTracking {
    /// Creates the history tables for `NSPersistentHistoryTrackingKey` (a read-only store must
    /// already have them to be read).
    static func storeAdded(_ store: NSPersistentStore) throws {
        if HistorySchema.isTracking(store.options), !store.isReadOnly {
            let engine = store.engine
            try SQLiteStoreEngine.wrap { try HistorySchema.prepare(engine.connection, model: engine.model) }
        }
    }
}
#endif

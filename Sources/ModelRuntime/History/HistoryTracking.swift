#if !canImport(CoreData)
import ModelQuery

/// What a store's history options set up when the store is added to a coordinator.
enum HistoryTracking {
    /// Creates the history tables for `NSPersistentHistoryTrackingKey` (a read-only store must
    /// already have them to be read) and starts the watcher of
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`.
    /// Also gives the store's connection the model behind `NSPersistentHistoryBatchDeleteUpdateTrigger`,
    /// tracked or not, so triggers an Apple platform left in the file can run.
    static func storeAdded(_ store: NSPersistentStore, to coordinator: NSPersistentStoreCoordinator) throws {
        let masks = HistoryColumnMasks(model: store.engine.model)
        store.engine.connection.setHistoryColumnMask { masks.mask(entityNumber: $0, names: $1) }
        if HistorySchema.isTracking(store.options), !store.isReadOnly {
            let engine = store.engine
            try engine.wrap { try HistorySchema.prepare(engine.connection, model: engine.model) }
        }
        try RemoteChangeWatcher.start(for: store, coordinator: coordinator)
    }

    /// Stops what ``storeAdded(_:to:)`` started.
    static func storeRemoved(_ store: NSPersistentStore) {
        RemoteChangeWatcher.stop(for: store)
    }
}
#endif

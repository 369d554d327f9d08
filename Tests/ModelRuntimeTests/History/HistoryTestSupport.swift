#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// Stacks over one store file with history tracking on, and raw reads of the history tables.
enum HistoryTestSupport {
    /// The engine test model with Trip's `code` and `name` kept in history after deletion.
    static func model() -> NSManagedObjectModel {
        let model = EngineTestModel.make()
        for name in ["name", "code"] {
            (model.entitiesByName["Trip"]?.attributesByName[name])?.preservesValueInHistoryOnDeletion = true
        }
        return model
    }

    static var trackingOptions: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true] }

    static func stack(model: NSManagedObjectModel, url: URL, options: [AnyHashable: Any] = trackingOptions, name: String? = nil)
        throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext)
    {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.name = name
        return (coordinator, context)
    }

    /// The rows of `sql` on a separate connection to the store file.
    static func rows(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
        let connection = try StoreConnection(path: url.path, mode: .readOnly)
        return try connection.rows(sql)
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension NSManagedObjectContext {
    /// Runs a store request (`execute(_:)`): an asynchronous fetch (`NSAsynchronousFetchRequest`,
    /// whose result returns at once and completes on the context's queue), a persistent-history request
    /// (`NSPersistentHistoryChangeRequest`), or a batch insert, delete or update request. Batch
    /// changes are made in SQL without objects (recorded in a tracked store's history with this
    /// context's `transactionAuthor` and `name`) and are not merged into any context: pass the
    /// result's object IDs to ``mergeChanges(fromRemoteContextSave:into:)`` (`NSInsertedObjectsKey`,
    /// `NSUpdatedObjectsKey`, `NSDeletedObjectsKey` or the `…ObjectIDsKey`s), as with Core Data.
    @discardableResult
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSCoreDataError, "The context has no persistent store coordinator")
        }
        let origin = HistoryOrigin(author: transactionAuthor, contextName: name)
        if let started = try request.startAsynchronously(in: self) { return started }
        switch request {
        case let history as NSPersistentHistoryChangeRequest:
            return try coordinator.execute(history)
        case let insert as NSBatchInsertRequest:
            let entity = try batchEntity(insert.entity, name: insert.entityName, coordinator: coordinator)
            let store = try batchStore(for: entity, request: request, coordinator: coordinator)
            let written = try coordinator.locked {
                try BatchInsertWriter(entity: entity, store: store, mergeType: mergeType, history: origin).run(
                    insert, collectIDs: insert.resultType == .objectIDs)
            }
            switch insert.resultType {
            case .statusOnly: return NSBatchInsertResult(result: true, resultType: .statusOnly)
            case .objectIDs: return NSBatchInsertResult(result: written.ids, resultType: .objectIDs)
            case .count: return NSBatchInsertResult(result: written.count, resultType: .count)
            }
        case let delete as NSBatchDeleteRequest:
            let fetch = delete.fetchRequest
            let entity = try batchEntity(fetch.entity, name: fetch.entityName ?? "", coordinator: coordinator)
            let store = try batchStore(for: entity, request: request, coordinator: coordinator)
            let model = coordinator.engineModel
            var requested: [BatchDeleteWriter.Row]? = nil
            if let ids = delete.objectIDs {
                requested = try ids.map { id in
                    guard let key = id.primaryKey, let found = model.entity(for: id.entity), !id.isTemporaryID else {
                        throw CoreDataError.make(
                            NSCoreDataError, "A batch delete needs saved objects; \(id.uriRepresentation()) is temporary")
                    }
                    guard found === entity else {
                        throw CoreDataError.make(
                            NSCoreDataError, "A batch delete's object IDs must all be of one entity (\(entity.name)), not \(found.name)")
                    }
                    return BatchDeleteWriter.Row(entity: found.number, key: key)
                }
            }
            let deleted = try coordinator.locked {
                try BatchDeleteWriter(model: model, store: store, history: origin).run {
                    if let requested { return requested }
                    let plan = try FetchPlan(request: fetch, entity: entity, selection: .objectIDs, paged: true)
                    let statement = try store.engine.connection.cachedStatement(plan.sql.sql)
                    defer { statement.reset() }
                    plan.bind(statement)
                    var rows: [BatchDeleteWriter.Row] = []
                    let entityColumn = Int32(plan.sql.resultColumns.firstIndex(of: .entityNumber) ?? 0)
                    let keyColumn = Int32(plan.sql.resultColumns.firstIndex(of: .primaryKey) ?? 1)
                    while try statement.step() {
                        rows.append(.init(entity: Int(statement.int64(at: entityColumn)), key: statement.int64(at: keyColumn)))
                    }
                    return rows
                }
            }
            switch delete.resultType {
            case .resultTypeStatusOnly: return NSBatchDeleteResult(result: true, resultType: .resultTypeStatusOnly)
            case .resultTypeCount: return NSBatchDeleteResult(result: deleted.count, resultType: .resultTypeCount)
            case .resultTypeObjectIDs:
                let ids = deleted.map { row in
                    let described = model.entity(number: row.entity)!
                    return NSManagedObjectID(
                        entity: described.description, rootEntityNumber: described.rootNumber, key: .permanent(row.key), store: store)
                }
                return NSBatchDeleteResult(result: ids, resultType: .resultTypeObjectIDs)
            }
        case let update as NSBatchUpdateRequest:
            let entity = try batchEntity(update.entity, name: update.entityName, coordinator: coordinator)
            let store = try batchStore(for: entity, request: request, coordinator: coordinator)
            let rows = try coordinator.locked { try BatchUpdateWriter(entity: entity, store: store, history: origin).run(update) }
            switch update.resultType {
            case .statusOnlyResultType: return NSBatchUpdateResult(result: true, resultType: .statusOnlyResultType)
            case .updatedObjectsCountResultType: return NSBatchUpdateResult(result: rows.count, resultType: .updatedObjectsCountResultType)
            case .updatedObjectIDsResultType:
                let model = coordinator.engineModel
                let ids = rows.map { row in
                    let described = model.entity(number: row.entity) ?? entity
                    return NSManagedObjectID(
                        entity: described.description, rootEntityNumber: described.rootNumber, key: .permanent(row.key), store: store)
                }
                return NSBatchUpdateResult(result: ids, resultType: .updatedObjectIDsResultType)
            }
        default:
            throw CoreDataError.make(
                NSPersistentStoreUnsupportedRequestTypeError,
                "execute(_:) runs asynchronous fetch, persistent-history and batch insert, delete and update requests; use fetch(_:) for fetch requests"
            )
        }
    }

    private func batchEntity(_ described: NSEntityDescription?, name: String, coordinator: NSPersistentStoreCoordinator) throws
        -> EngineEntity
    {
        let model = coordinator.engineModel
        if let described, let found = model.entity(for: described) { return found }
        guard let found = model.entity(named: name) else {
            throw CoreDataError.make(NSCoreDataError, "The model has no entity named '\(name)'")
        }
        return found
    }

    private func batchStore(for entity: EngineEntity, request: NSPersistentStoreRequest, coordinator: NSPersistentStoreCoordinator)
        throws -> NSPersistentStore
    {
        // The first of the request's stores (else the coordinator's) whose configuration holds
        // the entity.
        let candidates = request.affectedStores ?? coordinator.persistentStores
        let model = coordinator.managedObjectModel
        let holds = { (store: NSPersistentStore) in
            store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME"
                || model.entities(forConfigurationName: store.configurationName)?.contains { $0 === entity.description } == true
        }
        guard let store = candidates.first(where: holds) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "No store can hold objects of entity \(entity.name)")
        }
        return store
    }
}
#endif

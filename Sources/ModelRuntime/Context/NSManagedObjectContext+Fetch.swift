#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension NSManagedObjectContext {
    /// Runs a fetch request in the stores (its predicate and sorts as SQL), merging the
    /// context's unsaved inserts and deletes when `includesPendingChanges` is set.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        checkQueue()
        let entity = try engineEntity(of: request)
        if let type = T.self as? NSManagedObject.Type { ClassRegistry.note(type, for: entity.description) }
        try DictionaryGrouping.checkResultType(of: request)
        switch request.resultType {
        case .countResultType:
            return try Self.typed([NSNumber(value: try count(for: request))])
        case .managedObjectIDResultType:
            return try Self.typed(try fetchObjects(request, entity: entity, idsOnly: true).map(\.objectID))
        case .dictionaryResultType:
            return try Self.typed(try storeFetch.dictionaries(request, entity: entity))
        default:
            guard request.shouldRefreshRefetchedObjects else {
                return try Self.typed(try fetchObjects(request, entity: entity, idsOnly: false))
            }
            let loaded = graph.objectsWithValues()
            let objects = try fetchObjects(request, entity: entity, idsOnly: false)
            refreshRefetched(objects, loadedBefore: loaded)
            return try Self.typed(objects)
        }
    }

    /// The results as `[T]`: one cast of the whole array (free when `T` is the results' own
    /// class), or an error naming the first result that is not a `T`.
    private static func typed<R: AnyObject, T>(_ results: [R]) throws -> [T] {
        if T.self == R.self { return unsafeBitCast(results, to: [T].self) }
        if let typed = results as? [T] { return typed }
        let wrong = results.first { !($0 is T) }.map { String(describing: type(of: $0)) } ?? String(describing: R.self)
        throw CoreDataError.make(NSCoreDataError, "A fetch result of type \(wrong) is not a \(T.self)")
    }

    /// The number of objects the request would return.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        checkQueue()
        let entity = try engineEntity(of: request)
        let plan = try FetchPlan(request: request, entity: entity, selection: .count, paged: false)
        var total = try storeFetch.count(plan, for: request)
        if let exact = try countWithPendingChanges(for: request, entity: entity, storeCount: total) { return exact }
        total = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
    }

    func engineEntity<T>(of request: NSFetchRequest<T>) throws -> EngineEntity {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSCoreDataError, "The context has no persistent store coordinator")
        }
        let model = coordinator.engineModel
        if let entity = request.entity, let found = model.entity(for: entity) { return found }
        guard let name = request.entityName, let found = model.entity(named: name) else {
            throw CoreDataError.make(NSCoreDataError, "The model has no entity named '\(request.entityName ?? "")'")
        }
        return found
    }

    /// The store-reading part of the context's fetches and faults: its graph, its coordinator
    /// and pinned read connections, and whether its values come from a parent.
    var storeFetch: StoreFetch {
        StoreFetch(graph: graph, coordinator: persistentStoreCoordinator, pinnedReads: pinnedReads, valuesFromParent: parentContext != nil)
    }

    /// The objects (or, with `idsOnly`, the hollow objects for the IDs) the request returns: the
    /// stores' rows through ``StoreFetch``, then a child context's new objects loaded from its
    /// parent (the coordinator's lock released), its ancestors' and its own unsaved changes, and
    /// the sorts, offset and limit when they were not applied in SQL.
    private func fetchObjects<T>(_ request: NSFetchRequest<T>, entity: EngineEntity, idsOnly: Bool) throws -> [NSManagedObject] {
        let ancestors =
            parent == nil
            ? AncestorChanges()
            : ancestorChanges(covering: { request.includesSubentities ? entity.entityNumbers.contains($0.number) : $0 === entity })
        let storeFetch = self.storeFetch
        let pending = request.includesPendingChanges && storeFetch.hasPendingChanges(for: entity) || !ancestors.isEmpty
        let paged = !pending && (storeFetch.coordinator?.persistentStores.count ?? 0) <= 1
        if request.fetchBatchSize > 0, !idsOnly, paged, parent == nil {
            return try storeFetch.objectsInBatches(request, entity: entity)
        }
        let plan = try FetchPlan(request: request, entity: entity, selection: idsOnly ? .objectIDs : .rows, paged: paged)
        var objects = try storeFetch.objects(request, plan: plan, entity: entity, idsOnly: idsOnly)
        // A child context's new objects are loaded from its parent now that the coordinator's
        // lock is released.
        if !idsOnly { loadFromParent(objects, asFault: request.returnsObjectsAsFaults) }
        if !ancestors.isEmpty { graph.applyAncestorChanges(ancestors, to: &objects, predicate: request.predicate) }
        if pending && request.includesPendingChanges {
            storeFetch.includePendingChanges(in: &objects, plan: plan, predicate: request.predicate)
        }
        if !paged {
            if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
                objects.sort { NSSortDescriptor.compare($0, $1, by: descriptors) == .orderedAscending }
            }
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        if !idsOnly, let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            try prefetch(keyPaths, of: objects)
        }
        return objects
    }
}
#endif

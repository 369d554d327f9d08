#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A child context's fetches and counts with its ancestors' unsaved changes: the context walks
/// up to each ancestor's queue, where the ancestor's graph gives its changes
/// (``ObjectGraph/unsavedChanges(covering:)``); its own graph applies them to what it fetched
/// (``ObjectGraph/applyAncestorChanges(_:to:predicate:)``).
extension NSManagedObjectContext {
    /// The unsaved inserts, deletes and updates of every ancestor to objects of entities `covers`
    /// accepts, read by each ancestor's graph on its queue. Empty for a context without a parent.
    func ancestorChanges(covering covers: (EngineEntity) -> Bool) -> AncestorChanges {
        var pending: [AncestorChanges.Pending] = []
        var ancestor = parent
        while let current = ancestor {
            pending.append(current.performAndWait { current.graph.unsavedChanges(covering: covers) })
            ancestor = current.parent
        }
        return AncestorChanges(pending)
    }

    /// `count(for:)` when the context or its ancestors have unsaved changes the request covers:
    /// for a child context with ancestors' changes, the count of what a fetch would return;
    /// else the count with the context's own changes (``StoreFetch/countWithPendingChanges(for:plan:entity:storeCount:)``).
    /// Nil when a plain store count is exact.
    func countWithPendingChanges<T>(for request: NSFetchRequest<T>, entity: EngineEntity, storeCount: Int) throws -> Int? {
        let plan = try FetchPlan(request: request, entity: entity, selection: .count, paged: false)
        if parent != nil {
            let ancestors = ancestorChanges(covering: plan.covers)
            if !ancestors.isEmpty {
                // The parent is this context's store: count what a fetch would return.
                let probe = NSFetchRequest<NSManagedObjectID>()
                probe.entity = entity.description
                probe.predicate = request.predicate
                probe.includesSubentities = request.includesSubentities
                probe.includesPendingChanges = request.includesPendingChanges
                probe.fetchLimit = request.fetchLimit
                probe.fetchOffset = request.fetchOffset
                probe.affectedStores = request.affectedStores
                probe.resultType = .managedObjectIDResultType
                return try fetch(probe).count
            }
        }
        return try storeFetch.countWithPendingChanges(for: request, plan: plan, entity: entity, storeCount: storeCount)
    }
}
#endif

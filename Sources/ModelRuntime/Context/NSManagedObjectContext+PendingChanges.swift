#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The unsaved changes of a context's ancestors (its parent, the parent's parent, …) to objects
/// a fetch covers, by object ID. A child context's fetches see them as Core Data's do: to a child,
/// its parent is the store.
struct AncestorChanges {
    var inserted: [NSManagedObjectID] = []
    var deleted: Set<NSManagedObjectID> = []
    var changed: [NSManagedObjectID] = []

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && changed.isEmpty }
}

extension NSManagedObjectContext {
    /// The unsaved inserts, deletes and updates of every ancestor to objects of entities `covers`
    /// accepts, read on each ancestor's queue. Empty for a context without a parent.
    func ancestorChanges(covering covers: (EngineEntity) -> Bool) -> AncestorChanges {
        var result = AncestorChanges()
        var seenInserted = Set<NSManagedObjectID>()
        var seenChanged = Set<NSManagedObjectID>()
        var ancestor = parent
        while let current = ancestor {
            let taken: (inserted: [NSManagedObjectID], deleted: [NSManagedObjectID], changed: [NSManagedObjectID]) =
                current.performAndWait {
                    (
                        current.graph.inserted.values.filter { !$0.deletedFlag && covers($0.engine) }.map(\.id),
                        current.graph.deleted.values.filter { covers($0.engine) }.map(\.id),
                        current.graph.changed.values.filter { !$0.deletedFlag && !$0.insertedFlag && covers($0.engine) }.map(\.id)
                    )
                }
            result.deleted.formUnion(taken.deleted)
            for id in taken.inserted where seenInserted.insert(id).inserted { result.inserted.append(id) }
            for id in taken.changed where seenChanged.insert(id).inserted { result.changed.append(id) }
            ancestor = current.parent
        }
        result.inserted.removeAll { result.deleted.contains($0) }
        result.changed.removeAll { result.deleted.contains($0) || seenInserted.contains($0) }
        return result
    }

    /// Applies the ancestors' unsaved changes to the objects a store fetch returned: their
    /// deleted objects leave, their inserted and updated objects are in exactly when the
    /// predicate holds for them (evaluated on the values the ancestors hold).
    func applyAncestorChanges(_ changes: AncestorChanges, to objects: inout [NSManagedObject], predicate: NSPredicate?) {
        if !changes.deleted.isEmpty { objects.removeAll { changes.deleted.contains($0.id) } }
        var present = Set(objects.map(ObjectIdentifier.init))
        for id in changes.changed + changes.inserted {
            let object = self.object(with: id)
            let matches = predicate?.evaluate(with: object) ?? true
            let identity = ObjectIdentifier(object)
            if matches, !present.contains(identity) {
                objects.append(object)
                present.insert(identity)
            } else if !matches, present.contains(identity) {
                objects.removeAll { $0 === object }
                present.remove(identity)
            }
        }
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

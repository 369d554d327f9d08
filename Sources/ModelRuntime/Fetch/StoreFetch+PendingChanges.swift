#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A context's own unsaved changes in its fetches and counts (`includesPendingChanges`): the
/// graph's inserted, changed and deleted objects merged with what the stores returned.
extension StoreFetch {
    /// Whether the graph has unsaved inserts, deletes or updates of objects of `entity` or its
    /// subentities.
    func hasPendingChanges(for entity: EngineEntity) -> Bool {
        let family = entity.entityNumbers
        return graph.inserted.values.contains { family.contains($0.engine.number) }
            || graph.deleted.values.contains { family.contains($0.engine.number) }
            || graph.changed.values.contains { family.contains($0.engine.number) }
    }

    /// Merges the graph's unsaved changes the plan covers into the objects a store fetch
    /// returned: deleted objects and changed ones the predicate no longer holds for leave,
    /// changed and inserted objects it holds for join (after the stores' rows, each once).
    func includePendingChanges(in objects: inout [NSManagedObject], plan: FetchPlan, predicate: NSPredicate?) {
        objects.removeAll { $0.deletedFlag || ($0.changedFlag && !(predicate?.evaluate(with: $0) ?? true)) }
        var seen = Set(objects.map(ObjectIdentifier.init))
        for object in graph.changed.values where !object.deletedFlag && !object.insertedFlag && plan.covers(object.engine) {
            if !seen.contains(ObjectIdentifier(object)), predicate?.evaluate(with: object) ?? true {
                objects.append(object)
                seen.insert(ObjectIdentifier(object))
            }
        }
        for object in graph.inserted.values where !object.deletedFlag && plan.covers(object.engine) {
            if predicate?.evaluate(with: object) ?? true { objects.append(object) }
        }
    }

    /// `count(for:)` when the graph has unsaved changes the request covers: the store's count,
    /// minus the store rows of objects changed or deleted here, plus the changed and inserted
    /// objects that match now. Nil when a plain store count is exact.
    func countWithPendingChanges<T>(for request: NSFetchRequest<T>, plan: FetchPlan, entity: EngineEntity, storeCount: Int) throws -> Int? {
        guard request.includesPendingChanges else { return nil }
        let predicate = request.predicate
        let touched = (Array(graph.changed.values) + Array(graph.deleted.values)).filter {
            !$0.insertedFlag && !$0.id.isTemporaryID && plan.covers($0.engine)
        }
        let current = graph.changed.values.filter { !$0.deletedFlag && !$0.insertedFlag && plan.covers($0.engine) }
        let added = graph.inserted.values.filter { !$0.deletedFlag && plan.covers($0.engine) }
        guard !touched.isEmpty || !added.isEmpty else { return nil }
        var total = storeCount
        if !touched.isEmpty {
            // How many of them the store counted: the same count, restricted to them.
            let probe = NSFetchRequest<NSFetchRequestResult>()
            probe.entity = entity.description
            probe.includesSubentities = request.includesSubentities
            probe.affectedStores = request.affectedStores
            let members = NSPredicate(format: "SELF IN %@", argumentArray: [touched])
            probe.predicate = predicate.map { NSCompoundPredicate(andPredicateWithSubpredicates: [$0, members]) } ?? members
            let probePlan = try FetchPlan(request: probe, entity: entity, selection: .count, paged: false)
            total -= try count(probePlan, for: probe)
        }
        total += current.filter { predicate?.evaluate(with: $0) ?? true }.count
        total += added.filter { predicate?.evaluate(with: $0) ?? true }.count
        total = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
    }
}
#endif

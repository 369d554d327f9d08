#if !canImport(CoreData)
import ModelQuery

/// What a save takes from the graph and what it leaves: the objects to write, in the order their
/// rows are written, and the graph settled once they are saved (a child context's save arriving
/// in its parent's graph is +ChildSaves).
extension ObjectGraph {
    /// The changed objects a save writes as updates: stored, not deleted, with changes to save.
    func updatedToSave() -> [NSManagedObject] {
        changed.values.filter { !$0.insertedFlag && !$0.deletedFlag && $0.hasPersistentChangedValues }
    }

    /// The inserted objects in insertion order: keys are given, and rows written, in that order,
    /// so neither has to sort them again. Insertion numbers are usually dense (one context
    /// inserting), so each object is placed by its number; other numbers are sorted.
    func insertedInOrder() -> [NSManagedObject] {
        let objects = Array(inserted.values)
        guard objects.count > 1 else { return objects }
        let numbers = objects.map(\.insertionOrder)
        let low = numbers.min()!
        let span = numbers.max()! - low
        if low > 0, span < UInt64(objects.count) * 4 {
            var places = [Int32](repeating: -1, count: Int(span) + 1)
            var unique = true
            for (index, number) in numbers.enumerated() {
                let place = Int(number - low)
                if places[place] >= 0 { unique = false }
                places[place] = Int32(index)
            }
            if unique { return places.compactMap { $0 >= 0 ? objects[Int($0)] : nil } }
        }
        // Objects without a number were given their permanent IDs earlier (a save that failed,
        // `obtainPermanentIDs(for:)`): their keys were allocated in insertion order.
        let keys = numbers.contains(0) ? objects.map { $0.rowKey ?? 0 } : []
        return numbers.indices.sorted {
            numbers[$0] != numbers[$1] ? numbers[$0] < numbers[$1] : !keys.isEmpty && keys[$0] < keys[$1]
        }.map { objects[$0] }
    }

    /// Settles the graph after a save: the saved objects' values become their committed ones
    /// (with the row versions the store now has, `intoStore`), deleted objects leave the graph,
    /// and the change tables and the last change report are emptied. Returns the inserted
    /// objects still in the graph, which the save reports inserted.
    func settleSaved(
        inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject], deleted deletedNow: [NSManagedObject],
        intoStore: Bool
    )
        -> [NSManagedObject]
    {
        var savedInserted: [NSManagedObject] = []
        savedInserted.reserveCapacity(insertedNow.count)
        for object in insertedNow where contains(object) {
            savedInserted.append(object)
            object.insertedFlag = false
            object.settleValues()
            if intoStore { object.version = 1 }
        }
        for object in updatedNow {
            object.settleValues()
            if intoStore { object.version += 1 }
        }
        for object in deletedNow {
            registry.removeValue(forKey: ObjectKey(object.id))
            object.anchor = nil
        }
        // Objects touched only as inverses (changed, not persistently) are clean now too.
        for object in changed.values where !object.deletedFlag { object.settleValues() }
        inserted.removeAll()
        deleted.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        // The save started by processing pending changes; what it reported is settled now, and
        // holding the saved objects for the next report would keep them alive (the registry
        // holds unchanged objects weakly).
        processedChanges = ProcessedChanges()
        return savedInserted
    }

    /// Settles the objects written since the last save that hold their committed values again
    /// (a save that finds nothing to write: a value set to what it was, or set back). Those
    /// objects are what the store holds, so they leave the changed objects as a save's do, and
    /// nothing is written or reported; otherwise each later fetch would evaluate them again as
    /// pending changes, and `hasChanges` compare them again, however many saves ago they were
    /// written.
    func settleUnchanged() {
        guard !changed.isEmpty else { return }
        var settled = 0
        for (key, object) in changed where !object.deletedFlag && !object.insertedFlag && !object.hasPersistentChangedValues {
            object.settleValues()
            changed.removeValue(forKey: key)
            settled += 1
        }
        // As after a save: what the last change report held is settled, and holding the objects
        // for the next report would keep them alive.
        if settled > 0, changed.isEmpty { processedChanges = ProcessedChanges() }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// Objects refreshed from their rows: `refresh(_:mergeChanges:)`, `refreshAllObjects()` and a
/// fetch's `shouldRefreshRefetchedObjects`. Rows are loaded by the `load` the context passes (from
/// the stores, or a child context's from its parent), which returns false when there is no row.
/// The context sends `awake(fromSnapshotEvents: .refresh)` to each object these methods reload
/// keeping its changes.
extension ObjectGraph {
    /// Refreshes `object`, one of the graph's: its fetched properties are fetched again on their
    /// next read; without `mergeChanges` it turns into a fault, its changes discarded (an
    /// inserted one is as it was inserted, still inserted); with `mergeChanges` a changed stored
    /// object is reloaded keeping its changes, an unchanged one turns into a fault, an inserted
    /// one stays as it is. Returns whether it was reloaded keeping its changes.
    func refresh(_ object: NSManagedObject, mergeChanges: Bool, load: (NSManagedObject) -> Bool) -> Bool {
        object.forgetFetchedPropertyValues()
        // Nothing to reload an inserted object from: without merging it turns into a fault and
        // its pending changes are lost (Apple's documentation of `refresh(_:mergeChanges:)`), so
        // it is as it was inserted, still inserted; merging keeps it as it is.
        if object.insertedFlag && mergeChanges { return false }
        if mergeChanges && object.changedFlag {
            reloadKeepingChanges(object, load: load)
            return true
        }
        turnIntoFault(object)
        return false
    }

    /// Refreshes every registered object that is not inserted, as `refresh(_:mergeChanges: true)`
    /// of each, in the registry's order; `reloaded` is called with each object reloaded keeping
    /// its changes, right after it was.
    func refreshAll(load: (NSManagedObject) -> Bool, reloaded: (NSManagedObject) -> Void) {
        for object in Array(registry.values) where !object.insertedFlag {
            guard contains(object) else { continue }
            if refresh(object, mergeChanges: true, load: load) { reloaded(object) }
        }
    }

    /// Reloads `object`'s row with `load`, then puts its changed values back over the new ones:
    /// it is a changed object when it had changes, else an unchanged one.
    func reloadKeepingChanges(_ object: NSManagedObject, load: (NSManagedObject) -> Bool) {
        let local = object.candidateChangedSlots.filter { object.isChanged($0) }.map { ($0, object.values[$0]) }
        _ = load(object)
        object.writtenSlots.removeAll()
        for (slot, value) in local {
            object.values[slot] = value
            object.writtenSlots.insert(slot)
        }
        object.changedFlag = !local.isEmpty
        if local.isEmpty { noteUnchanged(object) }
    }

    /// Reloads those of `objects` (a fetch's results) that held values before the fetch
    /// (`loaded`, from ``objectsWithValues()``) and are not deleted, keeping their changes, in
    /// order; `reloaded` is called with each right after it was (`shouldRefreshRefetchedObjects`).
    func reloadRefetched(
        _ objects: [NSManagedObject], loadedBefore loaded: Set<ObjectIdentifier>, load: (NSManagedObject) -> Bool,
        reloaded: (NSManagedObject) -> Void
    ) {
        guard !loaded.isEmpty else { return }
        for object in objects where loaded.contains(ObjectIdentifier(object)) && !object.deletedFlag {
            object.forgetFetchedPropertyValues()
            reloadKeepingChanges(object, load: load)
            reloaded(object)
        }
    }

    /// The registered objects that hold values (not hollow, not inserted): those a fetch that
    /// refreshes refetched objects reloads if it finds them.
    func objectsWithValues() -> Set<ObjectIdentifier> {
        var loaded = Set<ObjectIdentifier>()
        for object in registry.values where object.faultState != .hollow && !object.insertedFlag {
            loaded.insert(ObjectIdentifier(object))
        }
        return loaded
    }
}
#endif

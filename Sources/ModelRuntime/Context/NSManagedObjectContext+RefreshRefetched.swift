#if !canImport(CoreData)
import ModelQuery

/// `shouldRefreshRefetchedObjects`: a fetch brings the objects it finds already loaded in the
/// context up to the store's current values (a child context's: its parent's), keeping their
/// unsaved changes, as `refresh(_:mergeChanges: true)` of each would. Objects the fetch loads for
/// the first time read the store's values anyway.
extension NSManagedObjectContext {
    /// The registered objects that hold values (not faults, not inserted): those a fetch that
    /// refreshes refetched objects reloads if it finds them.
    func objectsWithValues() -> Set<ObjectIdentifier> {
        var loaded = Set<ObjectIdentifier>()
        for object in graph.registry.values where object.faultState != .hollow && !object.insertedFlag {
            loaded.insert(ObjectIdentifier(object))
        }
        return loaded
    }

    /// Reloads the fetched objects that held values before the fetch, keeping their changes.
    func refreshRefetched(_ objects: [NSManagedObject], loadedBefore loaded: Set<ObjectIdentifier>) {
        guard !loaded.isEmpty else { return }
        for object in objects where loaded.contains(ObjectIdentifier(object)) && !object.deletedFlag {
            object.forgetFetchedPropertyValues()
            reloadKeepingChanges(object)
        }
    }

    /// Reloads `object`'s values from its store (a child context: from its parent), then puts its
    /// unsaved changes back over them (`refresh(_:mergeChanges: true)` of a changed object).
    func reloadKeepingChanges(_ object: NSManagedObject) {
        let local = object.candidateChangedSlots.filter { object.isChanged($0) }.map { ($0, object.values[$0]) }
        _ = loadRow(into: object)
        object.writtenSlots.removeAll()
        for (slot, value) in local {
            object.values[slot] = value
            object.writtenSlots.insert(slot)
        }
        object.changedFlag = !local.isEmpty
        if local.isEmpty { graph.noteUnchanged(object) }
        // Its values were put back from the new snapshot (it stays loaded, so no
        // `awakeFromFetch()` follows).
        object.awake(fromSnapshotEvents: .refresh)
    }
}
#endif

#if !canImport(CoreData)
/// What the next save does beyond the graph's changes: rows it checks though unchanged
/// (``ObjectGraph/conflictChecked``) and the stores inserted objects go to
/// (``ObjectGraph/assignedStores``).
extension ObjectGraph {
    /// Marks `object` for conflict detection: the next save checks its row even when it is
    /// unchanged.
    func checkConflicts(of object: NSManagedObject) {
        conflictChecked[ObjectIdentifier(object)] = object
    }

    /// Drops the conflict-detection marks (a save succeeded).
    func forgetConflictChecks() {
        conflictChecked.removeAll()
    }

    /// Saves the inserted `object` into `store`, until it gets its key.
    func assign(_ object: NSManagedObject, to store: NSPersistentStore) {
        assignedStores[ObjectIdentifier(object)] = store
    }

    /// The store `object` was assigned to, if any, which it no longer is: it is getting its key.
    @inline(__always)
    func takeAssignedStore(of object: NSManagedObject) -> NSPersistentStore? {
        assignedStores.removeValue(forKey: ObjectIdentifier(object))
    }

    /// Drops both kinds of marks (`rollback()`, `reset()`).
    func forgetSaveChoices() {
        conflictChecked.removeAll()
        assignedStores.removeAll()
    }
}
#endif

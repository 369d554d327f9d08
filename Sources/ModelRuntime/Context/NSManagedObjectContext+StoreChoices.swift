#if !canImport(CoreData)
import ModelQuery

/// What the next save does beyond the context's changes: rows it checks though unchanged
/// (`detectConflicts(for:)`) and stores new objects go to (`assign(_:to:)`).
extension NSManagedObjectContext {
    /// Marks `object` for conflict detection (Core Data's `detectConflicts(for:)`): the next
    /// save checks its row's `Z_OPT` even when the object is unchanged, so a row another context
    /// or process changed since the object was read is a merge conflict (133020 under
    /// `NSErrorMergePolicy`), as it is for a changed object. The mark lasts until a save
    /// succeeds, `rollback()` or `reset()`. A save with no changes checks nothing.
    public func detectConflicts(for object: NSManagedObject) {
        checkQueue()
        guard object.managedObjectContext === self else { return }
        graph.checkConflicts(of: object)
    }

    /// Saves the inserted `object` into `store` (Core Data's `assign(_:to:)`), one of the
    /// coordinator's stores, instead of the first store whose configuration has its entity. An
    /// object already saved, or one not inserted in this context, is left alone (Core Data
    /// raises for the latter). The choice lasts until the object gets its key (`save()`,
    /// `obtainPermanentIDs(for:)`), `rollback()` or `reset()`.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        checkQueue()
        guard let object = object as? NSManagedObject, object.insertedFlag, !object.deletedFlag, object.managedObjectContext === self,
            object.rowKey == nil, persistentStoreCoordinator?.persistentStores.contains(where: { $0 === store }) == true
        else { return }
        graph.assign(object, to: store)
    }
}
#endif

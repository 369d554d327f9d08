#if !canImport(CoreData)
import ModelQuery

extension NSManagedObjectContext {
    /// Core Data's `processPendingChanges()`: posts `NSManagedObjectContextObjectsDidChange`
    /// with the objects inserted, updated and deleted since the last time (nothing when there
    /// are none). On Linux this happens at the end of every `perform` block, at the start of
    /// `save()` and when called; there is no end of a run-loop event to wait for.
    func processPendingChangesNow() {
        checkQueue()
        let (insertedNow, updatedNow, deletedNow) = graph.reportChanges()
        if let undoManager, !insertedNow.isEmpty || !updatedNow.isEmpty || !deletedNow.isEmpty {
            recordUndo(inserted: insertedNow, updated: updatedNow, deleted: deletedNow, in: undoManager)
        }
        guard let info = ChangeInfo.changes(inserted: insertedNow, updated: updatedNow, deleted: deletedNow) else { return }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    /// After `reset()`: every object left, reported with `NSInvalidatedAllObjectsKey` (the IDs of
    /// the objects that were registered).
    func postInvalidatedAll(_ ids: [NSManagedObjectID]) {
        graph.forgetProcessedChanges()
        NotificationCenter.default.post(
            name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: [NSInvalidatedAllObjectsKey: ids])
    }

    /// After `rollback()`: the discarded inserted objects that were reported inserted are
    /// reported deleted, and the restored objects refreshed (`NSRefreshedObjectsKey`), so
    /// observers such as a fetched-results controller see the rolled-back state.
    func postRolledBack(discarded: [NSManagedObject], restored: [NSManagedObject]) {
        let last = graph.forgetProcessedChanges()
        let deleted = Set(discarded.filter { last.insertedObjects[ObjectIdentifier($0)] != nil })
        let refreshed = Set(restored.filter { $0.managedObjectContext === self })
        guard !deleted.isEmpty || !refreshed.isEmpty else { return }
        var info: [AnyHashable: Any] = [:]
        if !deleted.isEmpty { info[NSDeletedObjectsKey] = deleted }
        if !refreshed.isEmpty { info[NSRefreshedObjectsKey] = refreshed }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    /// Runs a `perform` block as Core Data runs a user event: the block, then
    /// `processPendingChanges()`.
    static func userEvent(_ context: WeakContext, _ block: () -> Void) {
        guard let owner = context.context else { return block() }
        CurrentContext.with(owner, block)
        owner.processPendingChanges()
    }
}
#endif

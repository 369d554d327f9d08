#if !canImport(CoreData)
import ModelQuery

/// Undo support (`undoManager`, `undo()`, `redo()`), as Core Data records it: each
/// `processPendingChanges()` registers one undo operation that puts every object it reports
/// (inserted, updated, deleted) back as it was at the previous one. Undoing runs that operation,
/// then processes the changes it made, which registers the redo operation.
extension NSManagedObjectContext {
    /// Sends `undo` to the undo manager after processing pending changes, so they are undone
    /// first.
    public func undo() {
        checkQueue()
        guard let manager = undoManager else { return }
        processPendingChanges()
        manager.undoLast()
    }

    /// Sends `redo` to the undo manager.
    public func redo() {
        checkQueue()
        guard let manager = undoManager else { return }
        processPendingChanges()
        manager.redoLast()
    }

    /// A new undo manager: forget what the old one recorded, and process pending changes at its
    /// checkpoints (before an undo, a redo, and a group's opening and closing), as Core Data does.
    func undoManagerChanged() {
        if let token = undoCheckpointToken { NotificationCenter.default.removeObserver(token) }
        undoCheckpointToken = nil
        graph.forgetUndoBaselines()
        guard let manager = undoManager else { return }
        let weakSelf = WeakContext(self)
        undoCheckpointToken = NotificationCenter.default.addObserver(forName: .NSUndoManagerCheckpoint, object: manager, queue: nil) { _ in
            guard let context = weakSelf.context, context.isOnQueue else { return }
            context.processPendingChanges()
        }
    }

    /// Registers the undo operation of one `processPendingChanges()`: the objects it reports,
    /// each with what it was at the previous one (or, recorded for the first time, its
    /// committed values; an inserted object did not exist). Objects whose deletion an undo took
    /// back are among the inserted ones, with what they were recorded as.
    func recordUndo(inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>, in manager: UndoManager) {
        let records = graph.advanceUndoBaselines(inserted: inserted, updated: updated, deleted: deleted)
        // With registration disabled the changes are not undoable, but what they made is what
        // the next recorded change goes back to.
        guard !records.isEmpty, manager.registersOperations else { return }
        manager.register(target: self) { target in
            (target as? NSManagedObjectContext)?.restore(records)
        }
    }

    /// Puts each object back as `records` has it (see ``ObjectGraph/restore(_:loadToMany:)``),
    /// sends each changed object its snapshot events, then processes the changes (registering the
    /// operation that redoes them).
    private func restore(_ records: [UndoBaseline]) {
        let changes = graph.restore(records) { object, slot in loadToMany(of: object, slot: slot) }
        for (object, events) in changes { object.awake(fromSnapshotEvents: events) }
        processPendingChanges()
    }

    /// After `rollback()` (every operation of the manager goes, as in Core Data) or `reset()`
    /// (the context's own operations go).
    func forgetUndo(everything: Bool) {
        graph.forgetUndo()
        guard let manager = undoManager else { return }
        if everything { manager.removeEveryAction() } else { manager.removeActions(of: self) }
    }
}
#endif

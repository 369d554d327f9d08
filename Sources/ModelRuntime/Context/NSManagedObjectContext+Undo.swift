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

    /// Puts each object back as `records` has it, then processes the changes (registering the
    /// operation that redoes them). Objects no longer in the context (after `reset()`, or whose
    /// deletion was saved) are left alone.
    private func restore(_ records: [UndoBaseline]) {
        var events: [(NSManagedObject, NSSnapshotEventType)] = []
        for record in records {
            let object = record.object
            guard object.anchor === anchor else { continue }
            var event: NSSnapshotEventType = []
            if record.exists == object.deletedFlag {
                if record.exists {
                    revive(object)
                    event.insert(.undoDeletion)
                } else {
                    graph.withdraw(object)
                    event.insert(.undoInsertion)
                }
            }
            if let old = record.values, object.faultState != .hollow {
                let current = object.valuesCopy
                for slot in 0..<min(old.count, current.count) where !Self.same(current[slot], old[slot]) {
                    object.storeChange(old[slot], atSlot: slot)
                    event.insert(.undoUpdate)
                }
            }
            if !event.isEmpty { events.append((object, event)) }
        }
        for (object, event) in events { object.awake(fromSnapshotEvents: event) }
        processPendingChanges()
    }

    /// Equal slot values; a to-many's members and their order.
    private static func same(_ a: Any?, _ b: Any?) -> Bool {
        if let a = a as? ToMany, let b = b as? ToMany { return a.objects.elementsEqual(b.objects, by: ===) }
        return SlotValues.equal(a, b)
    }

    /// Brings a deleted object back (see ``ObjectGraph/revive(_:)``) and into the to-many
    /// inverses it is missing from.
    private func revive(_ object: NSManagedObject) {
        graph.revive(object)
        restoreInverseMembership(of: object)
    }

    /// Puts a revived object back into the loaded to-many inverses of its destinations that
    /// lack it: a to-many read from the store after the deletion left the deleted object out,
    /// though the store still has it, so it is read again (in the store's order) as the
    /// destination's committed members, and its current members gain the object. Inverses that
    /// lost it through the delete rules are restored by their own records.
    private func restoreInverseMembership(of object: NSManagedObject) {
        let engine = object.engine
        for slot in engine.relationshipSlots {
            guard engine.inverseSlots[slot] != nil else { continue }
            let value = object.values[slot]
            let destinations =
                engine.isRelationshipToMany(slot) ? (value as? ToMany)?.objects ?? [] : [value as? NSManagedObject].compactMap { $0 }
            for destination in destinations where !destination.insertedFlag && destination.faultState != .hollow {
                // The inverse's slot in the destination's own entity (a sub-entity numbers it afresh).
                guard let inverse = engine.inverseSlot(slot, on: destination.engine), destination.engine.isRelationshipToMany(inverse)
                else { continue }
                guard var current = destination.values[inverse] as? ToMany, !current.contains(object) else { continue }
                let unchanged = destination.committedAreValues || Self.same(destination.committedValue(at: inverse), current)
                let stored = ToMany(loadToMany(of: destination, slot: inverse))
                destination.setLoadedValue(stored, at: inverse, onlyOverUnloaded: false)
                if !unchanged {
                    current.insert(object)
                    destination.values[inverse] = current
                }
            }
        }
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

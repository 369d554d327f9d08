#if !canImport(CoreData)
import ModelQuery

/// An object as the context's undo manager last recorded it: whether it was in the context
/// (inserted or registered, not deleted) and its values then (nil: none worth restoring, an
/// object not inserted yet).
struct UndoBaseline {
    let object: NSManagedObject
    let exists: Bool
    let values: ContiguousArray<Any?>?
}

/// What undo changes in the graph: the baselines each recorded undo operation goes back to
/// (``ObjectGraph/undoBaselines``), and objects brought back or taken out by undoing or redoing
/// their insertion or deletion. The context registers the operations with its undo manager and
/// restores the objects' values.
extension ObjectGraph {
    /// Records what each object reported now is, and returns what each was at the previous
    /// report (or, recorded for the first time, its committed values; an inserted object did
    /// not exist): the records an undo operation puts back.
    func advanceUndoBaselines(
        inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>
    ) -> [UndoBaseline] {
        var records: [UndoBaseline] = []
        records.reserveCapacity(inserted.count + updated.count + deleted.count)
        func record(_ object: NSManagedObject, existedBefore: Bool) {
            let key = ObjectIdentifier(object)
            let before =
                undoBaselines[key]
                ?? UndoBaseline(object: object, exists: existedBefore, values: existedBefore ? object.committedCopy : nil)
            undoBaselines[key] = UndoBaseline(object: object, exists: !object.deletedFlag, values: object.valuesCopy)
            records.append(before)
        }
        for object in inserted { record(object, existedBefore: false) }
        for object in updated { record(object, existedBefore: true) }
        for object in deleted { record(object, existedBefore: true) }
        return records
    }

    /// Forgets what the undo manager recorded of the objects (a new undo manager).
    func forgetUndoBaselines() {
        undoBaselines.removeAll()
    }

    /// Forgets the baselines and the revived objects not reported yet (`rollback()`, `reset()`).
    func forgetUndo() {
        undoBaselines.removeAll()
        revivedObjects.removeAll()
    }

    /// Brings a deleted object back: an inserted one is inserted again, a stored one no longer
    /// deleted (and reported inserted by the next change report). Delete rules are not undone
    /// here: the objects they changed are restored by their own records.
    func revive(_ object: NSManagedObject) {
        let key = ObjectIdentifier(object)
        object.deletedFlag = false
        if object.insertedFlag {
            inserted[key] = object
            if object.hasID { register(object) }
        } else {
            deleted.removeValue(forKey: key)
            revivedObjects.append(object)
        }
    }

    /// Takes an object out, as undoing its insertion (or redoing its deletion) does, without
    /// applying delete rules (see ``revive(_:)``).
    func withdraw(_ object: NSManagedObject) {
        let key = ObjectIdentifier(object)
        object.deletedFlag = true
        if object.insertedFlag {
            inserted.removeValue(forKey: key)
            changed.removeValue(forKey: key)
            if object.hasID { registry.removeValue(forKey: ObjectKey(object.id)) }
        } else {
            deleted[key] = object
        }
    }
}
#endif

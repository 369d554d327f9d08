#if !canImport(CoreData)
import ModelQuery

/// What running a recorded undo (or redo) operation does to the graph: each object put back as
/// its record has it. The context runs this on its queue, then sends the objects their snapshot
/// events and processes the changes (which registers the opposite operation).
extension ObjectGraph {
    /// Puts each object back as `records` has it: brought back or taken out when its existence
    /// differs, its values restored where they differ. Objects no longer in the graph (after a
    /// reset, or whose deletion was saved) are left alone. Returns the objects changed, in the
    /// records' order, each with the snapshot events it gets. `loadToMany` reads a to-many's
    /// stored members (from the store, or from a child context's parent).
    func restore(
        _ records: [UndoBaseline], loadToMany: (NSManagedObject, Int) -> [NSManagedObject]
    ) -> [(object: NSManagedObject, events: NSSnapshotEventType)] {
        var changes: [(object: NSManagedObject, events: NSSnapshotEventType)] = []
        for record in records {
            let object = record.object
            guard object.anchor === anchor else { continue }
            var events: NSSnapshotEventType = []
            if record.exists == object.deletedFlag {
                if record.exists {
                    revive(object)
                    restoreInverseMembership(of: object, loadToMany: loadToMany)
                    events.insert(.undoDeletion)
                } else {
                    withdraw(object)
                    events.insert(.undoInsertion)
                }
            }
            if let old = record.values, object.faultState != .hollow {
                let current = object.valuesCopy
                for slot in 0..<min(old.count, current.count) where !Self.sameForUndo(current[slot], old[slot]) {
                    object.storeChange(old[slot], atSlot: slot)
                    events.insert(.undoUpdate)
                }
            }
            if !events.isEmpty { changes.append((object, events)) }
        }
        return changes
    }

    /// Equal slot values; a to-many's members and their order.
    private static func sameForUndo(_ a: Any?, _ b: Any?) -> Bool {
        if let a = a as? ToMany, let b = b as? ToMany { return a.objects.elementsEqual(b.objects, by: ===) }
        return SlotValues.equal(a, b)
    }

    /// Puts a revived object back into the loaded to-many inverses of its destinations that
    /// lack it: a to-many read from the store after the deletion left the deleted object out,
    /// though the store still has it, so it is read again (in the store's order) as the
    /// destination's committed members, and its current members gain the object. Inverses that
    /// lost it through the delete rules are restored by their own records.
    private func restoreInverseMembership(of object: NSManagedObject, loadToMany: (NSManagedObject, Int) -> [NSManagedObject]) {
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
                let unchanged = destination.committedAreValues || Self.sameForUndo(destination.committedValue(at: inverse), current)
                let stored = ToMany(loadToMany(destination, inverse))
                destination.setLoadedValue(stored, at: inverse, onlyOverUnloaded: false)
                if !unchanged {
                    current.insert(object)
                    destination.values[inverse] = current
                }
            }
        }
    }
}
#endif

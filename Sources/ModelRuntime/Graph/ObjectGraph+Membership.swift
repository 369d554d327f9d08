#if !canImport(CoreData)
import ModelQuery

/// Which objects the graph has and how they change: inserting, deleting (with the relationships'
/// delete rules), turning into faults, rolling back and forgetting. The context's public methods
/// of the same names check the queue and their arguments, call these, and make the callbacks and
/// notifications Core Data makes.
extension ObjectGraph {
    // MARK: What the graph has

    var hasChanges: Bool { !inserted.isEmpty || !deleted.isEmpty || changed.values.contains { $0.hasPersistentChangedValues } }
    var insertedObjects: Set<NSManagedObject> { Set(inserted.values) }
    var updatedObjects: Set<NSManagedObject> { Set(changed.values.filter { !$0.insertedFlag && !$0.deletedFlag }) }
    var deletedObjects: Set<NSManagedObject> { Set(deleted.values) }
    /// Inserted objects count as registered whether or not their temporary ID was made yet.
    var registeredObjects: Set<NSManagedObject> { Set(registry.values).union(inserted.values) }

    /// Whether `object` is one of this graph's.
    @inline(__always)
    func contains(_ object: NSManagedObject) -> Bool { object.anchor === anchor }

    func register(_ object: NSManagedObject) {
        registry[ObjectKey(object.id)] = object
    }

    func noteChanged(_ object: NSManagedObject) {
        changed[ObjectIdentifier(object)] = object
    }

    /// Takes `object` out of the changed objects: it has no changes to save (its flag is the
    /// caller's to clear).
    @inline(__always)
    func noteUnchanged(_ object: NSManagedObject) {
        changed.removeValue(forKey: ObjectIdentifier(object))
    }

    // MARK: Inserting and deleting

    /// Makes `object`, in no context, an inserted object of the graph: of `model`'s entity, with
    /// its attributes' default values and empty to-many relationships when it has no stored values.
    func insert(_ object: NSManagedObject, model: Unmanaged<EngineModel>?) {
        model?._withUnsafeGuaranteedRef { object.rebind(to: $0) }
        // The anchor, not `context`: setting that would retain and release the context, whose
        // weak references make both take the slow path.
        object.anchor = anchor
        object.insertedFlag = true
        object.deletedFlag = false
        if !object.hasCommitted {
            let engine = object.engine
            for (slot, value) in engine.writeChecks.defaultValues where object.values[slot] == nil { object.values[slot] = value }
            for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) && !(object.values[slot] is ToMany) {
                object.values[slot] = ToMany()
            }
        }
        inserted[ObjectIdentifier(object)] = object
        // Registered by its temporary ID once one is made (see `NSManagedObject.id`).
        if object.hasID {
            register(object)
        } else if object.insertionNumber == 0 {
            object.insertionNumber = TemporaryIdentity.next()
        }
    }

    /// Deletes `object` at the next save (an inserted one leaves the graph now), applying its
    /// relationships' delete rules now: nullify removes it from its destinations' inverses,
    /// cascade deletes the destinations, deny makes the save fail while destinations remain.
    /// Each object deleted gets `prepareForDeletion()` first.
    func delete(_ object: NSManagedObject) {
        guard contains(object), !object.deletedFlag else { return }
        if object.faultState != .materialized { object.fireFault() }
        object.prepareForDeletion()
        object.deletedFlag = true
        if object.insertedFlag {
            inserted.removeValue(forKey: ObjectIdentifier(object))
            changed.removeValue(forKey: ObjectIdentifier(object))
        } else {
            deleted[ObjectIdentifier(object)] = object
        }
        let engine = object.engine
        for slot in engine.relationshipSlots {
            guard let relationship = engine.properties[slot] as? NSRelationshipDescription else { continue }
            let destinations: [NSManagedObject] =
                engine.isRelationshipToMany(slot)
                ? object.loadedToMany(slot).objects : [object.values[slot] as? NSManagedObject].compactMap { $0 }
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                for destination in destinations {
                    if let inverse = engine.inverseSlot(slot, on: destination.engine) { destination.removeInverse(object, atSlot: inverse) }
                }
            case .cascadeDeleteRule:
                for destination in destinations where !destination.deletedFlag {
                    if let inverse = engine.inverseSlot(slot, on: destination.engine) { destination.removeInverse(object, atSlot: inverse) }
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                break
            }
        }
        if object.insertedFlag, object.hasID { registry.removeValue(forKey: ObjectKey(object.id)) }
    }

    /// Takes an inserted object out of the graph, as if it had never been inserted (a merge
    /// policy dropping a duplicate).
    func discardInserted(_ object: NSManagedObject) {
        guard contains(object), object.insertedFlag else { return }
        inserted.removeValue(forKey: ObjectIdentifier(object))
        if let key = object.registryKey { registry.removeValue(forKey: key) }
        object.insertedFlag = false
        object.anchor = nil
    }

    /// `object` takes `stored` as its committed values (a row as it is now in the store, at
    /// `version`) and `values` as its values (a merge policy's resolution); it is a changed object
    /// where they differ, and an unchanged one where they do not.
    /// When that changes any of its values, it then gets `awake(fromSnapshotEvents: .mergePolicy)`
    /// (Core Data's event for "a change due to conflict resolution during a save operation").
    func rebase(_ object: NSManagedObject, storedValues stored: ContiguousArray<Any?>, values: ContiguousArray<Any?>, version: Int64) {
        let before = object.valuesCopy
        object.take(storedValues: stored, values: values, version: version)
        if object.hasPersistentChangedValues {
            noteChanged(object)
        } else {
            object.changedFlag = false
            object.writtenSlots.removeAll()
            changed.removeValue(forKey: ObjectIdentifier(object))
        }
        if zip(before, values).contains(where: { !SlotValues.equal($0, $1) }) { object.awake(fromSnapshotEvents: .mergePolicy) }
    }

    /// The object registered under `id`, whose row another context's save deleted, leaves the
    /// graph's registry and change tables, deleted and with no changes to save. Returns it (nil:
    /// none was registered).
    func removeDeleted(_ id: NSManagedObjectID) -> NSManagedObject? {
        guard let object = registry.removeValue(forKey: ObjectKey(id)) else { return nil }
        changed.removeValue(forKey: ObjectIdentifier(object))
        deleted.removeValue(forKey: ObjectIdentifier(object))
        object.deletedFlag = true
        object.changedFlag = false
        return object
    }

    // MARK: Faults, rollback and reset

    /// Turns `object` into a fault, its changes discarded: an inserted one is as it was inserted
    /// (its default values), a stored one hollow, loading its row when next used; a deleted one
    /// is no longer deleted. `willTurnIntoFault()` and `didTurnIntoFault()` frame the change.
    func turnIntoFault(_ object: NSManagedObject) {
        if object.insertedFlag {
            object.willTurnIntoFault()
            object.writtenSlots.removeAll()
            object.clearValues()
            let engine = object.engine
            for (slot, value) in engine.writeChecks.defaultValues { object.values[slot] = value }
            for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) { object.values[slot] = ToMany() }
            object.faultState = .fault
            object.didTurnIntoFault()
            return
        }
        if object.deletedFlag {
            deleted.removeValue(forKey: ObjectIdentifier(object))
            object.deletedFlag = false
        }
        object.willTurnIntoFault()
        changed.removeValue(forKey: ObjectIdentifier(object))
        object.changedFlag = false
        object.writtenSlots.removeAll()
        object.clearValues()
        object.faultState = .hollow
        object.didTurnIntoFault()
    }

    /// Discards every unsaved change: inserted objects leave the graph, changed and deleted ones
    /// get their committed values back (`awake(fromSnapshotEvents: .rollback)`) or, never
    /// loaded, become hollow. Returns the objects that left and those put back.
    func rollback() -> (discarded: [NSManagedObject], restored: [NSManagedObject]) {
        let discarded = Array(inserted.values)
        let touched = Array(changed.values) + Array(deleted.values)
        for object in inserted.values {
            if object.hasID { registry.removeValue(forKey: ObjectKey(object.id)) }
            object.anchor = nil
            object.insertedFlag = false
        }
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
        for object in touched where contains(object) {
            object.deletedFlag = false
            object.changedFlag = false
            object.writtenSlots.removeAll()
            if object.hasCommitted {
                object.restoreCommittedValues()
                object.awake(fromSnapshotEvents: .rollback)
            } else {
                object.clearValues()
                object.faultState = .hollow
            }
        }
        return (discarded, touched)
    }

    /// Forgets every object: all leave the graph. Returns the IDs of those that were registered.
    func removeAll() -> [NSManagedObjectID] {
        let removed = registry.values.map(\.id)
        for object in registry.values { object.anchor = nil }
        for object in inserted.values { object.anchor = nil }
        registry.removeAll()
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
        return removed
    }
}
#endif

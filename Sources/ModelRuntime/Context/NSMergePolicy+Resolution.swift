#if !canImport(CoreData)
import ModelQuery

// The built-in policies' resolutions, which `NSMergePolicy`'s `resolve` methods run. They change
// the conflicting objects in their context, as an app's policy would, and the save writes what
// they leave; a save that fails after all puts the context back (see `SaveCheckpoint`).
extension NSMergePolicy {
    // MARK: Optimistic locking

    /// Resolves one optimistic-locking conflict by ``mergeType`` (not the error policy's).
    func resolveOptimisticLocking(_ conflict: NSMergeConflict) {
        let object = conflict.sourceObject
        guard let context = object.context, !object.insertedFlag else { return }
        guard conflict.newVersionNumber != 0, let persisted = conflict.persistedSnapshot else {
            // The row is gone: the object's changes have no row left to go to and are not
            // written (a deleted object's row being gone is no conflict).
            context.graph.markUnwritten(object)
            return
        }
        let version = Int64(conflict.newVersionNumber)
        // A deleted object is deleted whatever the row holds now.
        if object.deletedFlag {
            object.version = version
            return
        }
        if object.faultState == .hollow { _ = context.loadRow(into: object) }
        let row = context.slotValues(persisted, for: object)
        let engine = object.engine
        let local = object.valuesCopy
        let before = object.committedCopy
        var committed = before ?? local
        var merged = local
        for slot in 0..<engine.slotCount {
            guard row.held[slot] else {
                // Rollback drops the object's to-many changes too; the row has no to-manys.
                if mergeType == .rollbackMergePolicyType, engine.isRelationshipToMany(slot), let before { merged[slot] = before[slot] }
                continue
            }
            let stored = row.values[slot]
            committed[slot] = stored
            switch mergeType {
            case .overwriteMergePolicyType:
                break
            case .mergeByPropertyObjectTrumpMergePolicyType:
                if !object.isChanged(slot) { merged[slot] = stored }
            case .mergeByPropertyStoreTrumpMergePolicyType:
                if !object.isChanged(slot) || !SlotValues.equal(stored, before?[slot]) { merged[slot] = stored }
            case .rollbackMergePolicyType, .errorMergePolicyType:
                merged[slot] = stored
            }
        }
        context.graph.rebase(object, storedValues: committed, values: merged, version: version)
    }

    // MARK: Uniqueness constraints

    /// Resolves uniqueness-constraint conflicts by ``mergeType`` (not the error policy's): those
    /// among the objects of the save first, so the objects that leave the context then meet no
    /// stored row.
    func resolveConstraints(_ list: [NSConstraintConflict]) {
        let lastWins = mergeType == .mergeByPropertyObjectTrumpMergePolicyType || mergeType == .overwriteMergePolicyType
        var settled: Set<ObjectIdentifier> = []
        for conflict in list where conflict.databaseObject == nil {
            let objects = conflict.conflictingObjects.filter { $0.context != nil && !$0.deletedFlag }
            guard objects.count > 1, let kept = lastWins ? objects.last : objects.first else { continue }
            for object in objects where object !== kept && object.insertedFlag {
                object.context?.graph.discardInserted(object)
                settled.insert(ObjectIdentifier(object))
            }
        }
        for conflict in list {
            guard let stored = conflict.databaseObject, let object = conflict.conflictingObjects.first, let context = object.context,
                !object.deletedFlag, settled.insert(ObjectIdentifier(object)).inserted
            else { continue }
            if object.insertedFlag {
                adopt(conflict, stored: stored, by: object, in: context)
            } else {
                resolveUpdatedObjectConflict(object, with: stored, in: context)
            }
        }
    }

    /// An inserted object repeating a stored row's values becomes the row's object: it takes the
    /// row's ID and version, and the row's object registered before leaves the context. Its
    /// values are then written over the row: those it set (object-trump) or all of them
    /// (overwrite); under store-trump and rollback it takes the row's values.
    private func adopt(
        _ conflict: NSConstraintConflict, stored: NSManagedObject, by object: NSManagedObject, in context: NSManagedObjectContext
    ) {
        guard stored !== object, let key = stored.objectID.primaryKey, let store = stored.objectID.persistentStore else { return }
        let version = conflict.databaseVersion ?? stored.version
        let row = context.slotValues(conflict.databaseSnapshot ?? [:], for: object)
        context.graph.adopt(stored, by: object, key: key, store: store)
        let engine = object.engine
        let local = object.valuesCopy
        let keepsLocal = mergeType == .mergeByPropertyObjectTrumpMergePolicyType || mergeType == .overwriteMergePolicyType
        var committed = local
        var merged = local
        for slot in 0..<engine.slotCount {
            if row.held[slot] {
                committed[slot] = row.values[slot]
                if !keepsLocal || (local[slot] == nil && mergeType != .overwriteMergePolicyType) { merged[slot] = row.values[slot] }
            } else if engine.isRelationshipToMany(slot) {
                // The row's members are in the store: loaded when read. An object that set none
                // (or a policy keeping the row's values) keeps the row's.
                committed[slot] = ToManyUnloaded.marker
                if !keepsLocal || (local[slot] as? ToMany)?.objects.isEmpty != false { merged[slot] = ToManyUnloaded.marker }
            }
        }
        context.graph.rebase(object, storedValues: committed, values: merged, version: version)
    }

    /// An *updated* object that took a stored row's unique values, resolved as Core Data's
    /// policies resolve it (learned from Core Data's `NSMergePolicy` as published in decompiled
    /// form: which object is deleted, which values move):
    /// - object-trump: the stored object takes the updated object's changed values and its
    ///   relationships, and the updated object is deleted;
    /// - store-trump: the stored object keeps its values and takes the updated object's to-many
    ///   members, and the updated object is deleted;
    /// - overwrite: the updated object takes the stored object's to-many members, and the stored
    ///   object is deleted;
    /// - rollback: the updated object's changes are dropped (`refresh(_:mergeChanges: false)`).
    private func resolveUpdatedObjectConflict(_ updated: NSManagedObject, with stored: NSManagedObject, in context: NSManagedObjectContext)
    {
        guard stored !== updated, stored.context === context, !stored.deletedFlag else { return }
        switch mergeType {
        case .mergeByPropertyObjectTrumpMergePolicyType:
            Self.take(changesOf: updated, into: stored)
            context.delete(updated)
        case .mergeByPropertyStoreTrumpMergePolicyType:
            Self.unionToMany(of: updated, into: stored)
            context.delete(updated)
        case .overwriteMergePolicyType:
            Self.unionToMany(of: stored, into: updated)
            context.delete(stored)
        case .rollbackMergePolicyType:
            context.refresh(updated, mergeChanges: false)
        case .errorMergePolicyType:
            break
        }
    }

    /// The stored object takes the updated object's changed attributes and to-one relationships,
    /// and the members of its to-many relationships (which leave the updated object).
    private static func take(changesOf updated: NSManagedObject, into stored: NSManagedObject) {
        let engine = updated.engine
        guard engine === stored.engine else { return unionToMany(of: updated, into: stored) }
        for slot in 0..<engine.slotCount where updated.isChanged(slot) {
            if engine.isRelationshipToMany(slot) { continue }
            let value = updated.value(atSlot: slot)
            if engine.properties[slot] is NSRelationshipDescription { updated.setValue(nil, atSlot: slot) }
            stored.setValue(value, atSlot: slot)
        }
        unionToMany(of: updated, into: stored)
    }

    /// Adds the members of `source`'s to-many relationships to `target`'s same relationships.
    private static func unionToMany(of source: NSManagedObject, into target: NSManagedObject) {
        let engine = target.engine
        for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) {
            let name = engine.properties[slot].name
            guard let sourceSlot = source.engine.slotsByName[name], source.engine.isRelationshipToMany(sourceSlot) else { continue }
            let moving = source.objects(atSlot: sourceSlot)
            guard !moving.isEmpty else { continue }
            var members = target.objects(atSlot: slot)
            for object in moving where !members.contains(where: { $0 === object }) { members.append(object) }
            target.setValue(members, atSlot: slot)
        }
    }
}

extension NSManagedObjectContext {
    /// A snapshot's values by slot of `object`'s entity, as the object stores them: attributes
    /// in their stored types, to-ones as objects of this context. Slots the snapshot does not hold
    /// (to-many relationships, transient properties, names it lacks) are nil in `values` and
    /// false in `held`.
    fileprivate func slotValues(_ snapshot: [String: Any], for object: NSManagedObject) -> (
        values: ContiguousArray<Any?>, held: [Bool]
    ) {
        let entity = object.engine
        var values = ContiguousArray<Any?>(repeating: nil, count: entity.slotCount)
        var held = [Bool](repeating: false, count: entity.slotCount)
        for slot in 0..<entity.slotCount {
            switch entity.slotKinds[slot] {
            case .attribute(_, _?), .composite, .toOne(_?, _):
                break
            case .attribute(_, nil), .transientRelationship, .toOne(nil, _), .toManyByInverseKey, .toManyByJoinTable:
                continue
            }
            guard let value = snapshot[entity.properties[slot].name] else { continue }
            held[slot] = true
            if case .toOne = entity.slotKinds[slot] {
                values[slot] = (value as? NSManagedObjectID).map { self.object(with: $0) } ?? (value as? NSManagedObject)
            } else {
                values[slot] = object.normalizedAttribute(value, slot: slot)
            }
        }
        return (values, held)
    }
}
#endif

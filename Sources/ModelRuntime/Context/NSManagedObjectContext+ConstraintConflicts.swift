#if !canImport(CoreData)
import Foundation

extension NSManagedObjectContext {
    /// Resolves the uniqueness-constraint conflicts of *updated* objects by the merge policy, in
    /// the context, as Core Data's merge policies do before the save is tried again (learned from
    /// Core Data's `NSMergePolicy`):
    /// - object-trump: the stored object takes the updated object's changed values and its
    ///   relationships, and the updated object is deleted;
    /// - store-trump: the stored object keeps its values and takes the updated object's to-many
    ///   members, and the updated object is deleted;
    /// - overwrite: the updated object takes the stored object's to-many members, and the stored
    ///   object is deleted;
    /// - rollback: the updated object's changes are dropped (`refresh(_:mergeChanges: false)`).
    /// Returns false when there is nothing this can resolve (the error policy, or conflicts of
    /// inserted objects, which the store writer resolves itself).
    func resolveUpdatedObjectConstraintConflicts(_ error: NSError) -> Bool {
        guard error.domain == NSCocoaErrorDomain, error.code == NSManagedObjectConstraintMergeError,
            mergeType != .errorMergePolicyType,
            let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict]
        else { return false }
        var resolved = false
        for conflict in conflicts {
            guard let updated = conflict.conflictingObjects.last, !updated.insertedFlag, !updated.deletedFlag,
                updated.context === self, let stored = conflict.databaseObject, stored !== updated, stored.context === self,
                !stored.deletedFlag
            else { continue }
            switch mergeType {
            case .mergeByPropertyObjectTrumpMergePolicyType:
                take(changesOf: updated, into: stored)
                delete(updated)
            case .mergeByPropertyStoreTrumpMergePolicyType:
                unionToMany(of: updated, into: stored)
                delete(updated)
            case .overwriteMergePolicyType:
                unionToMany(of: stored, into: updated)
                delete(stored)
            case .rollbackMergePolicyType:
                refresh(updated, mergeChanges: false)
            case .errorMergePolicyType:
                continue
            }
            resolved = true
        }
        return resolved
    }

    /// The stored object takes the updated object's changed attributes and to-one relationships,
    /// and the members of its to-many relationships (which leave the updated object).
    private func take(changesOf updated: NSManagedObject, into stored: NSManagedObject) {
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
    private func unionToMany(of source: NSManagedObject, into target: NSManagedObject) {
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
#endif

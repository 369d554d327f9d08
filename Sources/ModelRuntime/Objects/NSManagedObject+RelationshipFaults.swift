#if !canImport(CoreData)
import ModelQuery

/// Core Data's questions about an object's relationships that do not fire a relationship fault:
/// `hasFault(forRelationshipNamed:)`, `objectIDs(forRelationshipNamed:)` and `faultingState`.
extension NSManagedObject {
    /// Core Data's `faultingState`: 0 when the object is fully initialised and not turning into
    /// or out of a fault. Objects here change state within one call on their context's queue, so
    /// no caller ever sees one in between: always 0.
    public final var faultingState: Int { 0 }

    /// Whether the relationship `key` is a fault: its destination not loaded yet. A to-many is a
    /// fault until its objects are read from the store (or the relationship is set); a to-one is
    /// a fault when the object's own row is not loaded or its destination is a fault. Asking
    /// fires no fault. `key` must name a relationship of the object's entity.
    public final func hasFault(forRelationshipNamed key: String) -> Bool {
        let slot = relationshipSlot(named: key, asking: "hasFault(forRelationshipNamed:)")
        if faultState == .hollow { return true }
        let value = storedValue(at: slot)
        if engine.isRelationshipToMany(slot) { return value is ToManyUnloaded }
        return (value as? NSManagedObject)?.isFault ?? false
    }

    /// The IDs of the objects the relationship `key` refers to, in the relationship's order for
    /// an ordered to-many, without loading a to-many that is still a fault (its destinations'
    /// keys are read from the store; the relationship stays a fault). A to-one gives zero or one
    /// ID. Pending changes count: an object added to the relationship and not yet saved has its
    /// temporary ID. `key` must name a relationship of the object's entity.
    public final func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        let slot = relationshipSlot(named: key, asking: "objectIDs(forRelationshipNamed:)")
        if engine.isRelationshipToMany(slot) {
            if faultState != .hollow, let toMany = storedValue(at: slot) as? ToMany { return toMany.objects.map(\.objectID) }
            if insertedFlag { return [] }
            return context?.loadToMany(of: self, slot: slot).map(\.objectID) ?? []
        }
        if faultState == .hollow { fireFault() }
        guard let destination = storedValue(at: slot) as? NSManagedObject else { return [] }
        return [destination.objectID]
    }

    /// The slot of the relationship `key`; a name that is not one of the entity's relationships
    /// is a programming error, as in Core Data (which raises an exception).
    private func relationshipSlot(named key: String, asking method: String) -> Int {
        guard let slot = engine.slotsByName[key], engine.properties[slot] is NSRelationshipDescription else {
            preconditionFailure("\(method): the entity \(entity.name ?? "") has no relationship \"\(key)\"")
        }
        return slot
    }
}
#endif

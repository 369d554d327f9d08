#if !canImport(CoreData)
/// An object's values by slot, read and written in place (``NSManagedObject/values``): reading
/// an object without a state reads nil; writing makes the state and counts as a write of the
/// values (see ``ObjectState/willWrite()``), without marking the slot changed — that is
/// ``NSManagedObject/storeChange(_:atSlot:)``'s job.
struct ObjectValues {
    /// Unretained: a view lives within one expression on its object.
    unowned(unsafe) let object: NSManagedObject

    subscript(slot: Int) -> Any? {
        @inline(__always) get { object.storedValue(at: slot) }
        nonmutating set {
            let cells = object.valueCells()
            cells.willWrite()
            cells.assign(newValue, at: slot)
        }
    }

    var count: Int { object.engine.slotCount }
}

/// Where an object's values stood when `processPendingChanges()` last looked: its state
/// (retained, so no other state can take its place) and the state's generation. The values
/// changed since when either differs.
struct ValuesMark {
    let state: ObjectState?
    let generation: UInt32

    func differs(from other: ValuesMark) -> Bool { state !== other.state || generation != other.generation }
}
#endif

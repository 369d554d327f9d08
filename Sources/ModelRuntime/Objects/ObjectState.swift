#if !canImport(CoreData)
/// What a managed object holds besides its entity and its fault state and flags: its values,
/// committed values, version, ID, context and origin. Kept out of the object so a hollow object
/// of a batched fetch, which has none of it yet, stays at three words of stored properties (see
/// ``NSManagedObject``'s `body`); an object gets its state on its first write of any of it.
///
/// Marked `@exclusivity(unchecked)` for the reasons the object's own fields are: an object and
/// its state are used on their context's queue only.
final class ObjectState {
    /// Values by slot. A to-many slot holds a ``ToMany`` or ``ToMany/unloaded``.
    @exclusivity(unchecked) var values: ContiguousArray<Any?>
    /// The values last read from or written to the store; nil for an object never saved.
    @exclusivity(unchecked) var committed: ContiguousArray<Any?>?
    /// `Z_OPT` of the row the committed values came from.
    @exclusivity(unchecked) var version: Int64 = 0
    @exclusivity(unchecked) var idStorage: NSManagedObjectID?
    /// The object's context's anchor (see ``ContextAnchor``).
    @exclusivity(unchecked) var anchor: ContextAnchor?
    /// Where the object came from: a fetch whose keys make its ID (the object's position in it is
    /// kept by the object) or an insertion without an ID (its insertion number). The two never
    /// meet, so they share one field.
    @exclusivity(unchecked) var origin = Origin.none
    /// Slots written since the values were last committed; see ``ChangedSlots``.
    @exclusivity(unchecked) var writtenSlots = ChangedSlots()

    enum Origin {
        case none
        case fetched(FetchBatches)
        case inserted(number: UInt64)
    }

    init(values: ContiguousArray<Any?>, anchor: ContextAnchor?, origin: Origin) {
        self.values = values
        self.anchor = anchor
        self.origin = origin
    }
}
#endif

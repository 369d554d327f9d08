#if !canImport(CoreData)
/// What a managed object holds besides its entity and its fault state and flags: its values,
/// committed values, version, ID, context and origin. Kept out of the object so a hollow object
/// of a batched fetch, which has none of it yet, stays at three words of stored properties (see
/// ``NSManagedObject``'s `body`); an object gets its state on its first write of any of it.
///
/// One allocation: the fields are the buffer's header and the values, one `Any?` per slot, its
/// tail elements. A fetched or saved object's committed values are its values until one of them
/// is written (``Committed/values``); the first write copies them out, so reading and saving
/// allocate nothing more. Every write of a value advances ``Fields/generation``, which tells
/// `processPendingChanges()` what changed since it last looked.
///
/// Used on its object's context's queue only, like the object.
final class ObjectState: ManagedBuffer<ObjectState.Fields, Any?> {
    struct Fields {
        /// The number of values (the entity's slot count).
        let count: Int
        /// Advanced by every write of a value (wrapping).
        var generation: UInt32 = 0
        /// Slots written since the values were last committed; see ``ChangedSlots``.
        var writtenSlots = ChangedSlots()
        var committed = Committed.none
        /// `Z_OPT` of the row the committed values came from.
        var version: Int64 = 0
        var idStorage: NSManagedObjectID?
        /// The object's context's anchor (see ``ContextAnchor``).
        var anchor: ContextAnchor?
        /// Where the object came from: a fetch whose keys make its ID (the object's position in
        /// it is kept by the object) or an insertion without an ID (its insertion number). The
        /// two never meet, so they share one field.
        var origin: Origin
        /// The results of the fetched properties read since the object was last refreshed or
        /// turned into a fault, by name (see ``NSFetchedPropertyDescription``).
        var fetchedValues: [String: Any]?
    }

    /// The values last read from or written to the store.
    enum Committed {
        /// None: an object never saved.
        case none
        /// The values themselves: none written since they were committed.
        case values
        /// A copy taken when a value was first written after committing.
        case copy(ContiguousArray<Any?>)
    }

    enum Origin {
        case none
        case fetched(FetchBatches)
        case inserted(number: UInt64)
    }

    /// A state of `count` nil values.
    static func make(count: Int, anchor: ContextAnchor?, origin: Origin) -> ObjectState {
        let buffer = create(minimumCapacity: count) { _ in Fields(count: count, anchor: anchor, origin: origin) }
        let state = unsafeDowncast(buffer, to: ObjectState.self)
        // Element by element: the type is known here, so each is a plain store (the generic
        // `initialize(repeating:count:)` and `deinitialize(count:)` go through value witnesses).
        let base = state.base
        for slot in 0..<count { (base + slot).initialize(to: nil) }
        return state
    }

    deinit {
        StoredValueCast.destroy(base, count: fields.pointee.count)
    }

    /// The fields, in place (no exclusivity check: the state is used on one queue).
    @inline(__always)
    var fields: UnsafeMutablePointer<Fields> { withUnsafeMutablePointerToHeader { $0 } }

    /// The first value, in place; the values run for ``Fields/count`` slots.
    @inline(__always)
    var base: UnsafeMutablePointer<Any?> { withUnsafeMutablePointerToElements { $0 } }

    @inline(__always)
    var buffer: UnsafeMutableBufferPointer<Any?> { UnsafeMutableBufferPointer(start: base, count: fields.pointee.count) }

    /// Readies the values for a write: committed values that are the values themselves are
    /// copied out first, and the generation advances.
    @inline(__always)
    func willWrite() { Self.willWrite(fields, base) }

    /// ``willWrite()`` on a state known by its fields and values (see
    /// ``NSManagedObject/valuePointers()``).
    @inline(__always)
    static func willWrite(_ fields: UnsafeMutablePointer<Fields>, _ base: UnsafeMutablePointer<Any?>) {
        if case .values = fields.pointee.committed {
            fields.pointee.committed = .copy(ContiguousArray(UnsafeBufferPointer(start: base, count: fields.pointee.count)))
        }
        fields.pointee.generation &+= 1
    }

    /// Assigns `value` to the initialised `Any?` at `slot`: the old value destroyed as
    /// ``StoredValueCast/destroy(_:)`` does, the new one moved in (a plain assignment goes
    /// through the generic `Optional` witness).
    @inline(__always)
    static func assign(_ value: consuming Any?, to slot: UnsafeMutablePointer<Any?>) {
        StoredValueCast.destroy(slot)
        slot.initialize(to: value)
    }

    /// Writes `value` at `slot` of the values and, where the committed values have that slot
    /// unloaded or are the values themselves, of the committed values too: a to-many loaded
    /// from the store, or a value the store computed.
    func writeCommitted(_ value: Any?, at slot: Int, onlyOverUnloaded: Bool) {
        let fields = self.fields
        fields.pointee.generation &+= 1
        Self.assign(value, to: base + slot)
        guard case .copy(var committed) = fields.pointee.committed else { return }
        if onlyOverUnloaded, !(committed[slot] is ToManyUnloaded) { return }
        fields.pointee.committed = .none
        committed[slot] = value
        fields.pointee.committed = .copy(committed)
    }

    /// Replaces every value with those of `new` (as many), as one write.
    func replaceValues(with new: UnsafeBufferPointer<Any?>) {
        willWrite()
        let base = self.base
        for slot in 0..<min(new.count, fields.pointee.count) { Self.assign(new[slot], to: base + slot) }
    }

    /// Sets every value to nil and drops the committed values.
    func clearValues() {
        fields.pointee.committed = .none
        fields.pointee.fetchedValues = nil
        fields.pointee.generation &+= 1
        let base = self.base
        for slot in 0..<fields.pointee.count { Self.assign(nil, to: base + slot) }
    }

    /// Makes the values the committed values.
    func commit() { fields.pointee.committed = .values }

    /// The committed values as an array (nil for an object never saved).
    var committedArray: ContiguousArray<Any?>? {
        switch fields.pointee.committed {
        case .none: return nil
        case .values: return ContiguousArray(buffer)
        case .copy(let committed): return committed
        }
    }
}
#endif

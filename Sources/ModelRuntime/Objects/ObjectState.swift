#if !canImport(CoreData)
/// What a managed object holds besides its entity and its fault state and flags: its values,
/// committed values, version, ID, context and origin. Kept out of the object so a hollow object
/// of a batched fetch, which has none of it yet, stays at three words of stored properties (see
/// ``NSManagedObject``'s `body`); an object gets its state on its first write of any of it.
///
/// One allocation: the fields are the buffer's header and the values its tail, laid out by the
/// entity's ``ValueLayout`` (typed cells for the common attribute types, an `Any?` for the rest)
/// and read and written through ``ValueCells``. A fetched or saved object's committed values are
/// its values until one of them is written (``Committed/values``); the first write copies them
/// out, so reading and saving allocate nothing more. Every write of a value advances
/// ``Fields/generation``, which tells `processPendingChanges()` what changed since it last looked.
///
/// Used on its object's context's queue only, like the object.
final class ObjectState: ManagedBuffer<ObjectState.Fields, UInt64> {
    struct Fields {
        /// Where the values sit: the cells of their ``ValueLayout``, which are never freed and
        /// tell layouts apart (a plain pointer: reading it costs no reference count).
        let cells: UnsafeMutablePointer<ValueLayout.Cell>
        /// The number of values (the entity's slot count; 0 for a state without values), kept
        /// in 32 bits so it packs with the fields after it.
        fileprivate let slotCount: Int32
        /// ``ValueLayout/hasAnyCells`` and ``ValueLayout/existentialLayoutHolds`` of the layout.
        let hasAnyCells: Bool
        let existentialLayoutHolds: Bool
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

        /// The number of values (the entity's slot count; 0 for a state without values).
        var count: Int { Int(slotCount) }
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

    /// A state of nil values laid out as `shape` says (``ValueLayout/empty``'s for none).
    static func make(shape: ValueLayout.Shape, anchor: ContextAnchor?, origin: Origin) -> ObjectState {
        let buffer = create(minimumCapacity: shape.wordCount) { _ in
            Fields(
                cells: shape.cells, slotCount: shape.count, hasAnyCells: shape.hasAnyCells,
                existentialLayoutHolds: shape.existentialLayoutHolds, anchor: anchor, origin: origin)
        }
        let state = unsafeDowncast(buffer, to: ObjectState.self)
        state.cells.initialize()
        return state
    }

    deinit {
        cells.destroyAll()
    }

    /// The fields, in place (no exclusivity check: the state is used on one queue).
    @inline(__always)
    var fields: UnsafeMutablePointer<Fields> { withUnsafeMutablePointerToHeader { $0 } }

    /// The values, in place: valid while the state lives.
    @inline(__always)
    var cells: ValueCells { withUnsafeMutablePointers { ValueCells(fields: $0, base: UnsafeMutableRawPointer($1)) } }

    /// Readies the values for a write: committed values that are the values themselves are
    /// copied out first, and the generation advances.
    @inline(__always)
    func willWrite() { cells.willWrite() }

    /// Writes `value` at `slot` of the values and, where the committed values have that slot
    /// unloaded or are the values themselves, of the committed values too: a to-many loaded
    /// from the store, or a value the store computed.
    func writeCommitted(_ value: Any?, at slot: Int, onlyOverUnloaded: Bool) {
        let fields = self.fields
        fields.pointee.generation &+= 1
        cells.assign(value, at: slot)
        guard case .copy(var committed) = fields.pointee.committed else { return }
        if onlyOverUnloaded, !(committed[slot] is ToManyUnloaded) { return }
        fields.pointee.committed = .none
        committed[slot] = value
        fields.pointee.committed = .copy(committed)
    }

    /// Replaces every value with those of `new` (as many), as one write.
    func replaceValues(with new: UnsafeBufferPointer<Any?>) {
        let cells = self.cells
        cells.willWrite()
        for slot in 0..<min(new.count, fields.pointee.count) { cells.assign(new[slot], at: slot) }
    }

    /// Sets every value to nil and drops the committed values.
    func clearValues() {
        fields.pointee.committed = .none
        fields.pointee.fetchedValues = nil
        fields.pointee.generation &+= 1
        let cells = self.cells
        for slot in 0..<fields.pointee.count { cells.assign(nil, at: slot) }
    }

    /// Makes the values the committed values.
    func commit() { fields.pointee.committed = .values }

    /// The committed values as an array (nil for an object never saved).
    var committedArray: ContiguousArray<Any?>? {
        switch fields.pointee.committed {
        case .none: return nil
        case .values: return cells.boxedValues()
        case .copy(let committed): return committed
        }
    }
}
#endif

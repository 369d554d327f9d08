#if !canImport(CoreData)
import ModelQuery

/// An object's storage: where its state is (``NSManagedObject/Body``), its values and committed
/// values, flags and place in a fetch. Every pointer and unmanaged reference of an object is
/// handled here; see docs/runtime/Safety.md for why each is sound.
extension NSManagedObject {
    /// Sets the body, releasing the state it held.
    func replaceBody(with new: Body) {
        let old = body
        body = new
        if case .state(let held) = old { held.release() }
    }

    /// The object's state, made on first use (writers of several of its fields take it once).
    /// A state made here to hold fields other than values has room for no values (see
    /// ``valueState``).
    var state: ObjectState {
        @inline(__always) get {
            if case .state(let held) = body { return held.takeUnretainedValue() }
            return makeState(values: false)
        }
    }

    /// The object's state with room for its values, made or grown on first use (writers of
    /// values take this).
    var valueState: ObjectState {
        @inline(__always) get {
            if case .state(let held) = body {
                let state = held.takeUnretainedValue()
                if state.fields.pointee.cells == engine.valueShape.cells { return state }
            }
            return makeState(values: true)
        }
    }

    /// Gives the object `model`'s engine entity of its entity when it has another engine model's:
    /// an object made outside a context, taken by a context whose coordinator reads its stores
    /// through their own layout, or made of another model's entity of the same name (several
    /// models with the same entities in use, a class's `entity()` answering with any of them).
    /// Every engine model of one managed object model has the same slots, so the values stay
    /// where they are; an entity of another model numbers its slots its own way, so the values
    /// move to the slots of the same names (and the object's entity becomes the context's).
    @inline(__always)
    func rebind(to model: EngineModel) {
        if engine.modelSerial != model.serial { rebindElsewhere(to: model) }
    }

    private func rebindElsewhere(to model: EngineModel) {
        guard let entity = model.entity(named: engine.name) else { return }
        // The same entity keeps its values where they are when its slots are laid out alike (as
        // every engine model of one managed object model lays them out).
        if entity.description === engine.description, entity.valueLayout === engine.valueLayout {
            engine = entity
            return
        }
        let old = engine
        let moved = entity.properties.indices.map { slot in
            old.slotsByName[entity.properties[slot].name].flatMap { Self.sameKind(slot, of: entity, $0, of: old) }
        }
        if case .state(let held) = body {
            let previous = held.takeUnretainedValue()
            let fields = previous.fields.pointee
            let hadValues = fields.cells == old.valueShape.cells
            let state = ObjectState.make(
                shape: hadValues ? entity.valueShape : entity.noValuesShape, anchor: fields.anchor,
                origin: fields.origin)
            state.fields.pointee.generation = fields.generation &+ 1
            state.fields.pointee.version = fields.version
            state.fields.pointee.idStorage = fields.idStorage
            if hadValues {
                let previousCells = previous.cells
                let cells = state.cells
                for (slot, from) in moved.enumerated() {
                    if let from { cells.assign(previousCells.value(at: from), at: slot) }
                }
                if let committed = previous.committedArray {
                    state.fields.pointee.committed = .copy(ContiguousArray(moved.map { $0.flatMap { committed[$0] } }))
                }
                state.fields.pointee.writtenSlots.insertAll()
            }
            replaceBody(with: .state(Unmanaged.passRetained(state)))
        }
        engine = entity
        // A temporary ID names the entity: the same number, of the new entity.
        if let id = idStorage, case .temporary(let number) = id.key {
            idStorage = NSManagedObjectID(
                entity: entity.description, rootEntityNumber: entity.rootNumber, key: .temporary(number), store: nil)
        }
    }

    /// `slot` of `entity` when the property at `otherSlot` of `other` (of the same name) is kept
    /// alike: both attributes, or both to-one or both to-many relationships.
    private static func sameKind(_ slot: Int, of entity: EngineEntity, _ otherSlot: Int, of other: EngineEntity) -> Int? {
        let isRelationship = entity.properties[slot] is NSRelationshipDescription
        guard isRelationship == (other.properties[otherSlot] is NSRelationshipDescription),
            entity.isRelationshipToMany(slot) == other.isRelationshipToMany(otherSlot)
        else { return nil }
        if !isRelationship, case .attribute(let type, _) = entity.slotKinds[slot],
            case .attribute(let otherType, _) = other.slotKinds[otherSlot],
            type != otherType
        {
            return nil
        }
        return otherSlot
    }

    /// The values of ``valueState`` (made first when needed), without retaining the state:
    /// valid while the object keeps it, that is until the object's state is replaced. Writers
    /// of values use these, so a write costs no reference count.
    @inline(__always)
    func valueCells() -> ValueCells {
        if case .state(let held) = body {
            let cells = held._withUnsafeGuaranteedRef { $0.cells }
            if cells.fields.pointee.cells == engine.valueShape.cells { return cells }
        }
        return makeState(values: true).cells
    }

    /// The values of the object's state when it has them, without retaining the state (see
    /// ``valueCells()``); nil for an object whose values are all nil because it has no state
    /// with room for them.
    @inline(__always)
    func cellsIfAny() -> ValueCells? {
        guard case .state(let held) = body else { return nil }
        let cells = held._withUnsafeGuaranteedRef { $0.cells }
        return cells.fields.pointee.cells == engine.valueShape.cells ? cells : nil
    }

    /// Makes the state: a hollow object's in its fetch's context, else one in `bareAnchor`'s;
    /// with `values`, with room for the values (a state without that room, which an object
    /// referred to but not loaded has, is replaced by one with it, fields kept).
    @inline(never)
    func makeState(values: Bool, bareAnchor: ContextAnchor? = nil) -> ObjectState {
        let shape = values ? engine.valueShape : engine.noValuesShape
        let state: ObjectState
        switch body {
        case .hollow(let batches):
            state = ObjectState.make(shape: shape, anchor: batches.anchor, origin: .fetched(batches))
        case .bare:
            state = ObjectState.make(shape: shape, anchor: bareAnchor, origin: .none)
        case .state(let held):
            let old = held.takeUnretainedValue().fields.pointee
            state = ObjectState.make(shape: shape, anchor: old.anchor, origin: old.origin)
            let fields = state.fields
            fields.pointee.generation = old.generation &+ 1
            fields.pointee.writtenSlots = old.writtenSlots
            fields.pointee.version = old.version
            fields.pointee.idStorage = old.idStorage
            fields.pointee.fetchedValues = old.fetchedValues
        // Without values there are no committed values to carry over.
        }
        replaceBody(with: .state(Unmanaged.passRetained(state)))
        return state
    }

    /// Gives a bare object a state in `anchor`'s context without room for values: an object
    /// referred to (a to-one's destination, `object(with:)`) whose row is not read yet.
    func adoptWithoutValues(_ anchor: ContextAnchor) {
        if case .bare = body { _ = makeState(values: false, bareAnchor: anchor) } else { self.anchor = anchor }
    }

    /// Whether the object has a state of its own (for tests of the layout).
    var hasState: Bool {
        if case .state = body { return true }
        return false
    }

    /// Values by slot, read and written in place. A to-many slot holds a ``ToMany`` or
    /// ``ToMany/unloaded``. An object without a state reads nil values; writing makes its state.
    var values: ObjectValues {
        @inline(__always) get { ObjectValues(object: self) }
    }
    /// The value at `slot`, read in place (nil for an object without values).
    @inline(__always)
    func storedValue(at slot: Int) -> Any? {
        cellsIfAny()?.value(at: slot)
    }
    /// A copy of the values.
    var valuesCopy: ContiguousArray<Any?> { cellsIfAny()?.boxedValues() ?? engine.emptyValues }
    /// Whether the object has committed values (read from or written to the store).
    var hasCommitted: Bool {
        guard case .state(let held) = body else { return false }
        return held._withUnsafeGuaranteedRef { state -> Bool in
            if case .none = state.fields.pointee.committed { return false }
            return true
        }
    }
    /// Whether the committed values are the values themselves: none written since committed.
    var committedAreValues: Bool {
        guard case .state(let held) = body else { return false }
        return held._withUnsafeGuaranteedRef { state -> Bool in
            if case .values = state.fields.pointee.committed { return true }
            return false
        }
    }
    /// The committed value at `slot`; nil when unset or without committed values.
    func committedValue(at slot: Int) -> Any? {
        guard case .state(let held) = body else { return nil }
        return held._withUnsafeGuaranteedRef { state -> Any? in
            switch state.fields.pointee.committed {
            case .none: return nil
            case .values: return state.cells.value(at: slot)
            case .copy(let committed): return committed[slot]
            }
        }
    }
    /// The values last read from or written to the store, as an array; nil for an object never
    /// saved.
    var committedCopy: ContiguousArray<Any?>? {
        guard case .state(let held) = body else { return nil }
        return held._withUnsafeGuaranteedRef { $0.committedArray }
    }
    /// Makes the current values the committed ones.
    func commitValues() { valueState.commit() }
    /// Makes the object unchanged, its current values the committed ones (as a save leaves it).
    func settleValues() {
        changedFlag = false
        writtenSlots.removeAll()
        commitValues()
    }
    /// Sets `value` at `slot`, in the committed values too where they have it unloaded (a
    /// to-many loaded from the store) or, with `onlyOverUnloaded` false, wherever there are
    /// committed values (a value the store computed).
    func setLoadedValue(_ value: Any?, at slot: Int, onlyOverUnloaded: Bool) {
        valueState.writeCommitted(value, at: slot, onlyOverUnloaded: onlyOverUnloaded)
    }
    /// Every value back to nil, without committed values (an object turned into a fault).
    func clearValues() {
        guard case .state(let held) = body else { return }
        held._withUnsafeGuaranteedRef { $0.clearValues() }
    }
    /// Replaces the values with `new` (one per slot), as one write.
    func replaceValues(with new: ContiguousArray<Any?>) {
        new.withUnsafeBufferPointer { valueState.replaceValues(with: $0) }
    }
    /// The object's committed values become `stored` (a row as it is now in the store, at
    /// `version`) and its values `values`, every slot marked written; it is materialized and
    /// marked changed (``ObjectGraph/rebase(_:storedValues:values:version:)`` settles that).
    func take(storedValues stored: ContiguousArray<Any?>, values new: ContiguousArray<Any?>, version: Int64) {
        let state = valueState
        new.withUnsafeBufferPointer { state.replaceValues(with: $0) }
        state.fields.pointee.committed = .copy(stored)
        state.fields.pointee.version = version
        state.fields.pointee.writtenSlots.insertAll()
        if faultState != .materialized { faultState = .materialized }
        changedFlag = true
    }
    /// Puts the committed values back (rollback); an object without them gets nil values.
    func restoreCommittedValues() {
        guard case .state(let held) = body else { return }
        held._withUnsafeGuaranteedRef { state in
            switch state.fields.pointee.committed {
            case .none: state.clearValues()
            case .values: break
            case .copy(let committed):
                committed.withUnsafeBufferPointer { state.replaceValues(with: $0) }
                state.commit()
            }
        }
    }
    /// What tells whether the values changed since: the state and its generation.
    var valuesMark: ValuesMark {
        guard case .state(let held) = body else { return ValuesMark(state: nil, generation: 0) }
        return ValuesMark(state: held.takeUnretainedValue(), generation: held._withUnsafeGuaranteedRef { $0.fields.pointee.generation })
    }
    /// `Z_OPT` of the row the committed values came from.
    var version: Int64 {
        get {
            if case .state(let held) = body { return held._withUnsafeGuaranteedRef { $0.fields.pointee.version } }
            return 0
        }
        set {
            if newValue == 0, !hasState { return }
            state.fields.pointee.version = newValue
        }
    }
    var insertedFlag: Bool {
        get { flags & Flag.inserted != 0 }
        set { setFlag(Flag.inserted, newValue) }
    }
    var deletedFlag: Bool {
        get { flags & Flag.deleted != 0 }
        set { setFlag(Flag.deleted, newValue) }
    }
    /// The object's row was gone when its fault fired (see +InaccessibleFaults).
    var inaccessibleFlag: Bool {
        get { flags & Flag.inaccessible != 0 }
        set { setFlag(Flag.inaccessible, newValue) }
    }
    var changedFlag: Bool {
        get { flags & Flag.changed != 0 }
        set { setFlag(Flag.changed, newValue) }
    }
    /// Slots written since the values were last committed; see ``ChangedSlots``.
    var writtenSlots: ChangedSlots {
        get {
            if case .state(let held) = body { return held._withUnsafeGuaranteedRef { $0.fields.pointee.writtenSlots } }
            return ChangedSlots()
        }
        set {
            if newValue.isEmpty, !hasState { return }
            state.fields.pointee.writtenSlots = newValue
        }
    }

    private enum Flag {
        static let inserted: UInt8 = 1
        static let deleted: UInt8 = 2
        static let inaccessible: UInt8 = 4
        static let changed: UInt8 = 8
    }

    @inline(__always)
    private func setFlag(_ flag: UInt8, _ on: Bool) {
        if on { flags |= flag } else { flags &= ~flag }
    }

    /// The fetch whose keys make the object's ID: a batched fetch that loads its row, or the
    /// keys of an ordinary fetch.
    var batches: FetchBatches? {
        switch body {
        case .hollow(let batches): return batches
        case .state(let held):
            return held._withUnsafeGuaranteedRef { state -> FetchBatches? in
                if case .fetched(let batches) = state.fields.pointee.origin { return batches }
                return nil
            }
        case .bare: return nil
        }
    }
    /// When the object was inserted: a number from ``TemporaryIdentity``, which its temporary ID
    /// takes when made; 0 for an object inserted with an ID already, or never inserted.
    var insertionNumber: UInt64 {
        get {
            guard case .state(let held) = body else { return 0 }
            return held._withUnsafeGuaranteedRef { state -> UInt64 in
                if case .inserted(let number) = state.fields.pointee.origin { return number }
                return 0
            }
        }
        set { state.fields.pointee.origin = .inserted(number: newValue) }
    }

    /// Notes the batched fetch that loads the object's row and the object's position in it.
    func setBatches(_ batches: FetchBatches, position: Int32) {
        if case .hollow = body {
            replaceBody(with: .hollow(batches))
        } else {
            state.fields.pointee.origin = .fetched(batches)
        }
        batchPosition = position
    }

    /// Makes the object a hollow one of the batched fetch `batches` at `position`, with no state
    /// (a new object of the fetch, in the fetch's context).
    func makeHollow(in batches: FetchBatches, position: Int32) {
        replaceBody(with: .hollow(batches))
        batchPosition = position
        faultState = .hollow
    }

    /// Turns the object, unchanged and of the batched fetch `batches`, back into a hollow fault,
    /// dropping its state when the fetch can make it again (its ID from the fetch's keys, its
    /// context the fetch's).
    func releaseRow(of batches: FetchBatches) {
        faultState = .hollow
        guard case .state(let held) = body else { return }
        let state = held.takeUnretainedValue()
        let fields = state.fields
        if fields.pointee.anchor === batches.anchor, batches.anchor != nil,
            fields.pointee.idStorage.map({ $0.storeNumber == batches.storeNumber && $0.primaryKey == batches.keys[Int(batchPosition)] })
                ?? true
        {
            replaceBody(with: .hollow(batches))
        } else {
            state.clearValues()
        }
    }
}
#endif

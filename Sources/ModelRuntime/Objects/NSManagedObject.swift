#if !canImport(CoreData)
import Foundation

/// An object of a managed object context (`NSManagedObject`). Its values live in a flat array
/// indexed by the entity's slots (see ``slot(forKey:)-type.method``); generated subclasses read and write
/// them by slot, so a property access does no string-keyed lookup.
///
/// The object's stored state is marked `@exclusivity(unchecked)`: an object is used on its
/// context's queue only, as in Core Data, and the runtime's own accesses never overlap, so the
/// dynamic exclusivity checks (a thread-local access set updated on every access, about a tenth
/// of a fetch that reads every attribute) guard nothing here.
///
/// `init(entity:insertInto:)` is `required` here (Core Data's is a plain designated initialiser)
/// because the context makes fetched objects of the entity's class through it; `init(context:)`
/// is `required` so that `Self(context:)` compiles, as it does against Core Data (whose
/// Objective-C initialisers may be called through `Self`).
open class NSManagedObject: NSObject, NSFetchRequestResult, KeyValueReadable, PredicateComparableValue {
    enum FaultState {
        /// No values: reading a property loads the row.
        case hollow
        /// Values present from the fetch that made the object, not yet accessed.
        case fault
        /// Values accessed.
        case materialized
    }

    /// The entity's engine data; its description is the object's entity (not kept separately).
    /// Set once when the object is made; an object made outside a context is given its
    /// coordinator's engine entity when a context takes it (``rebind(to:)``).
    @exclusivity(unchecked) private(set) var engine: EngineEntity
    private var entityDescription: NSEntityDescription { engine.description }

    /// The object's stored properties are three words, so an object is allocated in 48 bytes
    /// (40 requested; a hollow object of a batched fetch costs that and nothing more): the
    /// entity, the ``Body`` and a word with the position in a fetch's keys, the fault state and
    /// the flags, which the hot checks read without a dereference.
    @exclusivity(unchecked) private var body = Body.bare
    /// The object's position in ``batches`` (meaningless without).
    @exclusivity(unchecked) private(set) var batchPosition: Int32 = 0
    @exclusivity(unchecked) var faultState: FaultState = .materialized
    @exclusivity(unchecked) private var flags: UInt8 = 0

    /// Where the object's state is.
    private enum Body {
        /// No state yet: every field at its default (no values, no ID, no context).
        case bare
        /// No state yet, in a batched fetch: as `bare`, but of the fetch (which makes the ID from
        /// its keys) and in the fetch's context. Releasing a batch turns its unchanged objects
        /// back into this.
        case hollow(FetchBatches)
        /// The object's own state, held by one reference the object retains and releases
        /// itself (``replaceBody(with:)``, `deinit`), so reading it costs no reference count.
        case state(Unmanaged<ObjectState>)
    }

    /// Sets the body, releasing the state it held.
    private func replaceBody(with new: Body) {
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
                if state.fields.pointee.count == engine.slotCount { return state }
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
        if entity.description === engine.description {
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
            let hadValues = fields.count == old.slotCount
            let state = ObjectState.make(count: hadValues ? entity.slotCount : 0, anchor: fields.anchor, origin: fields.origin)
            state.fields.pointee.generation = fields.generation &+ 1
            state.fields.pointee.version = fields.version
            state.fields.pointee.idStorage = fields.idStorage
            if hadValues {
                for (slot, from) in moved.enumerated() {
                    if let from { ObjectState.assign(previous.base[from], to: state.base + slot) }
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

    /// The fields and values of ``valueState`` (made first when needed), without retaining the
    /// state: valid while the object keeps it, that is until the object's state is replaced.
    /// Writers of values use these, so a write costs no reference count.
    @inline(__always)
    func valuePointers() -> (fields: UnsafeMutablePointer<ObjectState.Fields>, base: UnsafeMutablePointer<Any?>) {
        if case .state(let held) = body {
            let pointers = held._withUnsafeGuaranteedRef { ($0.fields, $0.base) }
            if pointers.0.pointee.count == engine.slotCount { return pointers }
        }
        let state = makeState(values: true)
        return (state.fields, state.base)
    }

    /// Makes the state: a hollow object's in its fetch's context, else one in `bareAnchor`'s;
    /// with `values`, with room for the values (a state without that room, which an object
    /// referred to but not loaded has, is replaced by one with it, fields kept).
    @inline(never)
    private func makeState(values: Bool, bareAnchor: ContextAnchor? = nil) -> ObjectState {
        let count = values ? engine.slotCount : 0
        let state: ObjectState
        switch body {
        case .hollow(let batches):
            state = ObjectState.make(count: count, anchor: batches.anchor, origin: .fetched(batches))
        case .bare:
            state = ObjectState.make(count: count, anchor: bareAnchor, origin: .none)
        case .state(let held):
            let old = held.takeUnretainedValue().fields.pointee
            state = ObjectState.make(count: count, anchor: old.anchor, origin: old.origin)
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

    private(set) var idStorage: NSManagedObjectID? {
        get {
            if case .state(let held) = body { return held._withUnsafeGuaranteedRef { $0.fields.pointee.idStorage } }
            return nil
        }
        set {
            if newValue == nil, !hasState { return }
            state.fields.pointee.idStorage = newValue
        }
    }
    /// The object's ID, made on first use: a fetched object's permanent ID from its fetch's key
    /// list (``batches``), else a temporary one (numbered by the object's ``insertionNumber``
    /// when it has one). Objects made from a key alone (a to-one's destination, `object(with:)`)
    /// get their permanent ID at once; inserted objects nobody asks for before they are saved
    /// never make a temporary one. An inserted object is registered in its context under its
    /// temporary ID when the ID is made.
    var id: NSManagedObjectID {
        get {
            if let idStorage { return idStorage }
            let made: NSManagedObjectID
            if let batches {
                made = batches.objectID(at: Int(batchPosition), entity: engine)
            } else {
                let number = insertionNumber != 0 ? insertionNumber : TemporaryIdentity.next()
                made = NSManagedObjectID(
                    entity: entityDescription, rootEntityNumber: engine.rootNumber, key: .temporary(number), store: nil)
            }
            idStorage = made
            if insertedFlag, let context { context.register(self) }
            return made
        }
        set { idStorage = newValue }
    }

    /// The store and primary key of the object's row, without making its ID; nil until saved.
    var rowLocation: (store: NSPersistentStore, key: Int64)? {
        if let idStorage {
            guard let store = idStorage.persistentStore, let key = idStorage.primaryKey else { return nil }
            return (store, key)
        }
        if let batches, let store = batches.store { return (store, batches.keys[Int(batchPosition)]) }
        return nil
    }
    /// The primary key of the object's row, without making its ID (``rowLocation`` without the
    /// store): writing a save's rows asks this for every object and every to-one destination, so
    /// objects saved for the first time need no ID object unless someone asks for their
    /// `objectID`.
    var rowKey: Int64? {
        if let idStorage { return idStorage.primaryKey }
        if let batches { return batches.keys[Int(batchPosition)] }
        return nil
    }
    /// The ``NSPersistentStore/registryNumber`` of the object's store, without making its ID; 0
    /// while it has none.
    var storeNumber: UInt32 { idStorage?.storeNumber ?? batches?.storeNumber ?? 0 }
    /// Whether the object has an ID yet, or a fetch to make its permanent one from (either way it
    /// may be registered).
    var hasID: Bool { idStorage != nil || batches != nil }
    /// The order new rows get their keys in: insertion order.
    var insertionOrder: UInt64 { insertionNumber != 0 ? insertionNumber : (idStorage?.insertionNumber ?? 0) }
    /// The object's context, through the context's ``ContextAnchor``: the object holds the
    /// anchor strongly (a plain reference count) and the anchor holds the context weakly, so
    /// setting the context does not form a weak reference per object.
    var context: NSManagedObjectContext? {
        get { anchor?.context }
        set { anchor = newValue?.anchor }
    }
    var anchor: ContextAnchor? {
        get {
            switch body {
            case .state(let held): return held._withUnsafeGuaranteedRef { $0.fields.pointee.anchor }
            case .hollow(let batches): return batches.anchor
            case .bare: return nil
            }
        }
        set {
            switch body {
            case .state(let held): held._withUnsafeGuaranteedRef { $0.fields.pointee.anchor = newValue }
            case .hollow(let batches): if batches.anchor !== newValue { state.fields.pointee.anchor = newValue }
            case .bare: if newValue != nil { _ = makeState(values: true, bareAnchor: newValue) }
            }
        }
    }
    /// Values by slot, read and written in place. A to-many slot holds a ``ToMany`` or
    /// ``ToMany/unloaded``. An object without a state reads the entity's shared all-nil values;
    /// writing makes its state.
    var values: ObjectValues {
        @inline(__always) get { ObjectValues(object: self) }
    }
    /// Runs `read` on the values without retaining the state (the hot reads).
    @inline(__always)
    func withValues<R>(_ read: (UnsafeBufferPointer<Any?>) -> R) -> R {
        if case .state(let held) = body, held._withUnsafeGuaranteedRef({ $0.fields.pointee.count }) == engine.slotCount {
            return held._withUnsafeGuaranteedRef { read(UnsafeBufferPointer($0.buffer)) }
        }
        return engine.emptyValues.withUnsafeBufferPointer(read)
    }
    /// A copy of the values.
    var valuesCopy: ContiguousArray<Any?> { withValues { ContiguousArray($0) } }
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
            case .values: return state.base[slot]
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

    /// Makes an object of `entity`, inserted into `context` when one is given.
    ///
    /// The entity is borrowed (`__shared`), not consumed: the object keeps its entity through its
    /// engine data, so the caller need not retain the description for the call (an entity is
    /// weakly referenced by its properties, so each retain and release of it takes the slow
    /// side-table path). Subclasses override the initialiser as usual.
    public required init(entity: __shared NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        // The context offers the entity's engine data when it makes the object (of the class
        // `ClassRegistry` gave it, which need not be noted again).
        if let offered = EngineHandoff.take(for: entity) {
            engine = offered
            super.init()
        } else {
            // The engine entity of the context's coordinator (stores read through their own
            // layout have their own), else the model's.
            let coordinatorEntity = context?.coordinatorModel?._withUnsafeGuaranteedRef { $0.entity(for: entity) }
            guard let found = coordinatorEntity ?? entity.managedObjectModel.flatMap({ EngineModel.of($0).entity(for: entity) }) else {
                preconditionFailure("The entity '\(entity.name ?? "")' belongs to no managed object model")
            }
            engine = found
            super.init()
            ClassRegistry.note(type(of: self), for: entity)
        }
        if let context { context.insert(self) }
    }

    deinit {
        // The object leaves its registry: by position in the fetch that lists it, or from the
        // table. Fields are read in place (the state borrowed), since every object passes here.
        switch body {
        case .bare:
            return
        case .hollow(let batches):
            let position = Int(batchPosition)
            if let registry = batches.registrySlots {
                registry.forget(self, key: batches.key(at: position, root: engine.rootNumber), page: batches, position: position)
            } else if let context = batches.anchor?.context {
                context.registry.forget(self, key: batches.key(at: position, root: engine.rootNumber))
            }
        case .state(let held):
            held._withUnsafeGuaranteedRef { state in
                let fields = state.fields
                if case .fetched(let batches) = fields.pointee.origin, let registry = batches.registrySlots {
                    let position = Int(batchPosition)
                    let key = fields.pointee.idStorage.map(ObjectKey.init) ?? batches.key(at: position, root: engine.rootNumber)
                    registry.forget(self, key: key, page: batches, position: position)
                } else if let id = fields.pointee.idStorage, let context = fields.pointee.anchor?.context {
                    context.registry.forget(self, key: ObjectKey(id))
                } else if case .fetched(let batches) = fields.pointee.origin, let context = fields.pointee.anchor?.context {
                    context.registry.forget(self, key: batches.key(at: Int(batchPosition), root: engine.rootNumber))
                }
            }
            held.release()
        }
    }

    /// The key the object is registered under in its context, without making its ID.
    var registryKey: ObjectKey? {
        if let idStorage { return ObjectKey(idStorage) }
        if let batches { return batches.key(at: Int(batchPosition), root: engine.rootNumber) }
        return nil
    }

    // MARK: Save checkpoints

    /// Everything of the object a save that fails after resolving conflicts puts back (see
    /// ``SaveCheckpoint``): its state object itself, with a copy of its fields and values, so the
    /// object gets back the very state it had (its ``valuesMark`` as before, so the changes the
    /// context last reported stay reported), and its fault state, flags and place in a fetch.
    struct SavedState {
        fileprivate enum Kind {
            case bare
            case hollow(FetchBatches)
            case state(ObjectState, ObjectState.Fields, ContiguousArray<Any?>)
        }

        fileprivate let kind: Kind
        fileprivate let faultState: FaultState
        fileprivate let flags: UInt8
        fileprivate let batchPosition: Int32
    }

    var savedState: SavedState {
        let kind: SavedState.Kind
        switch body {
        case .bare: kind = .bare
        case .hollow(let batches): kind = .hollow(batches)
        case .state(let held):
            let state = held.takeUnretainedValue()
            kind = .state(state, state.fields.pointee, ContiguousArray(state.buffer))
        }
        return SavedState(kind: kind, faultState: faultState, flags: flags, batchPosition: batchPosition)
    }

    /// Puts back what ``savedState`` saved. The registry is the caller's to mend.
    func restore(_ saved: SavedState) {
        switch saved.kind {
        case .bare:
            replaceBody(with: .bare)
        case .hollow(let batches):
            replaceBody(with: .hollow(batches))
        case .state(let state, let fields, let values):
            state.fields.pointee = fields
            let base = state.base
            for slot in 0..<min(fields.count, values.count) { ObjectState.assign(values[slot], to: base + slot) }
            var current: ObjectState?
            if case .state(let held) = body { current = held.takeUnretainedValue() }
            if current !== state { replaceBody(with: .state(Unmanaged.passRetained(state))) }
        }
        faultState = saved.faultState
        flags = saved.flags
        batchPosition = saved.batchPosition
    }

    /// Makes an object of the entity whose class is the receiver's class, inserted into `context`.
    public required convenience init(context moc: NSManagedObjectContext) {
        guard let entity = ClassRegistry.entity(for: Self.self, in: moc.persistentStoreCoordinator?.managedObjectModel) else {
            preconditionFailure("No entity of the context's model has the class \(String(describing: Self.self))")
        }
        self.init(entity: entity, insertInto: moc)
    }

    /// The entity whose class is the receiver, from the models of the coordinators in use.
    /// The entity this subclass represents, in the models in use. Core Data allows it only on a
    /// subclass that represents a single entity; on the base class (which every entity without a
    /// class of its own shares), or a class no model in use names, it logs an error and returns
    /// no entity, which Swift code reads as a description without a name.
    open class func entity() -> NSEntityDescription {
        if self != NSManagedObject.self, let entity = ClassRegistry.entity(for: self, in: nil) { return entity }
        FileHandle.standardError.write(
            Data(
                "CoreData: error: +[\(String(describing: self)) entity] Failed to find a unique match for an NSEntityDescription to a managed object subclass\n"
                    .utf8))
        return NSEntityDescription()
    }

    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        NSFetchRequest<NSFetchRequestResult>(entityName: entity().name ?? "")
    }

    /// Identity, as Core Data's objects compare (one object per row in a context): equal only
    /// to itself, hashed by address. Cheaper than `NSObject`'s (a dynamic cast per comparison),
    /// which matters for the sets of objects every change and save notification carries.
    open override func isEqual(_ object: Any?) -> Bool {
        // An `Any` holding a class instance keeps the reference in its first word; a match is
        // confirmed by a cast (another value, or nil, could hold the same bits).
        let word = withUnsafeBytes(of: object) { $0.load(as: UInt.self) }
        guard word == UInt(bitPattern: Int(bitPattern: ObjectIdentifier(self))) else { return false }
        return (object as? NSManagedObject) === self
    }

    open override var hash: Int { Int(bitPattern: ObjectIdentifier(self)) }

    open var entity: NSEntityDescription { entityDescription }
    open var objectID: NSManagedObjectID { id }
    open var managedObjectContext: NSManagedObjectContext? { context }

    open var isInserted: Bool { insertedFlag && !deletedFlag }
    open var isUpdated: Bool { changedFlag && !insertedFlag && !deletedFlag }
    open var isDeleted: Bool { deletedFlag || inaccessibleFlag }
    open var isFault: Bool { faultState != .materialized }
    open var hasChanges: Bool { insertedFlag || deletedFlag || changedFlag }
    /// Core Data's `hasPersistentChangedValues`.
    open var hasPersistentChangedValues: Bool {
        guard hasChanges else { return false }
        if !hasCommitted { return (0..<engine.slotCount).contains { isChanged($0) } }
        return writtenSlots.slots(below: engine.slotCount).contains { isChanged($0) }
    }

    // MARK: Life cycle hooks

    open func awakeFromInsert() {}
    open func awakeFromFetch() {}
    open func prepareForDeletion() {}
    open func willSave() {}
    open func didSave() {}
    open func willTurnIntoFault() {}
    open func didTurnIntoFault() {}
    /// Called after the context put back several of the object's values at once: an undo or
    /// redo (``NSSnapshotEventType/undoUpdate``, ``NSSnapshotEventType/undoDeletion``,
    /// ``NSSnapshotEventType/undoInsertion``) or a rollback (``NSSnapshotEventType/rollback``).
    /// Override it to recompute what the object derives from its values.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}

    // MARK: Key-value access

    /// The slot of the property named `key` for objects of the receiver's entity.
    public final func slot(forKey key: String) -> Int? { engine.slotsByName[key] }

    open func value(forKey key: String) -> Any? {
        guard let slot = engine.slotsByName[key] else { return fetchedPropertyValue(forKey: key) }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        return KeyValueBoxing.boxed(publicValue(atSlot: slot))
    }

    open func setValue(_ value: Any?, forKey key: String) {
        guard let slot = engine.slotsByName[key] else {
            preconditionFailure("the entity \(entityDescription.name ?? "") is not key value coding-compliant for the key \"\(key)\"")
        }
        willChangeValue(forKey: key)
        setValue(value, atSlot: slot)
        didChangeValue(forKey: key)
    }

    open func primitiveValue(forKey key: String) -> Any? {
        guard let slot = engine.slotsByName[key] else { return nil }
        return KeyValueBoxing.boxed(publicValue(atSlot: slot))
    }

    open func setPrimitiveValue(_ value: Any?, forKey key: String) {
        guard let slot = engine.slotsByName[key] else { return }
        setPrimitiveValue(value, atSlot: slot)
    }

    /// Fires the fault: the first access of a fault materialises its values.
    open func willAccessValue(forKey key: String?) {
        if faultState != .materialized { fireFault() }
    }

    open func didAccessValue(forKey key: String?) {}
    open func willChangeValue(forKey key: String) {
        if faultState != .materialized { fireFault() }
    }
    open func didChangeValue(forKey key: String) {}

    open func value(forKeyPath keyPath: String) -> Any? {
        KeyPathReader.value(at: KeyPathReader.components(keyPath), of: self)
    }

    /// The to-many relationship `key` as a live `NSMutableSet`: changes made through it change
    /// the relationship and its inverse (see `ToManyMutableSet`).
    open func mutableSetValue(forKey key: String) -> NSMutableSet {
        guard let slot = engine.slotsByName[key], engine.isRelationshipToMany(slot) else {
            preconditionFailure("the entity \(entity.name ?? "") has no to-many relationship \(key)")
        }
        return ToManyMutableSet(owner: self, slot: slot)
    }

    /// The ordered to-many relationship `key` as a live `NSMutableOrderedSet` (see
    /// `ToManyMutableOrderedSet`).
    open func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        guard let slot = engine.slotsByName[key], engine.isRelationshipToMany(slot) else {
            preconditionFailure("the entity \(entity.name ?? "") has no to-many relationship \(key)")
        }
        return ToManyMutableOrderedSet(owner: self, slot: slot)
    }

    // MARK: Changes

    /// The persistent properties whose values differ from the last saved or fetched ones.
    open func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in candidateChangedSlots where isChanged(slot) {
            result[engine.properties[slot].name] = KeyValueBoxing.boxed(publicValue(atSlot: slot, loading: false)) ?? NSNull()
        }
        return result
    }

    /// The committed values of `keys` (all properties for nil).
    open func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard hasCommitted else { return [:] }
        var result: [String: Any] = [:]
        let slots = keys.map { $0.compactMap { engine.slotsByName[$0] } } ?? Array(0..<engine.slotCount)
        for slot in slots {
            let value = committedValue(at: slot)
            if let toMany = value as? ToMany {
                result[engine.properties[slot].name] = toMany.objects
            } else if value is ToManyUnloaded {
                continue
            } else {
                result[engine.properties[slot].name] = KeyValueBoxing.boxed(value) ?? NSNull()
            }
        }
        return result
    }

    /// The slots that may differ from their committed values: the written ones, or every slot of
    /// an object that has no committed values.
    var candidateChangedSlots: [Int] {
        hasCommitted ? writtenSlots.slots(below: engine.slotCount) : Array(0..<engine.slotCount)
    }

    func isChanged(_ slot: Int) -> Bool {
        guard hasChanges else { return false }
        let committed = hasCommitted
        if committed, !writtenSlots.contains(slot) || committedAreValues { return false }
        if case .transientRelationship = engine.slotKinds[slot] { return false }
        if case .attribute(_, column: nil) = engine.slotKinds[slot] { return false }
        guard committed else { return values[slot] != nil && !(values[slot] is ToManyUnloaded) }
        let before = committedValue(at: slot)
        if !SlotValues.equal(values[slot], before) { return true }
        // An ordered to-many whose members are the same in another order changed too.
        if engine.orderSQL[slot] != nil, let now = values[slot] as? ToMany, let before = before as? ToMany {
            return !now.objects.elementsEqual(before.objects, by: ===)
        }
        return false
    }

    // MARK: Validation

    open func validateForInsert() throws { try Validator.validate(self) }
    open func validateForUpdate() throws { try Validator.validate(self) }
    open func validateForDelete() throws { try Validator.validateDelete(self) }

    /// Validates `value` for the property `key` as a save validates it (a required value,
    /// validation predicates, a relationship's counts), throwing Core Data's validation error.
    /// A key that is no property of the entity is valid. (Core Data's parameter is an
    /// `AutoreleasingUnsafeMutablePointer`, which needs Objective-C; `&value` passes either.)
    open func validateValue(_ value: UnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        try Validator.validate(value.pointee, forKey: key, of: self)
    }

    // MARK: Predicates

    public var predicateComparisonValue: Any { id }
    public var predicateFormatDescription: String { id.description }

    open override var description: String {
        let name = entityDescription.name ?? ""
        if isFault { return "<\(String(describing: type(of: self))): \(id)> (entity: \(name); id: \(id); data: <fault>)" }
        let data = engine.properties.indices.map { slot -> String in
            "\(engine.properties[slot].name) = \(SlotValues.describe(values[slot]))"
        }.joined(separator: "; ")
        return "<\(String(describing: type(of: self))): \(id)> (entity: \(name); id: \(id); data: {\(data)})"
    }
}

/// Why an object's values were put back (`awake(fromSnapshotEvents:)`), with Core Data's values.
public struct NSSnapshotEventType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let undoInsertion = NSSnapshotEventType(rawValue: 1 << 1)
    public static let undoDeletion = NSSnapshotEventType(rawValue: 1 << 2)
    public static let undoUpdate = NSSnapshotEventType(rawValue: 1 << 3)
    public static let rollback = NSSnapshotEventType(rawValue: 1 << 4)
    public static let refresh = NSSnapshotEventType(rawValue: 1 << 5)
    public static let mergePolicy = NSSnapshotEventType(rawValue: 1 << 6)
}
#endif

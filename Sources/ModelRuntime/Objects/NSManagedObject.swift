#if !canImport(CoreData)
import ModelQuery

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
    @exclusivity(unchecked) final var engine: EngineEntity
    var entityDescription: NSEntityDescription { engine.description }

    /// The object's stored properties are three words, so an object is allocated in 48 bytes
    /// (40 requested; a hollow object of a batched fetch costs that and nothing more): the
    /// entity, the ``Body`` and a word with the position in a fetch's keys, the fault state and
    /// the flags, which the hot checks read without a dereference. They are read and written
    /// through the storage members in `NSManagedObject+Storage.swift` and `+Identity.swift`.
    @exclusivity(unchecked) final var body = Body.bare
    /// The object's position in ``batches`` (meaningless without).
    @exclusivity(unchecked) final var batchPosition: Int32 = 0
    @exclusivity(unchecked) var faultState: FaultState = .materialized
    @exclusivity(unchecked) final var flags: UInt8 = 0

    /// Where the object's state is.
    enum Body {
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
                context.graph.registry.forget(self, key: batches.key(at: position, root: engine.rootNumber))
            }
        case .state(let held):
            held._withUnsafeGuaranteedRef { state in
                let fields = state.fields
                if case .fetched(let batches) = fields.pointee.origin, let registry = batches.registrySlots {
                    let position = Int(batchPosition)
                    let key = fields.pointee.idStorage.map(ObjectKey.init) ?? batches.key(at: position, root: engine.rootNumber)
                    registry.forget(self, key: key, page: batches, position: position)
                } else if let id = fields.pointee.idStorage, let context = fields.pointee.anchor?.context {
                    context.graph.registry.forget(self, key: ObjectKey(id))
                } else if case .fetched(let batches) = fields.pointee.origin, let context = fields.pointee.anchor?.context {
                    context.graph.registry.forget(self, key: batches.key(at: Int(batchPosition), root: engine.rootNumber))
                }
            }
            held.release()
        }
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
#endif

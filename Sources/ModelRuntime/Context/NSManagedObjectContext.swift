#if !canImport(CoreData)
import Foundation

// `performAndWait`'s two overloads are Core Data's API.
// swift-format-ignore: AmbiguousTrailingClosureOverload
/// A scratch pad of managed objects (`NSManagedObjectContext`). Each context runs on its queue:
/// the main queue for `.mainQueueConcurrencyType`, a serial queue of its own for
/// `.privateQueueConcurrencyType`; use it inside `perform`/`performAndWait` (or on the main
/// thread for a main-queue context). See docs/runtime/Engine.md ("Concurrency debugging") for how
/// misuse is reported.
open class NSManagedObjectContext: NSObject {
    /// When `perform(schedule:_:)` runs its block (`NSManagedObjectContext.ScheduledTaskType`).
    public enum ScheduledTaskType {
        /// Run at once when already on the context's queue, else enqueue.
        case immediate
        /// Always enqueue.
        case enqueued
    }

    open var concurrencyType: NSManagedObjectContextConcurrencyType { kind }
    private let kind: NSManagedObjectContextConcurrencyType
    let queue: DispatchQueue
    /// Marks a private-queue context's queue with the context's identity.
    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private var coordinator: NSPersistentStoreCoordinator? {
        didSet { coordinatorEngineModels = coordinator?.engineModels }
    }
    /// The engine model of the context's own coordinator, unretained (the coordinator's box holds
    /// it): inserting an object reaches it without retaining the coordinator or the model, both
    /// weakly referenced elsewhere (so each retain and release of them takes the slow path). A
    /// child context's is its root's: its objects are made and saved with the same engine entities.
    var coordinatorModel: Unmanaged<EngineModel>? {
        if let coordinatorEngineModels { return coordinatorEngineModels.unmanaged }
        return parentContext.flatMap { Self.rootCoordinatorModel(of: $0) }
    }

    private static func rootCoordinatorModel(of context: NSManagedObjectContext) -> Unmanaged<EngineModel>? {
        var context = context
        while context.coordinatorEngineModels == nil, let parent = context.parentContext { context = parent }
        return context.coordinatorEngineModels?.unmanaged
    }
    private var coordinatorEngineModels: CoordinatorEngineModel?
    /// The parent context (``parent``), read directly on the hot paths (``parent`` is `open`).
    @exclusivity(unchecked) private(set) var parentContext: NSManagedObjectContext?
    open var name: String?
    open var transactionAuthor: String?
    open var automaticallyMergesChangesFromParent = false {
        didSet { updateParentObservation() }
    }
    /// `NSErrorMergePolicy` until set.
    open var mergePolicy: Any = NSErrorMergePolicy
    open var stalenessInterval: TimeInterval = -1
    /// Whether a fault whose row is gone becomes a deleted object with nil values (true) or
    /// stops the process as Core Data's exception would (see +InaccessibleFaults).
    open var shouldDeleteInaccessibleFaults = true
    /// Whether the context holds every registered object strongly; by default (false, as in
    /// Core Data) it holds only inserted, updated and deleted ones (see `ObjectRegistry`).
    open var retainsRegisteredObjects = false {
        didSet { registry.setRetainsObjects(retainsRegisteredObjects) }
    }

    /// Decides what happens to an inaccessible fault: the default returns
    /// `shouldDeleteInaccessibleFaults`; a subclass may override it, as with Core Data.
    open func shouldHandleInaccessibleFault(
        _ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?
    ) -> Bool {
        shouldDeleteInaccessibleFaults
    }

    open var propagatesDeletesAtEndOfEvent = true
    /// The undo manager the context records its changes in; nil (no undo, the default in Core
    /// Data) or one shared with the rest of the program (see +Undo).
    open var undoManager: UndoManager? {
        didSet { if undoManager !== oldValue { undoManagerChanged() } }
    }
    /// What the undo manager last recorded of each object (see +Undo).
    var undoBaselines: [ObjectIdentifier: UndoBaseline] = [:]
    var undoCheckpointToken: NSObjectProtocol?
    /// Stored objects whose deletion an undo took back since the last
    /// `processPendingChanges()`, which reports them inserted (see +Undo).
    var revivedObjects: [NSManagedObject] = []
    /// The read connections of a context pinned to a query generation (see +QueryGeneration).
    var pinnedReads: PinnedReads?
    /// Objects whose rows the next save checks even when unchanged (`detectConflicts(for:)`).
    var conflictChecked: [ObjectIdentifier: NSManagedObject] = [:]
    /// What the merge policy decided during the save under way (see +SaveConflicts).
    var saveResolution: SaveResolution?
    /// The thread a migration manager runs on while this is one of its contexts: there the context
    /// counts as on its queue, so the manager's policies use its source and destination contexts
    /// without `perform`, as with Core Data's migration manager. Set and cleared on that thread.
    var confinedThread: pthread_t?
    /// Inserted objects given a store by `assign(_:to:)`, until they get their keys.
    var assignedStores: [ObjectIdentifier: NSPersistentStore] = [:]
    open private(set) var userInfo = NSMutableDictionary()
    var parentObserverToken: NSObjectProtocol?

    /// Objects by identity (store, table, key or temporary identity).
    let registry = ObjectRegistry()
    /// What the context's objects refer to it through (see ``ContextAnchor``).
    let anchor = ContextAnchor()
    var inserted: [ObjectIdentifier: NSManagedObject] = [:]
    var deleted: [ObjectIdentifier: NSManagedObject] = [:]
    var changed: [ObjectIdentifier: NSManagedObject] = [:]
    /// What the last `NSManagedObjectContextObjectsDidChange` reported (see +ObjectsDidChange).
    var processedChanges = ProcessedChanges()

    public init(concurrencyType ct: NSManagedObjectContextConcurrencyType) {
        kind = ct
        switch ct {
        case .mainQueueConcurrencyType: queue = .main
        default: queue = DispatchQueue(label: "NSManagedObjectContext")
        }
        super.init()
        anchor.context = self
        if ct != .mainQueueConcurrencyType {
            queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        } else {
            MainQueueMark.set()
        }
    }

    deinit {
        if let parentObserverToken { NotificationCenter.default.removeObserver(parentObserverToken) }
        if let undoCheckpointToken { NotificationCenter.default.removeObserver(undoCheckpointToken) }
    }

    // MARK: Stack

    /// The coordinator; a child context has its parent's.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { coordinator ?? parentContext?.persistentStoreCoordinator }
        set {
            precondition(parentContext == nil || newValue == nil, "A context has either a parent context or a coordinator")
            coordinator = newValue
        }
    }

    /// A child context saves into its parent instead of the store.
    open var parent: NSManagedObjectContext? {
        get { parentContext }
        set {
            precondition(coordinator == nil || newValue == nil, "A context has either a parent context or a coordinator")
            parentContext = newValue
            updateParentObservation()
        }
    }

    // MARK: Queue

    /// Whether the caller runs on the context's queue. For the main queue that is the main thread
    /// or a block of the main queue: after `dispatch_main()` (an async `main`, the test runner)
    /// the main queue's blocks run on a worker thread.
    var isOnQueue: Bool {
        if let confinedThread, pthread_equal(confinedThread, pthread_self()) != 0 { return true }
        return kind == .mainQueueConcurrencyType
            ? MainQueueMark.isCurrent : DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self)
    }

    /// Debug builds report use of the context off its queue: a message on standard error, and a
    /// stop when `com.apple.CoreData.ConcurrencyDebug` is 1 (environment variable or argument
    /// `-com.apple.CoreData.ConcurrencyDebug 1`), as Core Data's assertion does.
    @inline(__always)
    func checkQueue(_ function: StaticString = #function) {
        #if DEBUG
        if !isOnQueue { ConcurrencyDebug.report(self, function) }
        #endif
    }

    /// Runs `block` on the context's queue, asynchronously, then processes pending changes.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        let context = WeakContext(self)
        queue.async { Self.userEvent(context, block) }
    }

    /// Runs `block` on the context's queue and waits for it (at once when already on it).
    open func performAndWait(_ block: () -> Void) {
        if isOnQueue { return CurrentContext.with(self, block) }
        if kind == .mainQueueConcurrencyType { return MainQueueMark.waitForMainQueue { CurrentContext.with(self, block) } }
        MainQueueMark.lending(to: ObjectIdentifier(self)) { queue.sync { CurrentContext.with(self, block) } }
    }

    /// Runs `block` on the context's queue, waits, and returns its value or rethrows its error.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try CurrentContext.with(self, block) }
        if kind == .mainQueueConcurrencyType {
            return try MainQueueMark.waitForMainQueue { try CurrentContext.with(self, block) }
        }
        return try MainQueueMark.lending(to: ObjectIdentifier(self)) { try queue.sync { try CurrentContext.with(self, block) } }
    }

    /// Runs `block` on the context's queue and returns its value or throws its error (Core Data's
    /// `perform(schedule:_:)`; a non-throwing block needs no `try`).
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate, isOnQueue { return try CurrentContext.with(self) { () throws(E) -> T in try block() } }
        let box = UncheckedBox(block)
        let result: UncheckedBox<Result<T, E>> = await withCheckedContinuation { continuation in
            let context = WeakContext(self)
            queue.async {
                var result: UncheckedBox<Result<T, E>>?
                Self.userEvent(context) { result = UncheckedBox(Result<T, E> { () throws(E) -> T in try box.value() }) }
                continuation.resume(returning: result!)
            }
        }
        return try result.value.get()
    }

    // MARK: State

    open var hasChanges: Bool { !inserted.isEmpty || !deleted.isEmpty || changed.values.contains { $0.hasPersistentChangedValues } }
    open var insertedObjects: Set<NSManagedObject> { Set(inserted.values) }
    open var updatedObjects: Set<NSManagedObject> { Set(changed.values.filter { !$0.insertedFlag && !$0.deletedFlag }) }
    open var deletedObjects: Set<NSManagedObject> { Set(deleted.values) }
    /// Inserted objects count as registered whether or not their temporary ID was made yet.
    open var registeredObjects: Set<NSManagedObject> { Set(registry.values).union(inserted.values) }

    func register(_ object: NSManagedObject) {
        registry[ObjectKey(object.id)] = object
    }

    func noteChanged(_ object: NSManagedObject) {
        changed[ObjectIdentifier(object)] = object
    }

    // MARK: Inserting and deleting

    /// Inserts a new object: it gets its attributes' default values and `awakeFromInsert()`.
    open func insert(_ object: NSManagedObject) {
        checkQueue()
        if object.context === self { return }
        precondition(object.context == nil, "An object can be in one context only")
        coordinatorModel?._withUnsafeGuaranteedRef { object.rebind(to: $0) }
        // The anchor, not `context`: setting that would retain and release the context, whose
        // weak references make both take the slow path.
        object.anchor = anchor
        object.insertedFlag = true
        object.deletedFlag = false
        if !object.hasCommitted {
            let engine = object.engine
            for (slot, value) in engine.writeChecks.defaultValues where object.values[slot] == nil { object.values[slot] = value }
            for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) && !(object.values[slot] is ToMany) {
                object.values[slot] = ToMany()
            }
        }
        inserted[ObjectIdentifier(object)] = object
        // Registered by its temporary ID once one is made (see `NSManagedObject.id`).
        if object.hasID {
            register(object)
        } else if object.insertionNumber == 0 {
            object.insertionNumber = TemporaryIdentity.next()
        }
        object.awakeFromInsert()
    }

    /// Deletes an object at the next save, applying its relationships' delete rules now:
    /// nullify removes it from its destinations' inverses, cascade deletes the destinations,
    /// deny makes the save fail while destinations remain.
    open func delete(_ object: NSManagedObject) {
        checkQueue()
        guard object.context === self, !object.deletedFlag else { return }
        if object.faultState != .materialized { object.fireFault() }
        object.prepareForDeletion()
        object.deletedFlag = true
        if object.insertedFlag {
            inserted.removeValue(forKey: ObjectIdentifier(object))
            changed.removeValue(forKey: ObjectIdentifier(object))
        } else {
            deleted[ObjectIdentifier(object)] = object
        }
        let engine = object.engine
        for slot in engine.relationshipSlots {
            guard let relationship = engine.properties[slot] as? NSRelationshipDescription else { continue }
            let destinations: [NSManagedObject] =
                engine.isRelationshipToMany(slot)
                ? object.loadedToMany(slot).objects : [object.values[slot] as? NSManagedObject].compactMap { $0 }
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                for destination in destinations {
                    if let inverse = engine.inverseSlot(slot, on: destination.engine) { destination.removeInverse(object, atSlot: inverse) }
                }
            case .cascadeDeleteRule:
                for destination in destinations where !destination.deletedFlag {
                    if let inverse = engine.inverseSlot(slot, on: destination.engine) { destination.removeInverse(object, atSlot: inverse) }
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                break
            }
        }
        if object.insertedFlag, object.hasID { registry.removeValue(forKey: ObjectKey(object.id)) }
    }

    // MARK: Objects by ID

    /// The object with `objectID`: the registered one, or a fault that loads its row when used.
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        checkQueue()
        if let object = registry[ObjectKey(objectID)] { return object }
        return fault(for: objectID)
    }

    /// The object with `objectID`, its values loaded; throws `NSManagedObjectReferentialIntegrityError`
    /// when the store has no such object.
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        checkQueue()
        if let object = registry[ObjectKey(objectID)] {
            if object.faultState == .hollow, !loadRow(into: object) { throw missingObject(objectID) }
            return object
        }
        guard !objectID.isTemporaryID else { throw missingObject(objectID) }
        let object = fault(for: objectID)
        guard loadRow(into: object) else {
            registry.removeValue(forKey: ObjectKey(objectID))
            object.context = nil
            throw missingObject(objectID)
        }
        return object
    }

    private func missingObject(_ id: NSManagedObjectID) -> NSError {
        CoreDataError.make(
            NSManagedObjectReferentialIntegrityError, "No object with ID \(id.uriRepresentation().absoluteString) exists in the store",
            [NSAffectedObjectsErrorKey: [id]])
    }

    open func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        registry[ObjectKey(objectID)]
    }

    /// A hollow object for `id`, registered.
    func fault(for id: NSManagedObjectID) -> NSManagedObject {
        let type = ClassRegistry.objectClass(for: id.entity)
        let object = type.init(entity: id.entity, insertInto: nil)
        object.id = id
        object.context = self
        object.faultState = .hollow
        register(object)
        return object
    }

    /// Gives the objects permanent IDs now (keys allocated from the store).
    open func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        checkQueue()
        try assignPermanentIDs(objects.filter { !$0.hasID || $0.id.isTemporaryID })
    }

    /// Gives the objects permanent IDs, their keys allocated in a transaction of their own, or
    /// inside the save's open `transactions` (objects a merge policy inserted during a save).
    func assignPermanentIDs(_ objects: [NSManagedObject], within transactions: SaveTransactions? = nil) throws {
        guard !objects.isEmpty else { return }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator")
        }
        // Objects by store and table (root entity), in the order first met; the store of an
        // entity is looked up once.
        var groups: [(store: NSPersistentStore, root: Int, objects: [NSManagedObject])] = []
        var storesByEntity: [ObjectIdentifier: NSPersistentStore] = [:]
        // Objects are told apart by their engine data, not their entity description: a
        // description is weakly referenced by its properties, so retaining one per object would
        // take the slow path.
        var last: (engine: ObjectIdentifier, group: Int)?
        for object in objects {
            let engine = ObjectIdentifier(object.engine)
            if !assignedStores.isEmpty, let assigned = assignedStores.removeValue(forKey: ObjectIdentifier(object)) {
                // A store chosen by `assign(_:to:)`: a group of its own kind, never the last one's.
                let root = object.engine.rootNumber
                if let index = groups.firstIndex(where: { $0.store === assigned && $0.root == root }) {
                    groups[index].objects.append(object)
                } else {
                    groups.append((assigned, root, [object]))
                }
                last = nil
                continue
            }
            if let last, last.engine == engine {
                groups[last.group].objects.append(object)
                continue
            }
            let entity = object.engine.description
            guard let store = storesByEntity[ObjectIdentifier(entity)] ?? coordinator.store(for: entity) else {
                throw CoreDataError.make(
                    NSPersistentStoreSaveError, "No store can hold objects of entity \(entity.name ?? "")",
                    [NSAffectedObjectsErrorKey: [object]])
            }
            storesByEntity[ObjectIdentifier(entity)] = store
            let root = object.engine.rootNumber
            let group =
                groups.firstIndex { $0.store === store && $0.root == root }
                ?? {
                    groups.append((store, root, []))
                    groups[groups.count - 1].objects.reserveCapacity(objects.count)
                    return groups.count - 1
                }()
            groups[group].objects.append(object)
            last = (engine, group)
        }
        try coordinator.locked {
            for (store, root, unordered) in groups.sorted(by: { $0.root < $1.root }) {
                // Keys in insertion order, not in the order of the context's sets, so equal
                // work gives equal stores.
                let members =
                    unordered.indices.dropFirst().allSatisfy { unordered[$0 - 1].insertionOrder < unordered[$0].insertionOrder }
                    ? unordered : unordered.sorted { $0.insertionOrder < $1.insertionOrder }
                guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
                try transactions?.begin(store)
                let first = try store.engine.allocateKeys(members.count, root: root, inOpenTransaction: transactions != nil)
                // Objects nobody asked the ID of get none: their keys are listed in order, as a
                // fetch's are, and each object's permanent ID is made from its key when asked
                // for. They are registered as a fetch's rows are (see ObjectRegistry).
                var keys: FetchBatches?
                for (offset, object) in members.enumerated() {
                    let key = first + Int64(offset)
                    if object.hasID {
                        registry.removeValue(forKey: ObjectKey(object.id))
                        // The temporary ID's number keeps the object's place in insertion order
                        // (a save that fails and is tried again writes in the same order).
                        if object.insertionNumber == 0, let number = object.idStorage?.insertionNumber, number != 0 {
                            object.insertionNumber = number
                        }
                        object.id = NSManagedObjectID(
                            entity: object.engine.description, rootEntityNumber: root, key: .permanent(key), store: store)
                        register(object)
                    } else {
                        if keys == nil { keys = FetchBatches(keysOf: store, entity: object.engine) }
                        registry.register(object, row: ObjectKey(store: store, root: root, primaryKey: key), in: keys!)
                    }
                }
            }
        }
    }

    // MARK: Refreshing

    /// Turns the object into a fault (discarding its changes) or, with `mergeChanges`, reloads
    /// its values from the store keeping its own changes on top.
    open func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        checkQueue()
        guard object.context === self else { return }
        // Fetched properties are fetched again on their next read, whatever else happens.
        object.forgetFetchedPropertyValues()
        if object.insertedFlag {
            // Nothing to reload an inserted object from: without merging it turns into a fault
            // and its pending changes are lost (Apple's documentation of this method), so it is
            // as it was inserted, still inserted; merging keeps it as it is.
            guard !flag else { return }
            object.willTurnIntoFault()
            object.writtenSlots.removeAll()
            object.clearValues()
            let engine = object.engine
            for (slot, value) in engine.writeChecks.defaultValues { object.values[slot] = value }
            for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) { object.values[slot] = ToMany() }
            object.faultState = .fault
            object.didTurnIntoFault()
            return
        }
        if flag && object.changedFlag {
            let local = object.candidateChangedSlots.filter { object.isChanged($0) }.map { ($0, object.values[$0]) }
            _ = loadRow(into: object)
            object.writtenSlots.removeAll()
            for (slot, value) in local {
                object.values[slot] = value
                object.writtenSlots.insert(slot)
            }
            object.changedFlag = !local.isEmpty
            if local.isEmpty { changed.removeValue(forKey: ObjectIdentifier(object)) }
            return
        }
        if object.deletedFlag {
            deleted.removeValue(forKey: ObjectIdentifier(object))
            object.deletedFlag = false
        }
        object.willTurnIntoFault()
        changed.removeValue(forKey: ObjectIdentifier(object))
        object.changedFlag = false
        object.writtenSlots.removeAll()
        object.clearValues()
        object.faultState = .hollow
        object.didTurnIntoFault()
    }

    open func refreshAllObjects() {
        checkQueue()
        for object in Array(registry.values) where !object.insertedFlag { refresh(object, mergeChanges: true) }
    }

    /// Discards every unsaved change.
    open func rollback() {
        checkQueue()
        let discarded = Array(inserted.values)
        let touched = Array(changed.values) + Array(deleted.values)
        defer { postRolledBack(discarded: discarded, restored: touched) }
        forgetUndo(everything: true)
        forgetSaveChoices()
        for object in inserted.values {
            if object.hasID { registry.removeValue(forKey: ObjectKey(object.id)) }
            object.context = nil
            object.insertedFlag = false
        }
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
        for object in touched where object.context === self {
            object.deletedFlag = false
            object.changedFlag = false
            object.writtenSlots.removeAll()
            if object.hasCommitted {
                object.restoreCommittedValues()
                object.awake(fromSnapshotEvents: .rollback)
            } else {
                object.clearValues()
                object.faultState = .hollow
            }
        }
    }

    /// Forgets every object: all registered objects leave the context.
    open func reset() {
        checkQueue()
        let invalidated = registry.values.map(\.id)
        defer { postInvalidatedAll(invalidated) }
        forgetUndo(everything: false)
        forgetSaveChoices()
        advanceQueryGeneration()
        for object in registry.values { object.context = nil }
        for object in inserted.values { object.context = nil }
        registry.removeAll()
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
    }

    /// Posts `NSManagedObjectContextObjectsDidChange` for the changes since the last call.
    open func processPendingChanges() { processPendingChangesNow() }

    open override var description: String {
        "<NSManagedObjectContext: \(name ?? String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))>"
    }
}

/// Carries a non-`Sendable` value to the context's queue; the context's queue discipline makes
/// the hand-over safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Reports use of a context off its queue in debug builds.
enum ConcurrencyDebug {
    static let isStrict: Bool = {
        let environment = ProcessInfo.processInfo.environment["com.apple.CoreData.ConcurrencyDebug"]
        if environment == "1" { return true }
        let arguments = ProcessInfo.processInfo.arguments
        if let index = arguments.firstIndex(of: "-com.apple.CoreData.ConcurrencyDebug"), index + 1 < arguments.count {
            return arguments[index + 1] == "1"
        }
        return false
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var reported: Set<ObjectIdentifier> = []

    static func report(_ context: NSManagedObjectContext, _ function: StaticString) {
        let message = "CoreData concurrency violation: \(context) used off its queue in \(function)"
        if isStrict { fatalError(message) }
        lock.lock()
        let first = reported.insert(ObjectIdentifier(context)).inserted
        lock.unlock()
        if first { FileHandle.standardError.write(Data((message + " (reported once per context)\n").utf8)) }
    }
}
#endif

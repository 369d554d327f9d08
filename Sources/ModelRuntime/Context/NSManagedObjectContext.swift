#if !canImport(CoreData)
import ModelQuery

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
        didSet { graph.registry.setRetainsObjects(retainsRegisteredObjects) }
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
    var undoCheckpointToken: NSObjectProtocol?
    /// The read connections of a context pinned to a query generation (see +QueryGeneration).
    var pinnedReads: PinnedReads?
    /// The thread a migration manager runs on while this is one of its contexts: there the context
    /// counts as on its queue, so the manager's policies use its source and destination contexts
    /// without `perform`, as with Core Data's migration manager. Set and cleared on that thread.
    var confinedThread: pthread_t?
    open private(set) var userInfo = NSMutableDictionary()
    var parentObserverToken: NSObjectProtocol?

    /// The context's objects and their changes: the engine state this class is the façade of.
    let graph = ObjectGraph()
    /// What the context's objects refer to it through (see ``ContextAnchor``).
    var anchor: ContextAnchor { graph.anchor }

    public init(concurrencyType ct: NSManagedObjectContextConcurrencyType) {
        kind = ct
        switch ct {
        case .mainQueueConcurrencyType: queue = .main
        default: queue = DispatchQueue(label: "NSManagedObjectContext")
        }
        super.init()
        graph.anchor.context = self
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

    open var hasChanges: Bool { graph.hasChanges }
    open var insertedObjects: Set<NSManagedObject> { graph.insertedObjects }
    open var updatedObjects: Set<NSManagedObject> { graph.updatedObjects }
    open var deletedObjects: Set<NSManagedObject> { graph.deletedObjects }
    /// Inserted objects count as registered whether or not their temporary ID was made yet.
    open var registeredObjects: Set<NSManagedObject> { graph.registeredObjects }

    // MARK: Inserting and deleting

    /// Inserts a new object: it gets its attributes' default values and `awakeFromInsert()`.
    open func insert(_ object: NSManagedObject) {
        checkQueue()
        if object.context === self { return }
        precondition(object.context == nil, "An object can be in one context only")
        graph.insert(object, model: coordinatorModel)
        object.awakeFromInsert()
    }

    /// Deletes an object at the next save, applying its relationships' delete rules now:
    /// nullify removes it from its destinations' inverses, cascade deletes the destinations,
    /// deny makes the save fail while destinations remain.
    open func delete(_ object: NSManagedObject) {
        checkQueue()
        graph.delete(object)
    }

    // MARK: Objects by ID

    /// The object with `objectID`: the registered one, or a fault that loads its row when used.
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        checkQueue()
        return graph.object(with: objectID)
    }

    /// The object with `objectID`, its values loaded; throws `NSManagedObjectReferentialIntegrityError`
    /// when the store has no such object.
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        checkQueue()
        if let object = graph.registry[ObjectKey(objectID)] {
            if object.faultState == .hollow, !loadRow(into: object) { throw missingObject(objectID) }
            return object
        }
        guard !objectID.isTemporaryID else { throw missingObject(objectID) }
        let object = graph.fault(for: objectID)
        guard loadRow(into: object) else {
            graph.discardFault(object)
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
        graph.registry[ObjectKey(objectID)]
    }

    /// Gives the objects permanent IDs now (keys allocated from the store).
    open func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        checkQueue()
        try assignPermanentIDs(objects.filter { !$0.hasID || $0.id.isTemporaryID })
    }

    // MARK: Refreshing

    /// Turns the object into a fault (discarding its changes) or, with `mergeChanges`, reloads
    /// its values from the store keeping its own changes on top.
    open func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        checkQueue()
        guard object.context === self else { return }
        if graph.refresh(object, mergeChanges: flag, load: loadRow(into:)) { object.awake(fromSnapshotEvents: .refresh) }
    }

    /// Refreshes every registered object that is not inserted, as `refresh(_:mergeChanges: true)`
    /// of each: changed ones are reloaded keeping their changes, the others turn into faults.
    open func refreshAllObjects() {
        checkQueue()
        graph.refreshAll(load: loadRow(into:)) { $0.awake(fromSnapshotEvents: .refresh) }
    }

    /// Discards every unsaved change.
    open func rollback() {
        checkQueue()
        forgetUndo(everything: true)
        graph.forgetSaveChoices()
        let (discarded, restored) = graph.rollback()
        postRolledBack(discarded: discarded, restored: restored)
    }

    /// Forgets every object: all registered objects leave the context.
    open func reset() {
        checkQueue()
        forgetUndo(everything: false)
        graph.forgetSaveChoices()
        advanceQueryGeneration()
        postInvalidatedAll(graph.removeAll())
    }

    /// Posts `NSManagedObjectContextObjectsDidChange` for the changes since the last call.
    open func processPendingChanges() { processPendingChangesNow() }

    open override var description: String {
        "<NSManagedObjectContext: \(name ?? String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))>"
    }
}
#endif

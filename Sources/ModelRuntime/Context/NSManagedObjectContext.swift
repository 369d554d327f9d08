#if !canImport(CoreData)
import Foundation

/// A scratch pad of managed objects (`NSManagedObjectContext`). Each context runs on its queue:
/// the main queue for `.mainQueueConcurrencyType`, a serial queue of its own for
/// `.privateQueueConcurrencyType`; use it inside `perform`/`performAndWait` (or on the main
/// thread for a main-queue context). See docs/Runtime.md for how misuse is reported.
open class NSManagedObjectContext: NSObject {
    public enum ConcurrencyType: UInt, Sendable {
        @available(*, deprecated, message: "Use another NSManagedObjectContextConcurrencyType")
        case confinementConcurrencyType = 0
        case privateQueueConcurrencyType = 1
        case mainQueueConcurrencyType = 2
    }

    /// When `perform(schedule:_:)` runs its block (`NSManagedObjectContext.ScheduledTaskType`).
    public enum ScheduledTaskType: Sendable {
        /// Run at once when already on the context's queue, else enqueue.
        case immediate
        /// Always enqueue.
        case enqueued
    }

    public let concurrencyType: ConcurrencyType
    let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private var coordinator: NSPersistentStoreCoordinator?
    private var parentContext: NSManagedObjectContext?
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
    open var retainsRegisteredObjects = true

    /// Decides what happens to an inaccessible fault: the default returns
    /// `shouldDeleteInaccessibleFaults`; a subclass may override it, as with Core Data.
    open func shouldHandleInaccessibleFault(
        _ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?
    ) -> Bool {
        shouldDeleteInaccessibleFaults
    }

    open var propagatesDeletesAtEndOfEvent = true
    open var userInfo = NSMutableDictionary()
    var parentObserverToken: NSObjectProtocol?

    /// Objects by identity (store, table, key or temporary identity).
    var registry: [ObjectKey: NSManagedObject] = [:]
    var inserted: [ObjectIdentifier: NSManagedObject] = [:]
    var deleted: [ObjectIdentifier: NSManagedObject] = [:]
    var changed: [ObjectIdentifier: NSManagedObject] = [:]
    /// What the last `NSManagedObjectContextObjectsDidChange` reported (see +ObjectsDidChange).
    var processedChanges = ProcessedChanges()

    public init(concurrencyType ct: ConcurrencyType) {
        concurrencyType = ct
        switch ct {
        case .mainQueueConcurrencyType: queue = .main
        default: queue = DispatchQueue(label: "NSManagedObjectContext")
        }
        super.init()
        if ct != .mainQueueConcurrencyType {
            queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        } else {
            MainQueueMark.set()
        }
    }

    deinit {
        if let parentObserverToken { NotificationCenter.default.removeObserver(parentObserverToken) }
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
        concurrencyType == .mainQueueConcurrencyType
            ? Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueMark.key) != nil
            : DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self)
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
        if isOnQueue { return block() }
        queue.sync(execute: block)
    }

    /// Runs `block` on the context's queue, waits, and returns its value or rethrows its error.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync(execute: block)
    }

    /// Runs `block` on the context's queue and returns its value or throws its error (Core Data's
    /// `perform(schedule:_:)`; a non-throwing block needs no `try`).
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate, isOnQueue { return try block() }
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
    open var registeredObjects: Set<NSManagedObject> { Set(registry.values) }

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
        object.context = self
        object.insertedFlag = true
        object.deletedFlag = false
        if object.committed == nil {
            let engine = object.engine
            for slot in engine.attributeSlots where object.values[slot] == nil {
                if let attribute = engine.properties[slot] as? NSAttributeDescription, let value = attribute.defaultValue {
                    object.values[slot] = object.normalizedAttribute(value, slot: slot)
                }
            }
            for slot in engine.relationshipSlots where engine.isRelationshipToMany(slot) && !(object.values[slot] is ToMany) {
                object.values[slot] = ToMany()
            }
        }
        inserted[ObjectIdentifier(object)] = object
        register(object)
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
                if let inverse = engine.inverseSlots[slot] {
                    for destination in destinations { destination.removeInverse(object, atSlot: inverse) }
                }
            case .cascadeDeleteRule:
                for destination in destinations where !destination.deletedFlag {
                    if let inverse = engine.inverseSlots[slot] { destination.removeInverse(object, atSlot: inverse) }
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                break
            }
        }
        if object.insertedFlag { registry.removeValue(forKey: ObjectKey(object.id)) }
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
        try assignPermanentIDs(objects.filter { $0.id.isTemporaryID })
    }

    func assignPermanentIDs(_ objects: [NSManagedObject]) throws {
        guard !objects.isEmpty else { return }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator")
        }
        var groups: [ObjectIdentifier: (store: NSPersistentStore, root: Int, objects: [NSManagedObject])] = [:]
        for object in objects {
            guard let store = coordinator.store(for: object.entity) else {
                throw CoreDataError.make(
                    NSPersistentStoreSaveError, "No store can hold objects of entity \(object.entity.name ?? "")",
                    [NSAffectedObjectsErrorKey: [object]])
            }
            groups[ObjectIdentifier(store), default: (store, 0, [])].objects.append(object)
        }
        try coordinator.locked {
            for group in groups.values {
                var byRoot: [Int: [NSManagedObject]] = [:]
                for object in group.objects { byRoot[object.engine.rootNumber, default: []].append(object) }
                for (root, unordered) in byRoot.sorted(by: { $0.key < $1.key }) {
                    // Keys in insertion order (temporary IDs count up), not in the registry's
                    // hash order, so equal work gives equal stores.
                    let members = unordered.sorted { $0.id.insertionNumber < $1.id.insertionNumber }
                    guard !group.store.isReadOnly else {
                        throw CoreDataError.make(NSPersistentStoreSaveError, "The store is read-only")
                    }
                    let first = try group.store.engine.allocateKeys(members.count, root: root)
                    for (offset, object) in members.enumerated() {
                        registry.removeValue(forKey: ObjectKey(object.id))
                        object.id = NSManagedObjectID(
                            entity: object.entity, rootEntityNumber: root, key: .permanent(first + Int64(offset)), store: group.store)
                        register(object)
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
        guard object.context === self, !object.insertedFlag else { return }
        if flag && object.changedFlag {
            let local = object.engine.properties.indices.filter { object.isChanged($0) }.map { ($0, object.values[$0]) }
            _ = loadRow(into: object)
            for (slot, value) in local { object.values[slot] = value }
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
        object.committed = nil
        object.values = ContiguousArray(repeating: nil, count: object.engine.slotCount)
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
        for object in inserted.values {
            registry.removeValue(forKey: ObjectKey(object.id))
            object.context = nil
            object.insertedFlag = false
        }
        let touched = Array(changed.values) + Array(deleted.values)
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
        for object in touched where object.context === self {
            object.deletedFlag = false
            object.changedFlag = false
            if let committed = object.committed {
                object.values = committed
            } else {
                object.values = ContiguousArray(repeating: nil, count: object.engine.slotCount)
                object.faultState = .hollow
            }
        }
    }

    /// Forgets every object: all registered objects leave the context.
    open func reset() {
        checkQueue()
        let invalidated = registry.values.map(\.id)
        defer { postInvalidatedAll(invalidated) }
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

/// Marks the main queue so its blocks are recognised on whatever thread runs them.
enum MainQueueMark {
    static let key = DispatchSpecificKey<Bool>()
    private static let once: Void = DispatchQueue.main.setSpecific(key: key, value: true)
    static func set() { _ = once }
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

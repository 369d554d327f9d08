#if !canImport(CoreData)
import ModelQuery

/// What a context reported in its last `NSManagedObjectContextObjectsDidChange`: the objects
/// inserted, deleted and changed then, each changed or inserted object with the mark of its
/// values at that moment (``ValuesMark``: every write of a value advances its state's
/// generation, so a different mark means the object changed again).
struct ProcessedChanges {
    /// The context's inserted objects then (a copy of its table, which costs nothing until
    /// either changes).
    var insertedObjects: [ObjectIdentifier: NSManagedObject] = [:]
    var deleted: Set<ObjectIdentifier> = []
    /// The inserted objects reported then, when that was all of them (as a set, which the
    /// did-save notification of a save that follows with the same objects reuses).
    var allInserted: Set<NSManagedObject>?
    var valueMarks: [ObjectIdentifier: ValuesMark] = [:]

    /// Whether the two tables share their storage: a table copied from the other and changed
    /// by neither since (a change copies shared storage first). A dictionary is one reference.
    static func sameStorage(_ a: [ObjectIdentifier: NSManagedObject], _ b: [ObjectIdentifier: NSManagedObject]) -> Bool {
        withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
    }
}

extension NSManagedObjectContext {
    /// Core Data's `processPendingChanges()`: posts `NSManagedObjectContextObjectsDidChange`
    /// with the objects inserted, updated and deleted since the last time (nothing when there
    /// are none). On Linux this happens at the end of every `perform` block, at the start of
    /// `save()` and when called; there is no end of a run-loop event to wait for.
    func processPendingChangesNow() {
        checkQueue()
        let last = graph.processedChanges
        var insertedNow: Set<NSManagedObject> = []
        var updatedNow: Set<NSManagedObject> = []
        var deletedNow: Set<NSManagedObject> = []
        var next = ProcessedChanges()
        // Sized once: a save of many new objects would otherwise grow each table step by step.
        next.insertedObjects = graph.inserted
        next.valueMarks.reserveCapacity(graph.inserted.count + graph.changed.count)
        if graph.inserted.count > last.insertedObjects.count {
            insertedNow.reserveCapacity(graph.inserted.count - last.insertedObjects.count)
        }
        for (key, object) in graph.inserted {
            next.valueMarks[key] = object.valuesMark
            if last.insertedObjects[key] == nil {
                insertedNow.insert(object)
            } else if changedSince(last, key, object) {
                updatedNow.insert(object)
            }
        }
        for (key, object) in graph.deleted {
            next.deleted.insert(key)
            if !last.deleted.contains(key) { deletedNow.insert(object) }
        }
        // An object inserted and reported, then deleted before a save, leaves as deleted.
        for (key, object) in last.insertedObjects where graph.inserted[key] == nil && object.deletedFlag {
            deletedNow.insert(object)
        }
        for (key, object) in graph.changed where graph.inserted[key] == nil && graph.deleted[key] == nil && !object.deletedFlag {
            next.valueMarks[key] = object.valuesMark
            if last.valueMarks[key] == nil || changedSince(last, key, object) { updatedNow.insert(object) }
        }
        if insertedNow.count == graph.inserted.count { next.allInserted = insertedNow }
        // Stored objects whose deletion was undone come back as inserted ones do.
        if !graph.revivedObjects.isEmpty {
            for object in graph.revivedObjects where !object.deletedFlag && object.anchor === anchor { insertedNow.insert(object) }
            graph.revivedObjects.removeAll()
        }
        graph.processedChanges = next
        if let undoManager, !insertedNow.isEmpty || !updatedNow.isEmpty || !deletedNow.isEmpty {
            recordUndo(inserted: insertedNow, updated: updatedNow, deleted: deletedNow, in: undoManager)
        }
        guard let info = ChangeInfo.changes(inserted: insertedNow, updated: updatedNow, deleted: deletedNow) else { return }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    private func changedSince(_ last: ProcessedChanges, _ key: ObjectIdentifier, _ object: NSManagedObject) -> Bool {
        guard let stored = last.valueMarks[key] else { return true }
        return stored.differs(from: object.valuesMark)
    }

    /// After `reset()`: every object left, reported with `NSInvalidatedAllObjectsKey` (the IDs of
    /// the objects that were registered).
    func postInvalidatedAll(_ ids: [NSManagedObjectID]) {
        graph.processedChanges = ProcessedChanges()
        NotificationCenter.default.post(
            name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: [NSInvalidatedAllObjectsKey: ids])
    }

    /// After `rollback()`: the discarded inserted objects that were reported inserted are
    /// reported deleted, and the restored objects refreshed (`NSRefreshedObjectsKey`), so
    /// observers such as a fetched-results controller see the rolled-back state.
    func postRolledBack(discarded: [NSManagedObject], restored: [NSManagedObject]) {
        let last = graph.processedChanges
        graph.processedChanges = ProcessedChanges()
        let deleted = Set(discarded.filter { last.insertedObjects[ObjectIdentifier($0)] != nil })
        let refreshed = Set(restored.filter { $0.managedObjectContext === self })
        guard !deleted.isEmpty || !refreshed.isEmpty else { return }
        var info: [AnyHashable: Any] = [:]
        if !deleted.isEmpty { info[NSDeletedObjectsKey] = deleted }
        if !refreshed.isEmpty { info[NSRefreshedObjectsKey] = refreshed }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    /// Runs a `perform` block as Core Data runs a user event: the block, then
    /// `processPendingChanges()`.
    static func userEvent(_ context: WeakContext, _ block: () -> Void) {
        guard let owner = context.context else { return block() }
        CurrentContext.with(owner, block)
        owner.processPendingChanges()
    }
}
#endif

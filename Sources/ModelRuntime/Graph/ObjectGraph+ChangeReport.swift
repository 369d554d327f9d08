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

    /// Whether `object` changed since this report: its values' mark differs from the one
    /// reported, or none was.
    func changedSince(_ key: ObjectIdentifier, _ object: NSManagedObject) -> Bool {
        guard let stored = valueMarks[key] else { return true }
        return stored.differs(from: object.valuesMark)
    }
}

/// The change report a context's `NSManagedObjectContextObjectsDidChange` makes: what changed in
/// the graph since the last report, which the graph keeps (``ObjectGraph/processedChanges``).
extension ObjectGraph {
    /// The objects inserted, updated and deleted since the last report, which these become:
    /// inserted objects not reported before, inserted or changed ones whose values changed since,
    /// and deleted ones not reported before (an object inserted and reported, then deleted before
    /// a save, leaves as deleted). Stored objects whose deletion an undo took back are reported
    /// inserted.
    func reportChanges() -> (inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>) {
        let last = processedChanges
        var insertedNow: Set<NSManagedObject> = []
        var updatedNow: Set<NSManagedObject> = []
        var deletedNow: Set<NSManagedObject> = []
        var next = ProcessedChanges()
        // Sized once: a save of many new objects would otherwise grow each table step by step.
        next.insertedObjects = inserted
        next.valueMarks.reserveCapacity(inserted.count + changed.count)
        if inserted.count > last.insertedObjects.count {
            insertedNow.reserveCapacity(inserted.count - last.insertedObjects.count)
        }
        for (key, object) in inserted {
            next.valueMarks[key] = object.valuesMark
            if last.insertedObjects[key] == nil {
                insertedNow.insert(object)
            } else if last.changedSince(key, object) {
                updatedNow.insert(object)
            }
        }
        for (key, object) in deleted {
            next.deleted.insert(key)
            if !last.deleted.contains(key) { deletedNow.insert(object) }
        }
        // An object inserted and reported, then deleted before a save, leaves as deleted.
        for (key, object) in last.insertedObjects where inserted[key] == nil && object.deletedFlag {
            deletedNow.insert(object)
        }
        for (key, object) in changed where inserted[key] == nil && deleted[key] == nil && !object.deletedFlag {
            next.valueMarks[key] = object.valuesMark
            if last.valueMarks[key] == nil || last.changedSince(key, object) { updatedNow.insert(object) }
        }
        if insertedNow.count == inserted.count { next.allInserted = insertedNow }
        // Stored objects whose deletion was undone come back as inserted ones do.
        if !revivedObjects.isEmpty {
            for object in revivedObjects where !object.deletedFlag && contains(object) { insertedNow.insert(object) }
            revivedObjects.removeAll()
        }
        processedChanges = next
        return (insertedNow, updatedNow, deletedNow)
    }

    /// Empties the last report (the objects left, or their changes are settled) and returns what
    /// it held.
    @discardableResult
    func forgetProcessedChanges() -> ProcessedChanges {
        let last = processedChanges
        processedChanges = ProcessedChanges()
        return last
    }
}
#endif

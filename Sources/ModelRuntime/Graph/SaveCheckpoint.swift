#if !canImport(CoreData)
import ModelQuery

/// The graph as a save found it before its merge policy changed anything, put back when the
/// save fails after all, so a failed save leaves the context's changes as the app left them: the
/// change tables, and every object a resolution is expected to change — the save's objects, the
/// objects the conflicts name, the objects marked by `detectConflicts(for:)` — exactly as they
/// were (values, committed values, version, ID, flags, registration). Objects the resolution
/// changed besides go back to their committed values; objects it inserted leave the graph.
struct SaveCheckpoint {
    private let inserted: [ObjectIdentifier: NSManagedObject]
    private let deleted: [ObjectIdentifier: NSManagedObject]
    private let changed: [ObjectIdentifier: NSManagedObject]
    private let conflictChecked: [ObjectIdentifier: NSManagedObject]
    private let assignedStores: [ObjectIdentifier: NSPersistentStore]
    private let processedChanges: ProcessedChanges
    private var objects: [(object: NSManagedObject, state: NSManagedObject.SavedState, registered: ObjectKey?)]
    private var saved: Set<ObjectIdentifier>

    init(_ graph: ObjectGraph, involving named: [NSManagedObject]) {
        inserted = graph.inserted
        deleted = graph.deleted
        changed = graph.changed
        conflictChecked = graph.conflictChecked
        assignedStores = graph.assignedStores
        processedChanges = graph.processedChanges
        var seen: Set<ObjectIdentifier> = []
        var objects: [(object: NSManagedObject, state: NSManagedObject.SavedState, registered: ObjectKey?)] = []
        let tables = [graph.inserted, graph.deleted, graph.changed, graph.conflictChecked]
        for object in tables.flatMap(\.values) + named where seen.insert(ObjectIdentifier(object)).inserted {
            let registered = object.registryKey.flatMap { graph.registry[$0] === object ? $0 : nil }
            objects.append((object, object.savedState, registered))
        }
        self.objects = objects
        saved = seen
    }

    /// Adds the objects a later round's conflicts name for the first time. One the resolutions
    /// changed is in the change tables and goes back to its committed values; the others are as
    /// the save found them.
    mutating func include(_ named: [NSManagedObject], from graph: ObjectGraph) {
        for object in named {
            let key = ObjectIdentifier(object)
            guard !saved.contains(key), graph.inserted[key] == nil, graph.deleted[key] == nil, graph.changed[key] == nil else {
                continue
            }
            saved.insert(key)
            let registered = object.registryKey.flatMap { graph.registry[$0] === object ? $0 : nil }
            objects.append((object, object.savedState, registered))
        }
    }

    func restore(in graph: ObjectGraph) {
        for (key, object) in graph.inserted where !saved.contains(key) {
            if let registered = object.registryKey, graph.registry[registered] === object {
                graph.registry.removeValue(forKey: registered)
            }
            object.insertedFlag = false
            object.anchor = nil
        }
        for (key, object) in Array(graph.deleted) + Array(graph.changed) where !saved.contains(key) {
            object.deletedFlag = false
            object.changedFlag = false
            object.writtenSlots.removeAll()
            if object.hasCommitted {
                object.restoreCommittedValues()
            } else {
                object.clearValues()
                object.faultState = .hollow
            }
        }
        for entry in objects {
            if let key = entry.object.registryKey, graph.registry[key] === entry.object { graph.registry.removeValue(forKey: key) }
        }
        for entry in objects { entry.object.restore(entry.state) }
        for entry in objects {
            if let key = entry.registered, graph.registry[key] !== entry.object { graph.registry[key] = entry.object }
        }
        graph.inserted = inserted
        graph.deleted = deleted
        graph.changed = changed
        graph.conflictChecked = conflictChecked
        graph.assignedStores = assignedStores
        graph.processedChanges = processedChanges
    }
}
#endif

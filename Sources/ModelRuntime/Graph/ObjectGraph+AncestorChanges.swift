#if !canImport(CoreData)
import ModelQuery

/// The unsaved changes of a context's ancestors (its parent, the parent's parent, …) to objects
/// a fetch covers, by object ID. A child context's fetches see them as Core Data's do: to a child,
/// its parent is the store.
struct AncestorChanges {
    /// One ancestor's unsaved changes to the objects a fetch covers, as its graph holds them
    /// (``ObjectGraph/unsavedChanges(covering:)``).
    struct Pending {
        /// Inserted objects not deleted since.
        let inserted: [NSManagedObjectID]
        /// Deleted stored objects.
        let deleted: [NSManagedObjectID]
        /// Changed stored objects, neither inserted nor deleted.
        let changed: [NSManagedObjectID]
    }

    /// Objects an ancestor inserted that none deleted, each once, nearest ancestor's first.
    var inserted: [NSManagedObjectID] = []
    /// Objects an ancestor deleted.
    var deleted: Set<NSManagedObjectID> = []
    /// Stored objects an ancestor changed that none inserted or deleted, each once, nearest
    /// ancestor's first.
    var changed: [NSManagedObjectID] = []

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && changed.isEmpty }

    /// No changes (a context without a parent).
    init() {}

    /// The changes of the ancestors whose changes are `pending`, the parent's first, then its
    /// parent's, and so on.
    init(_ pending: [Pending]) {
        var seenInserted = Set<NSManagedObjectID>()
        var seenChanged = Set<NSManagedObjectID>()
        for taken in pending {
            deleted.formUnion(taken.deleted)
            for id in taken.inserted where seenInserted.insert(id).inserted { inserted.append(id) }
            for id in taken.changed where seenChanged.insert(id).inserted { changed.append(id) }
        }
        inserted.removeAll { deleted.contains($0) }
        changed.removeAll { deleted.contains($0) || seenInserted.contains($0) }
    }
}

extension ObjectGraph {
    /// The graph's unsaved inserts, deletes and updates to objects of entities `covers` accepts,
    /// for a descendant context's fetch.
    func unsavedChanges(covering covers: (EngineEntity) -> Bool) -> AncestorChanges.Pending {
        AncestorChanges.Pending(
            inserted: inserted.values.filter { !$0.deletedFlag && covers($0.engine) }.map(\.id),
            deleted: deleted.values.filter { covers($0.engine) }.map(\.id),
            changed: changed.values.filter { !$0.deletedFlag && !$0.insertedFlag && covers($0.engine) }.map(\.id))
    }

    /// Applies the ancestors' unsaved changes to the objects a store fetch returned: their
    /// deleted objects leave, their inserted and updated objects (the graph's objects for those
    /// IDs) are in exactly when the predicate holds for them (evaluated on the values the
    /// ancestors hold).
    func applyAncestorChanges(_ changes: AncestorChanges, to objects: inout [NSManagedObject], predicate: NSPredicate?) {
        if !changes.deleted.isEmpty { objects.removeAll { changes.deleted.contains($0.id) } }
        var present = Set(objects.map(ObjectIdentifier.init))
        for id in changes.changed + changes.inserted {
            let object = self.object(with: id)
            let matches = predicate?.evaluate(with: object) ?? true
            let identity = ObjectIdentifier(object)
            if matches, !present.contains(identity) {
                objects.append(object)
                present.insert(identity)
            } else if !matches, present.contains(identity) {
                objects.removeAll { $0 === object }
                present.remove(identity)
            }
        }
    }
}
#endif

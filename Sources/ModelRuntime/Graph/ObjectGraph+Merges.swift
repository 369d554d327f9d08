#if !canImport(CoreData)
import ModelQuery

/// Another context's save merged into the graph: the engine part of
/// `mergeChanges(fromContextDidSave:)`, `mergeChanges(fromRemoteContextSave:into:)` and
/// automatic merges. The context reads the saved objects' IDs from the notification, advances
/// its query generation, calls ``merge(inserted:updated:deleted:load:reloaded:)``, sends
/// `awake(fromSnapshotEvents: .refresh)` and posts the notifications.
extension ObjectGraph {
    /// The graph's objects a merge changed: what the context's
    /// `NSManagedObjectContextObjectsDidChange` reports.
    struct MergedObjects {
        /// Registered objects the save updated, refreshed with their own changes kept
        /// (`NSRefreshedObjectsKey`).
        var refreshed: Set<NSManagedObject> = []
        /// Registered objects the save deleted, now out of the graph (`NSDeletedObjectsKey`).
        var removed: Set<NSManagedObject> = []
        /// The objects for the rows the save inserted, registered (`NSInsertedObjectsKey`).
        var added: Set<NSManagedObject> = []

        /// Whether the merge changed none of the graph's objects.
        var isEmpty: Bool { refreshed.isEmpty && removed.isEmpty && added.isEmpty }
    }

    /// Merges a save of the rows with these IDs into the graph. In the order given: each
    /// registered object the save updated that holds values (not hollow, not inserted) is
    /// refreshed keeping its changes (``refresh(_:mergeChanges:load:)``) and, when that left it
    /// an unchanged hollow object, has its row loaded again with `load`; each registered object
    /// the save deleted leaves the graph (``removeDeleted(_:)``). When the save inserted rows,
    /// the loaded to-many relationships of every unchanged object that holds values are marked
    /// unloaded (they may now include the new objects) and read again on their next use; the
    /// inserted rows with permanent IDs get their objects (``object(with:)``). `reloaded` is called
    /// with each object reloaded keeping its changes, right after it was.
    func merge(
        inserted: [NSManagedObjectID], updated: [NSManagedObjectID], deleted: [NSManagedObjectID], load: (NSManagedObject) -> Bool,
        reloaded: (NSManagedObject) -> Void
    ) -> MergedObjects {
        var merged = MergedObjects()
        for id in updated {
            guard let object = registry[ObjectKey(id)], !object.insertedFlag else { continue }
            if object.faultState == .hollow { continue }
            if contains(object), refresh(object, mergeChanges: true, load: load) { reloaded(object) }
            if !object.changedFlag, object.faultState == .hollow { _ = load(object) }
            merged.refreshed.insert(object)
        }
        for id in deleted {
            guard let object = removeDeleted(id) else { continue }
            merged.removed.insert(object)
        }
        if !inserted.isEmpty { unloadToManysOfUnchangedObjects() }
        merged.added = Set(inserted.filter { !$0.isTemporaryID }.map { object(with: $0) })
        return merged
    }

    /// Marks the loaded to-many relationships of every registered object that holds values and
    /// has no changes unloaded, so their next read queries them again.
    private func unloadToManysOfUnchangedObjects() {
        for object in registry.values where object.faultState != .hollow && !object.changedFlag && !object.insertedFlag {
            for slot in object.engine.relationshipSlots where object.values[slot] is ToMany && object.engine.isRelationshipToMany(slot) {
                object.setLoadedValue(ToManyUnloaded.marker, at: slot, onlyOverUnloaded: false)
            }
        }
    }
}
#endif

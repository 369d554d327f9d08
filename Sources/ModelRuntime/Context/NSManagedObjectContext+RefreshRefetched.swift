#if !canImport(CoreData)
import ModelQuery

/// `shouldRefreshRefetchedObjects`: a fetch brings the objects it finds already loaded in the
/// context up to the store's current values (a child context's: its parent's), keeping their
/// unsaved changes, as `refresh(_:mergeChanges: true)` of each would. Objects the fetch loads for
/// the first time read the store's values anyway.
extension NSManagedObjectContext {
    /// Reloads the fetched objects that held values before the fetch (`loaded`, from
    /// ``ObjectGraph/objectsWithValues()``), keeping their changes (see
    /// ``ObjectGraph/reloadRefetched(_:loadedBefore:load:reloaded:)``); each gets
    /// `awake(fromSnapshotEvents: .refresh)` once reloaded.
    func refreshRefetched(_ objects: [NSManagedObject], loadedBefore loaded: Set<ObjectIdentifier>) {
        graph.reloadRefetched(objects, loadedBefore: loaded, load: loadRow(into:)) {
            // Its values were put back from the new snapshot (it stays loaded, so no
            // `awakeFromFetch()` follows).
            $0.awake(fromSnapshotEvents: .refresh)
        }
    }
}
#endif

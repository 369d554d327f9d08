#if !canImport(CoreData)
import ModelQuery

/// A context's objects and what it knows of them: the engine state under
/// `NSManagedObjectContext`, which is its façade (the public API, the queue, notifications and
/// the callbacks Core Data's classes make).
///
/// It holds which objects the context has (``registry``), which it inserted, deleted and changed
/// since the last save, what the last `NSManagedObjectContextObjectsDidChange` reported, and the
/// bookkeeping of saves (conflict checks, store choices, a merge policy's decisions) and of undo.
/// Its methods are the changes of that state; the context's methods check their arguments and the
/// queue, call these, then tell the objects and observers.
///
/// Used on the context's queue only (see docs/runtime/Safety.md); objects freed on other threads
/// reach only ``registry``, which has its own lock. The tables are `@exclusivity(unchecked)`:
/// one queue uses them, and no method changes a table while an access to it is under way (each
/// is read or written in one statement, or iterated over a copy).
final class ObjectGraph {
    /// What the graph's objects refer to their context through (see ``ContextAnchor``); an
    /// object is the graph's when it holds this anchor.
    let anchor = ContextAnchor()
    /// Objects by identity (store, table, key or temporary identity).
    let registry = ObjectRegistry()
    /// Objects inserted since the last save, by identity of the object.
    @exclusivity(unchecked) var inserted: [ObjectIdentifier: NSManagedObject] = [:]
    /// Stored objects deleted since the last save.
    @exclusivity(unchecked) var deleted: [ObjectIdentifier: NSManagedObject] = [:]
    /// Objects with changed values since the last save (inserted ones included).
    @exclusivity(unchecked) var changed: [ObjectIdentifier: NSManagedObject] = [:]
    /// What the last `NSManagedObjectContextObjectsDidChange` reported (see +ChangeReport).
    @exclusivity(unchecked) var processedChanges = ProcessedChanges()

    // MARK: Saves

    /// Objects whose rows the next save checks even when unchanged (`detectConflicts(for:)`).
    @exclusivity(unchecked) var conflictChecked: [ObjectIdentifier: NSManagedObject] = [:]
    /// Inserted objects given a store by `assign(_:to:)`, until they get their keys.
    @exclusivity(unchecked) var assignedStores: [ObjectIdentifier: NSPersistentStore] = [:]
    /// What the merge policy decided during the save under way (see +SaveResolution).
    @exclusivity(unchecked) var saveResolution: SaveResolution?

    // MARK: Undo

    /// What the undo manager last recorded of each object (see +Undo).
    @exclusivity(unchecked) var undoBaselines: [ObjectIdentifier: UndoBaseline] = [:]
    /// Stored objects whose deletion an undo took back since the last
    /// `processPendingChanges()`, which reports them inserted (see +Undo).
    @exclusivity(unchecked) var revivedObjects: [NSManagedObject] = []
}
#endif

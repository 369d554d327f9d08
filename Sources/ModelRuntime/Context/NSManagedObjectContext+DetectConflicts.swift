#if !canImport(CoreData)
import Foundation

extension NSManagedObjectContext {
    /// Marks `object` for conflict detection (Core Data's `detectConflicts(for:)`): the next
    /// save checks its row's `Z_OPT` even when the object is unchanged, so a row another context
    /// or process changed since the object was read is a merge conflict (133020 under
    /// `NSErrorMergePolicy`), as it is for a changed object. The mark lasts until a save
    /// succeeds, `rollback()` or `reset()`. A save with no changes checks nothing.
    public func detectConflicts(for object: NSManagedObject) {
        checkQueue()
        guard object.managedObjectContext === self else { return }
        conflictChecked[ObjectIdentifier(object)] = object
    }
}
#endif

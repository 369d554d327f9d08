#if !canImport(CoreData)
import ModelQuery

/// A fault whose row is gone (deleted by another context, or a stale object ID): Core Data's
/// `shouldDeleteInaccessibleFaults` (true unless set otherwise) turns it into a deleted object
/// whose properties read nil (scalars 0); when false, Core Data raises "could not fulfill a
/// fault", which Swift cannot catch — here the process stops with the same message.
extension NSManagedObjectContext {
    func handleInaccessibleFault(_ object: NSManagedObject) {
        guard shouldHandleInaccessibleFault(object, for: object.objectID, triggeredByProperty: nil) else {
            preconditionFailure("CoreData could not fulfill a fault for '\(object.objectID.uriRepresentation().absoluteString)'")
        }
        object.becomeInaccessible()
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// The one weak reference to a context that its objects share.
///
/// An object's `managedObjectContext` must become nil when the context is freed, as a weak
/// reference does. Every object holding its own weak reference would make each object's creation
/// form one (an atomic update of the context's side table) and each object's release destroy it;
/// instead each object holds its context's anchor strongly, an ordinary reference count, and the
/// anchor holds the context weakly. Nothing refers to an anchor weakly.
final class ContextAnchor: @unchecked Sendable {
    weak var context: NSManagedObjectContext?
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// What a fetch request can return (`NSFetchRequestResult`): managed objects, object IDs,
/// dictionaries and counts. In Objective-C the protocol conforms to itself, so code writes
/// `NSFetchRequest<NSFetchRequestResult>`; here `NSFetchRequest`'s result type is unconstrained,
/// so the same spelling compiles with the protocol's existential as the argument.
public protocol NSFetchRequestResult: NSObjectProtocol {}

extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
#endif

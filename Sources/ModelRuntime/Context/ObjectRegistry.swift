#if !canImport(CoreData)
import Foundation

/// The objects a context has registered, one per identity (``ObjectKey``: store, table and
/// primary key, or a temporary identity), so fetching or resolving an ID twice gives the same
/// object.
struct ObjectRegistry {
    private var objects: [ObjectKey: NSManagedObject] = [:]

    subscript(key: ObjectKey) -> NSManagedObject? {
        get { objects[key] }
        set { objects[key] = newValue }
    }

    @discardableResult
    mutating func removeValue(forKey key: ObjectKey) -> NSManagedObject? {
        objects.removeValue(forKey: key)
    }

    var values: Dictionary<ObjectKey, NSManagedObject>.Values { objects.values }

    var count: Int { objects.count }

    mutating func removeAll() { objects.removeAll() }

    /// Makes room for `additional` more objects, so registering a fetch's rows does not grow the
    /// table step by step.
    mutating func reserve(_ additional: Int) {
        objects.reserveCapacity(objects.count + additional)
    }
}
#endif

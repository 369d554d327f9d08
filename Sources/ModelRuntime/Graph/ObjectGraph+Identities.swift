#if !canImport(CoreData)
import ModelQuery

/// Objects taking new IDs, and their registration following: inserted objects given permanent
/// IDs from their keys, an inserted object becoming a stored row's object, an object whose row
/// turned out missing.
extension ObjectGraph {
    /// Gives the inserted `object` the permanent ID of the row with `key` in `root`'s table of
    /// `store`. Objects nobody asked the ID of get none: their keys are listed in order in
    /// `keys` (made when first needed), as a fetch's are, and each object's permanent ID is made
    /// from its key when asked for. They are registered as a fetch's rows are (see
    /// ObjectRegistry).
    @inline(__always)
    func givePermanentID(to object: NSManagedObject, key: Int64, root: Int, store: NSPersistentStore, keys: inout FetchBatches?) {
        if object.hasID {
            registry.removeValue(forKey: ObjectKey(object.id))
            // The temporary ID's number keeps the object's place in insertion order
            // (a save that fails and is tried again writes in the same order).
            if object.insertionNumber == 0, let number = object.idStorage?.insertionNumber, number != 0 {
                object.insertionNumber = number
            }
            object.id = NSManagedObjectID(entity: object.engine.description, rootEntityNumber: root, key: .permanent(key), store: store)
            register(object)
        } else {
            if keys == nil { keys = FetchBatches(keysOf: store, entity: object.engine) }
            registry.register(object, row: ObjectKey(store: store, root: root, primaryKey: key), in: keys!)
        }
    }

    /// The inserted `object` becomes the object of `stored`'s row (with the row's `key` in
    /// `store`): `stored`, when it is the graph's, leaves it, and `object` is no longer inserted
    /// and is registered by the row's ID. Its values are the caller's to settle.
    func adopt(_ stored: NSManagedObject, by object: NSManagedObject, key: Int64, store: NSPersistentStore) {
        if contains(stored) {
            stored.anchor = nil
            changed.removeValue(forKey: ObjectIdentifier(stored))
        }
        if let registered = object.registryKey { registry.removeValue(forKey: registered) }
        inserted.removeValue(forKey: ObjectIdentifier(object))
        object.id = NSManagedObjectID(entity: object.entity, rootEntityNumber: object.engine.rootNumber, key: .permanent(key), store: store)
        register(object)
        object.insertedFlag = false
    }

    /// Forgets the object registered under `id`, whose row the store does not have.
    func unregister(_ id: NSManagedObjectID) {
        registry.removeValue(forKey: ObjectKey(id))
    }
}
#endif

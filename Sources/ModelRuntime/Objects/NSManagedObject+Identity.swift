#if !canImport(CoreData)
import ModelQuery

/// An object's identity: its ID (made on demand), row location, registry key and context.
extension NSManagedObject {
    var idStorage: NSManagedObjectID? {
        get {
            if case .state(let held) = body { return held._withUnsafeGuaranteedRef { $0.fields.pointee.idStorage } }
            return nil
        }
        set {
            if newValue == nil, !hasState { return }
            state.fields.pointee.idStorage = newValue
        }
    }
    /// The object's ID, made on first use: a fetched object's permanent ID from its fetch's key
    /// list (``batches``), else a temporary one (numbered by the object's ``insertionNumber``
    /// when it has one). Objects made from a key alone (a to-one's destination, `object(with:)`)
    /// get their permanent ID at once; inserted objects nobody asks for before they are saved
    /// never make a temporary one. An inserted object is registered in its context under its
    /// temporary ID when the ID is made.
    var id: NSManagedObjectID {
        get {
            if let idStorage { return idStorage }
            let made: NSManagedObjectID
            if let batches {
                made = batches.objectID(at: Int(batchPosition), entity: engine)
            } else {
                let number = insertionNumber != 0 ? insertionNumber : TemporaryIdentity.next()
                made = NSManagedObjectID(
                    entity: entityDescription, rootEntityNumber: engine.rootNumber, key: .temporary(number), store: nil)
            }
            idStorage = made
            if insertedFlag, let context { context.graph.register(self) }
            return made
        }
        set { idStorage = newValue }
    }

    /// The store and primary key of the object's row, without making its ID; nil until saved.
    var rowLocation: (store: NSPersistentStore, key: Int64)? {
        if let idStorage {
            guard let store = idStorage.persistentStore, let key = idStorage.primaryKey else { return nil }
            return (store, key)
        }
        if let batches, let store = batches.store { return (store, batches.keys[Int(batchPosition)]) }
        return nil
    }
    /// The primary key of the object's row, without making its ID (``rowLocation`` without the
    /// store): writing a save's rows asks this for every object and every to-one destination, so
    /// objects saved for the first time need no ID object unless someone asks for their
    /// `objectID`.
    var rowKey: Int64? {
        if let idStorage { return idStorage.primaryKey }
        if let batches { return batches.keys[Int(batchPosition)] }
        return nil
    }
    /// The ``NSPersistentStore/registryNumber`` of the object's store, without making its ID; 0
    /// while it has none.
    var storeNumber: UInt32 { idStorage?.storeNumber ?? batches?.storeNumber ?? 0 }
    /// Whether the object has an ID yet, or a fetch to make its permanent one from (either way it
    /// may be registered).
    var hasID: Bool { idStorage != nil || batches != nil }
    /// The order new rows get their keys in: insertion order.
    var insertionOrder: UInt64 { insertionNumber != 0 ? insertionNumber : (idStorage?.insertionNumber ?? 0) }
    /// The object's context, through the context's ``ContextAnchor``: the object holds the
    /// anchor strongly (a plain reference count) and the anchor holds the context weakly, so
    /// setting the context does not form a weak reference per object.
    var context: NSManagedObjectContext? {
        get { anchor?.context }
        set { anchor = newValue?.anchor }
    }
    var anchor: ContextAnchor? {
        get {
            switch body {
            case .state(let held): return held._withUnsafeGuaranteedRef { $0.fields.pointee.anchor }
            case .hollow(let batches): return batches.anchor
            case .bare: return nil
            }
        }
        set {
            switch body {
            case .state(let held): held._withUnsafeGuaranteedRef { $0.fields.pointee.anchor = newValue }
            case .hollow(let batches): if batches.anchor !== newValue { state.fields.pointee.anchor = newValue }
            case .bare: if newValue != nil { _ = makeState(values: true, bareAnchor: newValue) }
            }
        }
    }

    /// The key the object is registered under in its context, without making its ID.
    var registryKey: ObjectKey? {
        if let idStorage { return ObjectKey(idStorage) }
        if let batches { return batches.key(at: Int(batchPosition), root: engine.rootNumber) }
        return nil
    }
}
#endif

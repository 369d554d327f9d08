#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Faults fulfilled, to-manys and prefetches: from the stores through ``StoreFetch``, or, in a
/// child context, from the parent context.
extension NSManagedObjectContext {
    /// Loads the values of the objects a child context's fetch left hollow from the parent (see
    /// ``StoreFetch/materialize(_:shape:entity:store:asFault:maker:keys:)``); called without the
    /// coordinator's lock held.
    func loadFromParent(_ objects: [NSManagedObject], asFault: Bool) {
        guard let parent = parentContext else { return }
        for object in objects where object.faultState == .hollow {
            _ = loadFromParent(parent, into: object)
            if !asFault, object.faultState == .fault { object.fireFault() }
        }
    }

    /// Loads the row of a hollow object; false when the store has no such row.
    @discardableResult
    func loadRow(into object: NSManagedObject) -> Bool {
        if let parent { return loadFromParent(parent, into: object) }
        return storeFetch.loadRow(into: object)
    }

    /// A child context reads objects from its parent: the parent's current values, unsaved
    /// changes included, taken by the parent's graph on the parent's queue (a hollow object there
    /// loads its row as the parent loads rows) and loaded into `object` by this context's graph.
    func loadFromParent(_ parent: NSManagedObjectContext, into object: NSManagedObject) -> Bool {
        let id = object.id
        let values = parent.performAndWait { parent.graph.valuesForChild(of: id, loadRow: { parent.loadRow(into: $0) }) }
        return graph.load(values, into: object)
    }

    /// Called when a hollow object is first used.
    func fulfillFault(_ object: NSManagedObject) {
        let found = parent == nil ? storeFetch.fulfill(object) : loadRow(into: object)
        if !found { handleInaccessibleFault(object) }
    }

    /// The objects of a to-many relationship: from the store, or in a child context, the
    /// parent's (read on the parent's queue).
    func loadToMany(of object: NSManagedObject, slot: Int) -> [NSManagedObject] {
        if let parent {
            let id = object.id
            let ids = parent.performAndWait { parent.graph.toManyForChild(of: id, slot: slot, loadRow: { parent.loadRow(into: $0) }) }
            return graph.toManyFromParent(ids)
        }
        return storeFetch.toMany(of: object, slot: slot)
    }

    /// Loads the destinations of `keyPaths` (relationship names) for `objects` with one query per
    /// relationship and entity, not one per object (see ``StoreFetch/prefetch(_:of:)``); a child
    /// context then loads each relationship's destinations from its parent.
    func prefetch(_ keyPaths: [String], of objects: [NSManagedObject]) throws {
        guard parent != nil else { return try storeFetch.prefetch(keyPaths, of: objects) }
        for keyPath in keyPaths { try loadHollow(StoreFetch.destinations(of: keyPath, for: objects)) }
    }

    /// Loads every hollow object of `objects` with one `IN` query per table and store; returns
    /// the number of queries run.
    @discardableResult
    func loadHollow(_ objects: [NSManagedObject]) throws -> Int {
        var leftForParent: [NSManagedObject] = []
        // A child context's objects are loaded from its parent after the lock is released.
        defer { loadFromParent(leftForParent, asFault: true) }
        return try storeFetch.loadHollow(objects, leftForParent: &leftForParent)
    }
}
#endif

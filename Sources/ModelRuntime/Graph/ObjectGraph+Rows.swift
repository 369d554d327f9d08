#if !canImport(CoreData)
import ModelQuery

/// The object for a stored row: the registered one, or a new hollow one the graph registers.
/// Fetches, faults, to-manys and the save (a uniqueness conflict's stored row) all find their
/// objects here.
extension ObjectGraph {
    /// Makes the hollow objects of one fetch, looking each entity's class up once.
    struct HollowObjectMaker {
        /// Unretained: a maker lives within one call of a context or graph method, and a fetch
        /// makes one object per row (a retain and release of the graph per row is avoided).
        unowned(unsafe) let graph: ObjectGraph
        /// The graph's anchor, which the objects take (setting an object's context would retain
        /// the context, whose weak references give it a side table: a slow retain and release).
        private let anchor: ContextAnchor
        private var lastEntity: EngineEntity?
        private var lastType: NSManagedObject.Type = NSManagedObject.self
        /// The making thread's ``EngineHandoff`` slot (a maker is used on one thread, within one
        /// call).
        private let handoff = EngineHandoff.slot()

        init(graph: ObjectGraph) {
            self.graph = graph
            anchor = graph.anchor
        }

        /// A hollow object of `entity` in the graph's context, neither registered nor given an
        /// ID; with `values`, with room for the values its row is read into next (else a state
        /// for its ID and context alone, as an object referred to but not loaded needs).
        mutating func make(_ entity: EngineEntity, values: Bool) -> NSManagedObject {
            if lastEntity !== entity {
                lastType = ClassRegistry.objectClass(for: entity.description)
                lastEntity = entity
            }
            let type = lastType
            let object = EngineHandoff.offering(entity, in: handoff) { type.init(entity: entity.description, insertInto: nil) }
            if values { object.anchor = anchor } else { object.adoptWithoutValues(anchor) }
            object.faultState = .hollow
            return object
        }

        /// A hollow object of `entity` at `position` of the batched fetch `batches`, with no
        /// state of its own (it reaches the context through the fetch), not yet registered.
        mutating func makeHollow(_ entity: EngineEntity, in batches: FetchBatches, at position: Int) -> NSManagedObject {
            if lastEntity !== entity {
                lastType = ClassRegistry.objectClass(for: entity.description)
                lastEntity = entity
            }
            let type = lastType
            let object = EngineHandoff.offering(entity, in: handoff) { type.init(entity: entity.description, insertInto: nil) }
            object.makeHollow(in: batches, position: Int32(position))
            return object
        }
    }

    /// The object with `id`: the registered one, or a new hollow one the graph registers, which
    /// loads its row when first used.
    func object(with id: NSManagedObjectID) -> NSManagedObject {
        if let object = registry[ObjectKey(id)] { return object }
        return fault(for: id)
    }

    /// A new hollow object for `id`, registered.
    func fault(for id: NSManagedObjectID) -> NSManagedObject {
        let type = ClassRegistry.objectClass(for: id.entity)
        let object = type.init(entity: id.entity, insertInto: nil)
        object.id = id
        object.anchor = anchor
        object.faultState = .hollow
        register(object)
        return object
    }

    /// Takes back a fault made by ``fault(for:)`` whose row the store does not have: it leaves
    /// the registry and the context.
    func discardFault(_ object: NSManagedObject) {
        unregister(object.id)
        object.anchor = nil
    }

    /// The registered object for a row, or a new hollow one.
    func object(entity: EngineEntity, primaryKey: Int64, store: NSPersistentStore) -> NSManagedObject {
        var maker = HollowObjectMaker(graph: self)
        return object(entity: entity, primaryKey: primaryKey, store: store, maker: &maker)
    }

    /// The registered object for a row, or a new hollow one made by `maker` (with room for
    /// values when the row is read next, `values`); a new object's ID is made now, or from
    /// `keys` when first asked for.
    func object(
        entity: EngineEntity, primaryKey: Int64, store: NSPersistentStore, maker: inout HollowObjectMaker, keys: FetchBatches? = nil,
        values: Bool = false
    ) -> NSManagedObject {
        let key = ObjectKey(store: store, root: entity.rootNumber, primaryKey: primaryKey)
        if let existing = registry.object(for: key, excluding: keys) { return existing }
        let object = maker.make(entity, values: values)
        if let keys {
            registry.register(object, row: key, in: keys)
        } else {
            object.id = NSManagedObjectID(
                entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(primaryKey), store: store)
            registry[key] = object
        }
        return object
    }
}
#endif

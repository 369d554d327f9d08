#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A request's rows read into objects: all at once, or as keys whose rows are read a batch at
/// a time (``FetchBatches``).
extension StoreFetch {
    /// The objects of the rows `plan` selects in the stores the request affects, in row order.
    /// With `idsOnly` the rows are keys and new objects stay hollow; else a new object carries
    /// its row's values (unless they come from a parent, see ``valuesFromParent``) and is fired
    /// unless the request returns objects as faults.
    func objects<T>(_ request: NSFetchRequest<T>, plan: FetchPlan, entity: EngineEntity, idsOnly: Bool) throws -> [NSManagedObject] {
        let shape = plan.shape
        var objects: [NSManagedObject] = []
        let model = entity.model
        var maker = ObjectGraph.HollowObjectMaker(graph: graph)
        let asFault = request.returnsObjectsAsFaults
        try withStores(for: request) { store in
            let statement = try readConnection(store).cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            // New objects get their IDs from these keys when asked (most never are).
            let keys = idsOnly ? nil : FetchBatches(keysOf: store, entity: entity)
            while try statement.step() {
                let number = Int(statement.int64(at: shape.entityNumber))
                let rowEntity = number == entity.number ? entity : model?.entity(number: number) ?? entity
                if let keys {
                    objects.append(
                        materialize(statement, shape: shape, entity: rowEntity, store: store, asFault: asFault, maker: &maker, keys: keys))
                } else {
                    objects.append(
                        graph.object(entity: rowEntity, primaryKey: statement.int64(at: shape.primaryKey), store: store, maker: &maker))
                }
            }
        }
        return objects
    }

    /// A fetch with a `fetchBatchSize`: the keys in order now, each batch's rows when one of its
    /// objects is first read (see ``FetchBatches``).
    func objectsInBatches<T>(_ request: NSFetchRequest<T>, entity: EngineEntity) throws -> [NSManagedObject] {
        let plan = try FetchPlan(request: request, entity: entity, selection: .objectIDs, paged: true)
        let shape = plan.shape
        let model = entity.model
        var keys = RowKeys()
        // The entity of every row, kept only once a row of another entity shows up.
        var entities: [EngineEntity]?
        var source: NSPersistentStore?
        try withStores(for: request) { store in
            source = store
            let statement = try readConnection(store).cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            while try statement.step() {
                let number = Int(statement.int64(at: shape.entityNumber))
                if number != entity.number || entities != nil {
                    if entities == nil { entities = Array(repeating: entity, count: keys.count) }
                    entities!.append(model?.entity(number: number) ?? entity)
                }
                keys.append(statement.int64(at: shape.primaryKey))
            }
        }
        guard let source, !keys.isEmpty else { return [] }
        let keyPaths = (request.relationshipKeyPathsForPrefetching ?? []).filter { !$0.isEmpty }
        let batches = FetchBatches(
            size: request.fetchBatchSize, store: source, keys: keys, entities: entities, entity: entity, prefetchKeyPaths: keyPaths,
            anchor: graph.anchor)
        // The objects are hollow and have no ID yet: a row's key is all they need until used.
        // They are registered by position in `batches` (see ObjectRegistry).
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(keys.count)
        var maker = ObjectGraph.HollowObjectMaker(graph: graph)
        for position in keys.indices {
            let rowEntity = batches.entity(at: position)
            let key = ObjectKey(store: source, root: rowEntity.rootNumber, primaryKey: keys[position])
            // The fetch's own rows are distinct: it is not asked (which would index its keys).
            if let existing = graph.registry.object(for: key, excluding: batches) {
                if existing.faultState == .hollow { graph.registry.register(existing, in: batches, at: position) }
                objects.append(existing)
                continue
            }
            let object = maker.makeHollow(rowEntity, in: batches, at: position)
            graph.registry.register(object, in: batches, at: position)
            objects.append(object)
        }
        if !request.returnsObjectsAsFaults, objects[0].faultState == .hollow {
            batches.load(position: 0, with: self)
        }
        return objects
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension NSManagedObjectContext {
    /// Runs a fetch request in the stores (its predicate and sorts as SQL), merging the
    /// context's unsaved inserts and deletes when `includesPendingChanges` is set.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        checkQueue()
        let entity = try engineEntity(of: request)
        if let type = T.self as? NSManagedObject.Type { ClassRegistry.note(type, for: entity.description) }
        try DictionaryGrouping.checkResultType(of: request)
        switch request.resultType {
        case .countResultType:
            return try Self.typed([NSNumber(value: try count(for: request))])
        case .managedObjectIDResultType:
            return try Self.typed(try fetchObjects(request, entity: entity, idsOnly: true).map(\.objectID))
        case .dictionaryResultType:
            return try Self.typed(try fetchDictionaries(request, entity: entity))
        default:
            guard request.shouldRefreshRefetchedObjects else {
                return try Self.typed(try fetchObjects(request, entity: entity, idsOnly: false))
            }
            let loaded = objectsWithValues()
            let objects = try fetchObjects(request, entity: entity, idsOnly: false)
            refreshRefetched(objects, loadedBefore: loaded)
            return try Self.typed(objects)
        }
    }

    /// The results as `[T]`: one cast of the whole array (free when `T` is the results' own
    /// class), or an error naming the first result that is not a `T`.
    private static func typed<R: AnyObject, T>(_ results: [R]) throws -> [T] {
        if T.self == R.self { return unsafeBitCast(results, to: [T].self) }
        if let typed = results as? [T] { return typed }
        let wrong = results.first { !($0 is T) }.map { String(describing: type(of: $0)) } ?? String(describing: R.self)
        throw CoreDataError.make(NSCoreDataError, "A fetch result of type \(wrong) is not a \(T.self)")
    }

    /// The number of objects the request would return.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        checkQueue()
        let entity = try engineEntity(of: request)
        let plan = try FetchPlan(request: request, entity: entity, selection: .count, paged: false)
        var total = 0
        try withStores(for: request) { store in
            let statement = try readConnection(store).cachedStatement(plan.sql.sql)
            plan.bind(statement)
            if try statement.step() { total += Int(statement.int64(at: 0)) }
            statement.reset()
        }
        if let exact = try countWithPendingChanges(for: request, entity: entity, storeCount: total) { return exact }
        total = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
    }

    func engineEntity<T>(of request: NSFetchRequest<T>) throws -> EngineEntity {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSCoreDataError, "The context has no persistent store coordinator")
        }
        let model = coordinator.engineModel
        if let entity = request.entity, let found = model.entity(for: entity) { return found }
        guard let name = request.entityName, let found = model.entity(named: name) else {
            throw CoreDataError.make(NSCoreDataError, "The model has no entity named '\(request.entityName ?? "")'")
        }
        return found
    }

    func withStores<T>(for request: NSFetchRequest<T>, _ body: (NSPersistentStore) throws -> Void) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        try coordinator.locked {
            for store in request.affectedStores ?? coordinator.persistentStores {
                try store.engine.wrap { try body(store) }
            }
        }
    }

    private func fetchObjects<T>(_ request: NSFetchRequest<T>, entity: EngineEntity, idsOnly: Bool) throws -> [NSManagedObject] {
        let ancestors =
            parent == nil
            ? AncestorChanges()
            : ancestorChanges(covering: { request.includesSubentities ? entity.entityNumbers.contains($0.number) : $0 === entity })
        let pending = request.includesPendingChanges && hasPendingChanges(for: entity, request: request) || !ancestors.isEmpty
        let paged = !pending && (persistentStoreCoordinator?.persistentStores.count ?? 0) <= 1
        if request.fetchBatchSize > 0, !idsOnly, paged, parent == nil {
            return try fetchInBatches(request, entity: entity)
        }
        let plan = try FetchPlan(request: request, entity: entity, selection: idsOnly ? .objectIDs : .rows, paged: paged)
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
        if !idsOnly { loadFromParent(objects, asFault: asFault) }
        if !ancestors.isEmpty { applyAncestorChanges(ancestors, to: &objects, predicate: request.predicate) }
        if pending && request.includesPendingChanges {
            let predicate = request.predicate
            objects.removeAll { $0.deletedFlag || ($0.changedFlag && !(predicate?.evaluate(with: $0) ?? true)) }
            var seen = Set(objects.map(ObjectIdentifier.init))
            for object in graph.changed.values where !object.deletedFlag && !object.insertedFlag && plan.covers(object.engine) {
                if !seen.contains(ObjectIdentifier(object)), predicate?.evaluate(with: object) ?? true {
                    objects.append(object)
                    seen.insert(ObjectIdentifier(object))
                }
            }
            for object in graph.inserted.values where !object.deletedFlag && plan.covers(object.engine) {
                if predicate?.evaluate(with: object) ?? true { objects.append(object) }
            }
        }
        if !paged {
            if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
                objects.sort { NSSortDescriptor.compare($0, $1, by: descriptors) == .orderedAscending }
            }
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        if !idsOnly, let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            try prefetch(keyPaths, of: objects)
        }
        return objects
    }

    /// A fetch with a `fetchBatchSize`: the keys in order now, each batch's rows when one of its
    /// objects is first read (see ``FetchBatches``).
    private func fetchInBatches<T>(_ request: NSFetchRequest<T>, entity: EngineEntity) throws -> [NSManagedObject] {
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
            anchor: anchor)
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
            batches.load(position: 0, in: self)
        }
        return objects
    }

    private func hasPendingChanges<T>(for entity: EngineEntity, request: NSFetchRequest<T>) -> Bool {
        let family = entity.entityNumbers
        return graph.inserted.values.contains { family.contains($0.engine.number) }
            || graph.deleted.values.contains { family.contains($0.engine.number) }
            || graph.changed.values.contains { family.contains($0.engine.number) }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Rows become objects: a row's values read into an object (the object for a row is the
/// graph's, see ObjectGraph+Rows), faults filled from their rows, to-manys and prefetches.
extension StoreFetch {
    /// The object for the current row of `statement` (columns in ``EngineEntity/selectColumns``
    /// order), its values filled when it had none.
    func materialize(
        _ statement: Statement, shape: RowShape, entity: EngineEntity, store: NSPersistentStore, asFault: Bool,
        maker: inout ObjectGraph.HollowObjectMaker, keys: FetchBatches? = nil
    ) -> NSManagedObject {
        let object = graph.object(
            entity: entity, primaryKey: statement.int64(at: shape.primaryKey), store: store, maker: &maker, keys: keys, values: true)
        // A child context's new object stays hollow here: its values come from the parent, on
        // the parent's queue, which must not be waited for while the coordinator's lock is held
        // (the parent may be waiting for that lock in a fetch or save of its own). The caller
        // loads it from the parent once the lock is released (see docs/runtime/Safety.md,
        // "Lock order").
        if object.faultState == .hollow, !valuesFromParent {
            fill(object, from: statement, shape: shape, store: store, maker: &maker)
            object.faultState = .fault
        }
        if !asFault, object.faultState == .fault { object.fireFault() }
        return object
    }

    /// Reads the row's values into the object's slots and makes them its committed values.
    func fill(
        _ object: NSManagedObject, from statement: Statement, shape: RowShape? = nil, store: NSPersistentStore,
        maker: inout ObjectGraph.HollowObjectMaker
    ) {
        object.readRow(statement, shape: shape ?? object.engine.tableShape, store: store, maker: &maker)
    }

    /// Loads the row of a hollow object from its store; false when the store has no such row.
    @discardableResult
    func loadRow(into object: NSManagedObject) -> Bool {
        guard let (store, key) = object.rowLocation, let coordinator else { return false }
        let entity = object.engine
        let found: Bool = coordinator.locked {
            guard let statement = try? readConnection(store).cachedStatement(entity.selectByKeySQL) else { return false }
            defer { statement.reset() }
            statement.bind(key, at: 1)
            guard (try? statement.step()) == true else { return false }
            var maker = ObjectGraph.HollowObjectMaker(graph: graph)
            fill(object, from: statement, store: store, maker: &maker)
            return true
        }
        if object.faultState == .hollow { object.faultState = found ? .fault : .materialized }
        return found
    }

    /// Loads a hollow object on its first use: an object of a batched fetch with its whole batch
    /// (the batches far from it let go, see ``FetchBatches/load(position:with:)``), else alone.
    /// False when the store has no row for it.
    func fulfill(_ object: NSManagedObject) -> Bool {
        guard let batches = object.batches, batches.isPaging else { return loadRow(into: object) }
        let state = object.faultState
        object.faultState = .hollow
        batches.load(position: Int(object.batchPosition), with: self)
        if object.faultState == .hollow, !loadRow(into: object) { return false }
        // Loaded with its batch or alone: back to the state it was fulfilled from.
        if object.faultState != .hollow { object.faultState = state }
        return true
    }

    /// The objects of a to-many relationship, from the store.
    func toMany(of object: NSManagedObject, slot: Int) -> [NSManagedObject] {
        guard let store = object.id.persistentStore, let key = object.id.primaryKey, let coordinator,
            let sql = object.engine.toManySQL[slot], let destination = object.engine.destinations[slot]
        else { return [] }
        var result: [NSManagedObject] = []
        coordinator.locked {
            guard let statement = try? readConnection(store).cachedStatement(sql) else { return }
            defer { statement.reset() }
            statement.bind(key, at: 1)
            while (try? statement.step()) == true {
                let entity = destination.model?.entity(number: Int(statement.int64(at: 1))) ?? destination
                result.append(graph.object(entity: entity, primaryKey: statement.int64(at: 0), store: store))
            }
        }
        return result.filter { !$0.deletedFlag }
    }

    /// Loads the destinations of `keyPaths` (relationship names) for `objects` with one query per
    /// relationship and entity, not one per object. For values read from the stores (not
    /// ``valuesFromParent``): a child context's prefetch loads each relationship's destinations
    /// from its parent after its queries (see NSManagedObjectContext+Faults).
    func prefetch(_ keyPaths: [String], of objects: [NSManagedObject]) throws {
        var leftForParent: [NSManagedObject] = []
        for keyPath in keyPaths {
            try loadHollow(Self.destinations(of: keyPath, for: objects), leftForParent: &leftForParent)
        }
    }

    /// The objects `keyPath`'s first relationship leads to from `objects`: a to-one's object, a
    /// to-many's objects when not loaded yet (which loads them).
    static func destinations(of keyPath: String, for objects: [NSManagedObject]) -> [NSManagedObject] {
        let name = String(keyPath.split(separator: ".").first ?? "")
        var destinations: [NSManagedObject] = []
        for object in objects {
            guard let slot = object.engine.slotsByName[name] else { continue }
            if object.engine.isRelationshipToMany(slot) {
                if object.values[slot] is ToManyUnloaded {
                    destinations += object.loadedToMany(slot).objects
                }
            } else if let destination = object.values[slot] as? NSManagedObject {
                destinations.append(destination)
            }
        }
        return destinations
    }

    /// Loads every hollow object of `objects` with one `IN` query per table and store; returns
    /// the number of queries run. When the values come from a parent, the objects queried stay
    /// hollow and are put in `leftForParent` before any query runs, for the caller to load from
    /// the parent once the lock is released (also when a query throws).
    @discardableResult
    func loadHollow(_ objects: [NSManagedObject], leftForParent: inout [NSManagedObject]) throws -> Int {
        var groups: [ObjectIdentifier: (store: NSPersistentStore, entity: EngineEntity, objects: [(NSManagedObject, Int64)])] = [:]
        for object in objects where object.faultState == .hollow {
            guard let (store, key) = object.rowLocation, let root = object.engine.model?.entity(number: object.engine.rootNumber)
            else { continue }
            groups[ObjectIdentifier(root), default: (store, root, [])].objects.append((object, key))
        }
        guard let coordinator else { return 0 }
        var queries = 0
        if valuesFromParent { leftForParent = groups.values.flatMap { $0.objects.map(\.0) } }
        for group in groups.values {
            for chunk in stride(from: 0, to: group.objects.count, by: 500).map({
                Array(group.objects[$0..<min($0 + 500, group.objects.count)])
            }) {
                let sql = group.entity.selectSQL + " WHERE t.Z_PK IN (" + chunk.map { _ in "?" }.joined(separator: ", ") + ")"
                try coordinator.locked {
                    try SQLiteStoreEngine.wrap {
                        let statement = try readConnection(group.store).cachedStatement(sql)
                        defer { statement.reset() }
                        queries += 1
                        for (offset, (_, key)) in chunk.enumerated() { statement.bind(key, at: Int32(offset + 1)) }
                        var maker = ObjectGraph.HollowObjectMaker(graph: graph)
                        let model = group.entity.model
                        while try statement.step() {
                            let entity = model?.entity(number: Int(statement.int64(at: 1))) ?? group.entity
                            _ = materialize(
                                statement, shape: entity.tableShape, entity: entity, store: group.store, asFault: true, maker: &maker)
                        }
                    }
                }
            }
        }
        return queries
    }
}
#endif

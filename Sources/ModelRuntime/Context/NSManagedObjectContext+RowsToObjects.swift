#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Rows become objects: a row's values read into an object (the object for a row is the
/// graph's, see ObjectGraph+Rows), faults fulfilled from the store or the parent context,
/// to-manys and prefetches.
extension NSManagedObjectContext {
    /// The object for the current row of `statement` (columns in ``EngineEntity/selectColumns``
    /// order), its values filled when it had none.
    func materialize(_ statement: Statement, shape: RowShape, entity: EngineEntity, store: NSPersistentStore, asFault: Bool)
        -> NSManagedObject
    {
        var maker = ObjectGraph.HollowObjectMaker(graph: graph)
        return materialize(statement, shape: shape, entity: entity, store: store, asFault: asFault, maker: &maker)
    }

    func materialize(
        _ statement: Statement, shape: RowShape, entity: EngineEntity, store: NSPersistentStore, asFault: Bool,
        maker: inout ObjectGraph.HollowObjectMaker, keys: FetchBatches? = nil
    ) -> NSManagedObject {
        let object = graph.object(
            entity: entity, primaryKey: statement.int64(at: shape.primaryKey), store: store, maker: &maker, keys: keys, values: true)
        // A child context's new object stays hollow here: its values come from the parent, on
        // the parent's queue, which must not be waited for while the coordinator's lock is held
        // (the parent may be waiting for that lock in a fetch or save of its own). The caller
        // loads it with ``loadFromParent(_:asFault:)`` once the lock is released (see
        // docs/runtime/Safety.md, "Lock order").
        if object.faultState == .hollow, parentContext == nil {
            fill(object, from: statement, shape: shape, store: store, maker: &maker)
            object.faultState = .fault
        }
        if !asFault, object.faultState == .fault { object.fireFault() }
        return object
    }

    /// Loads the values of the objects a child context's ``materialize(_:shape:entity:store:asFault:maker:keys:)``
    /// left hollow from the parent; called without the coordinator's lock held.
    func loadFromParent(_ objects: [NSManagedObject], asFault: Bool) {
        guard let parent = parentContext else { return }
        for object in objects where object.faultState == .hollow {
            _ = loadFromParent(parent, into: object)
            if !asFault, object.faultState == .fault { object.fireFault() }
        }
    }

    /// Reads the row's values into the object's slots and makes them its committed values.
    func fill(_ object: NSManagedObject, from statement: Statement, shape: RowShape? = nil, store: NSPersistentStore) {
        var maker = ObjectGraph.HollowObjectMaker(graph: graph)
        fill(object, from: statement, shape: shape, store: store, maker: &maker)
    }

    func fill(
        _ object: NSManagedObject, from statement: Statement, shape: RowShape? = nil, store: NSPersistentStore,
        maker: inout ObjectGraph.HollowObjectMaker
    ) {
        object.readRow(statement, shape: shape ?? object.engine.tableShape, store: store, maker: &maker)
    }

    /// Loads the row of a hollow object; false when the store has no such row.
    @discardableResult
    func loadRow(into object: NSManagedObject) -> Bool {
        if let parent { return loadFromParent(parent, into: object) }
        guard let (store, key) = object.rowLocation, let coordinator = persistentStoreCoordinator else { return false }
        let entity = object.engine
        let found: Bool = coordinator.locked {
            guard let statement = try? readConnection(store).cachedStatement(entity.selectByKeySQL) else { return false }
            defer { statement.reset() }
            statement.bind(key, at: 1)
            guard (try? statement.step()) == true else { return false }
            fill(object, from: statement, store: store)
            return true
        }
        if object.faultState == .hollow { object.faultState = found ? .fault : .materialized }
        return found
    }

    /// A child context reads objects from its parent: the parent's current values, unsaved
    /// changes included.
    func loadFromParent(_ parent: NSManagedObjectContext, into object: NSManagedObject) -> Bool {
        let id = object.id
        let taken: (values: [(slot: Int, value: Snapshot.Value)], version: Int64)? = parent.performAndWait {
            let source = parent.object(with: id)
            if source.faultState == .hollow, !parent.loadRow(into: source) { return nil }
            return (Snapshot.take(source, slots: nil), source.version)
        }
        guard let taken else {
            if object.faultState == .hollow { object.faultState = .materialized }
            return false
        }
        Snapshot.apply(taken.values, to: object, in: self)
        object.commitValues()
        object.version = taken.version
        if object.faultState == .hollow { object.faultState = .fault }
        return true
    }

    /// Called when a hollow object is first used.
    func fulfillFault(_ object: NSManagedObject) {
        if let batches = object.batches, batches.isPaging, parent == nil {
            let state = object.faultState
            object.faultState = .hollow
            batches.load(position: Int(object.batchPosition), in: self)
            if object.faultState == .hollow, !loadRow(into: object) { return handleInaccessibleFault(object) }
            if object.faultState != .hollow { object.faultState = state }
            return
        }
        if !loadRow(into: object) { handleInaccessibleFault(object) }
    }

    /// The objects of a to-many relationship, from the store.
    func loadToMany(of object: NSManagedObject, slot: Int) -> [NSManagedObject] {
        if let parent {
            let id = object.id
            let ids: [NSManagedObjectID] = parent.performAndWait {
                let source = parent.object(with: id)
                if source.faultState == .hollow, !parent.loadRow(into: source) { return [] }
                return source.loadedToMany(slot).objects.map(\.id)
            }
            return ids.map { self.object(with: $0) }.filter { !$0.deletedFlag }
        }
        guard let store = object.id.persistentStore, let key = object.id.primaryKey, let coordinator = persistentStoreCoordinator,
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
    /// relationship and entity, not one per object.
    func prefetch(_ keyPaths: [String], of objects: [NSManagedObject]) throws {
        for keyPath in keyPaths {
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
            try loadHollow(destinations)
        }
    }

    /// Loads every hollow object of `objects` with one `IN` query per table and store; returns
    /// the number of queries run.
    @discardableResult
    func loadHollow(_ objects: [NSManagedObject]) throws -> Int {
        var groups: [ObjectIdentifier: (store: NSPersistentStore, entity: EngineEntity, objects: [(NSManagedObject, Int64)])] = [:]
        for object in objects where object.faultState == .hollow {
            guard let (store, key) = object.rowLocation, let root = object.engine.model?.entity(number: object.engine.rootNumber)
            else { continue }
            groups[ObjectIdentifier(root), default: (store, root, [])].objects.append((object, key))
        }
        guard let coordinator = persistentStoreCoordinator else { return 0 }
        var queries = 0
        // A child context's objects are loaded from its parent after the lock is released.
        defer { loadFromParent(groups.values.flatMap { $0.objects.map(\.0) }, asFault: true) }
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

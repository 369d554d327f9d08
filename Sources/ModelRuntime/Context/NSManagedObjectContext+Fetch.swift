#if !canImport(CoreData)
import Foundation
import ModelStore

extension NSManagedObjectContext {
    /// Runs a fetch request in the stores (its predicate and sorts as SQL), merging the
    /// context's unsaved inserts and deletes when `includesPendingChanges` is set.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        checkQueue()
        let entity = try engineEntity(of: request)
        if let type = T.self as? NSManagedObject.Type { ClassRegistry.note(type, for: entity.description) }
        let results: [Any]
        switch request.resultType {
        case .countResultType:
            results = [NSNumber(value: try count(for: request))]
        case .managedObjectIDResultType:
            results = try fetchObjects(request, entity: entity, idsOnly: true).map(\.objectID)
        case .dictionaryResultType:
            results = try fetchDictionaries(request, entity: entity)
        default:
            results = try fetchObjects(request, entity: entity, idsOnly: false)
        }
        var typed: [T] = []
        typed.reserveCapacity(results.count)
        for result in results {
            guard let value = result as? T else {
                throw CoreDataError.make(NSCoreDataError, "A fetch result of type \(type(of: result)) is not a \(T.self)")
            }
            typed.append(value)
        }
        return typed
    }

    /// The number of objects the request would return.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        checkQueue()
        let entity = try engineEntity(of: request)
        let plan = try FetchPlan(request: request, entity: entity, selection: .count, paged: false)
        var total = 0
        try withStores(for: request) { store in
            let statement = try store.engine.connection.cachedStatement(plan.sql.sql)
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
                try SQLiteStoreEngine.wrap { try body(store) }
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
        try withStores(for: request) { store in
            let statement = try store.engine.connection.cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            while try statement.step() {
                let rowEntity = model?.entity(number: Int(statement.int64(at: shape.entityNumber))) ?? entity
                if idsOnly {
                    objects.append(object(entity: rowEntity, primaryKey: statement.int64(at: shape.primaryKey), store: store))
                } else {
                    objects.append(
                        materialize(statement, shape: shape, entity: rowEntity, store: store, asFault: request.returnsObjectsAsFaults))
                }
            }
        }
        if !ancestors.isEmpty { applyAncestorChanges(ancestors, to: &objects, predicate: request.predicate) }
        if pending && request.includesPendingChanges {
            let predicate = request.predicate
            objects.removeAll { $0.deletedFlag || ($0.changedFlag && !(predicate?.evaluate(with: $0) ?? true)) }
            var seen = Set(objects.map(ObjectIdentifier.init))
            for object in changed.values where !object.deletedFlag && !object.insertedFlag && plan.covers(object.engine) {
                if !seen.contains(ObjectIdentifier(object)), predicate?.evaluate(with: object) ?? true {
                    objects.append(object)
                    seen.insert(ObjectIdentifier(object))
                }
            }
            for object in inserted.values where !object.deletedFlag && plan.covers(object.engine) {
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
        var objects: [NSManagedObject] = []
        var keys: [Int64] = []
        var entities: [EngineEntity] = []
        var source: NSPersistentStore?
        try withStores(for: request) { store in
            source = store
            let statement = try store.engine.connection.cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            while try statement.step() {
                let rowEntity = model?.entity(number: Int(statement.int64(at: shape.entityNumber))) ?? entity
                let key = statement.int64(at: shape.primaryKey)
                keys.append(key)
                entities.append(rowEntity)
                objects.append(object(entity: rowEntity, primaryKey: key, store: store))
            }
        }
        guard let source, !objects.isEmpty else { return objects }
        let keyPaths = (request.relationshipKeyPathsForPrefetching ?? []).filter { !$0.isEmpty }
        let batches = FetchBatches(
            size: request.fetchBatchSize, store: source, keys: keys, entities: entities, prefetchKeyPaths: keyPaths)
        for (position, object) in objects.enumerated() where object.faultState == .hollow {
            object.batches = batches
            object.batchPosition = position
        }
        if !request.returnsObjectsAsFaults, let first = objects.first, first.faultState == .hollow {
            batches.load(position: 0, in: self)
        }
        return objects
    }

    private func hasPendingChanges<T>(for entity: EngineEntity, request: NSFetchRequest<T>) -> Bool {
        let family = entity.entityNumbers
        return inserted.values.contains { family.contains($0.engine.number) }
            || deleted.values.contains { family.contains($0.engine.number) }
            || changed.values.contains { family.contains($0.engine.number) }
    }

    private func fetchDictionaries<T>(_ request: NSFetchRequest<T>, entity: EngineEntity) throws -> [NSDictionary] {
        let names: [String] =
            request.propertiesToFetch?.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
            ?? entity.attributeSlots.filter { if case .attribute(_, _?) = entity.slotKinds[$0] { true } else { false } }
            .map { entity.properties[$0].name }
        let plan = try FetchPlan(request: request, entity: entity, selection: .properties(names), paged: true)
        let model = entity.model
        // Per result column: the key path and how to read it.
        let readers: [(keyPath: String, type: NSAttributeType?, leaf: [String])] = plan.sql.resultColumns.map { column in
            guard case .property(let keyPath, let described) = column else { return ("", nil, []) }
            switch described.role {
            case .attribute(let entityName, let property, let path):
                let owner = model?.entity(named: entityName)
                let slot = owner?.slotsByName[property]
                if let slot, let owner, case .composite(let leaves, _) = owner.slotKinds[slot] {
                    return (keyPath, leaves.first { $0.path == path }?.type ?? .undefinedAttributeType, path)
                }
                if let slot, let owner, case .attribute(let type, _) = owner.slotKinds[slot] { return (keyPath, type, []) }
                return (keyPath, .undefinedAttributeType, [])
            case .foreignKey:
                return (keyPath, .objectIDAttributeType, [])
            default:
                return ("", nil, [])
            }
        }
        var rows: [NSDictionary] = []
        try withStores(for: request) { store in
            let statement = try store.engine.connection.cachedStatement(plan.sql.sql)
            plan.bind(statement)
            defer { statement.reset() }
            while try statement.step() {
                var row: [String: Any] = [:]
                for (index, reader) in readers.enumerated() {
                    guard let type = reader.type else { continue }
                    let column = Int32(index)
                    if type == .objectIDAttributeType {
                        if !statement.isNull(at: column) { row[reader.keyPath] = statement.int64(at: column) }
                        continue
                    }
                    guard let value = StoreValueCodec.read(statement, column, as: type) else { continue }
                    if reader.leaf.isEmpty {
                        row[reader.keyPath] = value
                    } else {
                        var composite = row[reader.keyPath] as? [String: Any] ?? [:]
                        Self.set(value, at: reader.leaf[...], in: &composite)
                        row[reader.keyPath] = composite
                    }
                }
                rows.append(NSDictionary(dictionary: row))
            }
        }
        return rows
    }

    // MARK: Rows to objects

    /// The registered object for a row, or a new hollow one.
    func object(entity: EngineEntity, primaryKey: Int64, store: NSPersistentStore) -> NSManagedObject {
        if let existing = registry[ObjectKey(store: store, root: entity.rootNumber, primaryKey: primaryKey)] { return existing }
        return fault(
            for: NSManagedObjectID(
                entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(primaryKey), store: store))
    }

    /// The object for the current row of `statement` (columns in ``EngineEntity/selectColumns``
    /// order), its values filled when it had none.
    func materialize(_ statement: Statement, shape: RowShape, entity: EngineEntity, store: NSPersistentStore, asFault: Bool)
        -> NSManagedObject
    {
        let object = self.object(entity: entity, primaryKey: statement.int64(at: shape.primaryKey), store: store)
        if object.faultState == .hollow {
            if let parent {
                _ = loadFromParent(parent, into: object)
            } else {
                fill(object, from: statement, shape: shape, store: store)
                object.faultState = .fault
            }
        }
        if !asFault, object.faultState == .fault { object.fireFault() }
        return object
    }

    /// Reads the row's values into the object's slots and makes them its committed values.
    func fill(_ object: NSManagedObject, from statement: Statement, shape: RowShape? = nil, store: NSPersistentStore) {
        let entity = object.engine
        let shape = shape ?? RowShape.table(entity.table)
        let map = shape.columns
        var values = ContiguousArray<Any?>(repeating: nil, count: entity.slotCount)
        for slot in 0..<entity.slotCount {
            switch entity.slotKinds[slot] {
            case .attribute(let type, let column?):
                let index = map[Int(column)]
                if index >= 0 { values[slot] = StoreValueCodec.read(statement, index, as: type) }
            case .attribute(_, nil), .transientRelationship:
                break
            case .composite(let leaves, let columns):
                var dictionary: [String: Any] = [:]
                for (leaf, column) in zip(leaves, columns) where map[Int(column)] >= 0 {
                    if let value = StoreValueCodec.read(statement, map[Int(column)], as: leaf.type) {
                        Self.set(value, at: leaf.path[...], in: &dictionary)
                    }
                }
                values[slot] = dictionary.isEmpty ? nil : dictionary
            case .toOne(let keyColumn?, let entityColumn):
                let key = map[Int(keyColumn)]
                guard key >= 0, !statement.isNull(at: key), let destination = entity.destinations[slot] else { break }
                let destinationEntity =
                    entityColumn.flatMap { column in
                        map[Int(column)] >= 0 ? entity.model?.entity(number: Int(statement.int64(at: map[Int(column)]))) : nil
                    } ?? destination
                values[slot] = self.object(entity: destinationEntity, primaryKey: statement.int64(at: key), store: store)
            case .toOne(nil, _):
                break
            case .toManyByInverseKey, .toManyByJoinTable:
                values[slot] = ToManyUnloaded.marker
            }
        }
        object.values = values
        object.committed = values
        object.version = shape.optimisticLock >= 0 ? statement.int64(at: shape.optimisticLock) : 0
    }

    static func set(_ value: Any, at path: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            dictionary[first] = value
        } else {
            var nested = dictionary[first] as? [String: Any] ?? [:]
            set(value, at: path.dropFirst(), in: &nested)
            dictionary[first] = nested
        }
    }

    /// Loads the row of a hollow object; false when the store has no such row.
    @discardableResult
    func loadRow(into object: NSManagedObject) -> Bool {
        if let parent { return loadFromParent(parent, into: object) }
        guard let store = object.id.persistentStore, let key = object.id.primaryKey, let coordinator = persistentStoreCoordinator else {
            return false
        }
        let entity = object.engine
        let found: Bool = coordinator.locked {
            guard let statement = try? store.engine.connection.cachedStatement(entity.selectByKeySQL) else { return false }
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
        object.committed = object.values
        object.version = taken.version
        if object.faultState == .hollow { object.faultState = .fault }
        return true
    }

    /// Called when a hollow object is first used.
    func fulfillFault(_ object: NSManagedObject) {
        if let batches = object.batches, parent == nil {
            let state = object.faultState
            object.faultState = .hollow
            batches.load(position: object.batchPosition, in: self)
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
            guard let statement = try? store.engine.connection.cachedStatement(sql) else { return }
            defer { statement.reset() }
            statement.bind(key, at: 1)
            while (try? statement.step()) == true {
                let entity = destination.model?.entity(number: Int(statement.int64(at: 1))) ?? destination
                result.append(self.object(entity: entity, primaryKey: statement.int64(at: 0), store: store))
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
        var groups: [ObjectIdentifier: (store: NSPersistentStore, entity: EngineEntity, objects: [NSManagedObject])] = [:]
        for object in objects where object.faultState == .hollow {
            guard let store = object.id.persistentStore, object.id.primaryKey != nil,
                let root = object.engine.model?.entity(number: object.engine.rootNumber)
            else { continue }
            groups[ObjectIdentifier(root), default: (store, root, [])].objects.append(object)
        }
        guard let coordinator = persistentStoreCoordinator else { return 0 }
        var queries = 0
        for group in groups.values {
            for chunk in stride(from: 0, to: group.objects.count, by: 500).map({
                Array(group.objects[$0..<min($0 + 500, group.objects.count)])
            }) {
                let sql = group.entity.selectSQL + " WHERE t.Z_PK IN (" + chunk.map { _ in "?" }.joined(separator: ", ") + ")"
                try coordinator.locked {
                    try SQLiteStoreEngine.wrap {
                        let statement = try group.store.engine.connection.cachedStatement(sql)
                        defer { statement.reset() }
                        queries += 1
                        for (offset, object) in chunk.enumerated() { statement.bind(object.id.primaryKey!, at: Int32(offset + 1)) }
                        while try statement.step() {
                            let entity = group.entity.model?.entity(number: Int(statement.int64(at: 1))) ?? group.entity
                            _ = materialize(statement, shape: .table(entity.table), entity: entity, store: group.store, asFault: true)
                        }
                    }
                }
            }
        }
        return queries
    }
}

#endif

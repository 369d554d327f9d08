#if !canImport(CoreData)
import ModelQuery

/// The rows behind one fetch with a `fetchBatchSize`: the fetch reads only the objects' keys, in
/// order, and returns hollow objects; the first read of one of them loads the rows of its whole
/// batch with one query. Rows of batches more than one batch away from the one being loaded are
/// released again (their unchanged objects turn back into hollow faults), so iterating a large
/// result holds at most two batches of row values at a time.
///
/// The fetch's objects point at this value and keep it alive; it lists them unretained, by
/// position (``slots``), as their registration in the context (see ``ObjectRegistry``): a
/// batched fetch's hollow objects cost the registry one word each, and loading a batch finds its
/// objects by position. Objects it does not list (registered before the fetch) are found in the
/// registry by key.
final class FetchBatches {
    let size: Int
    /// The store of the rows; weak, so removing the store from its coordinator frees it (the
    /// objects' reads then find no row, as for objects with an ID).
    private(set) weak var store: NSPersistentStore?
    /// The store's ``NSPersistentStore/registryNumber`` and identifier, for the objects'
    /// registry keys and IDs.
    let storeNumber: UInt32
    let storeIdentifier: String?
    /// Primary keys of the fetch's rows, in result order.
    @exclusivity(unchecked) private(set) var keys: RowKeys
    /// The entity of each row when the rows are of several entities; nil when every row is of
    /// ``entity``.
    let entities: [EngineEntity]?
    let entity: EngineEntity
    let prefetchKeyPaths: [String]
    /// The anchor of the fetch's context, which its objects without a state of their own reach
    /// their context through (see ``NSManagedObject/makeHollow(in:position:)``).
    let anchor: ContextAnchor?
    /// Whether each batch's rows are loaded now.
    private var loaded: [Bool]
    private var loadedBatches: Set<Int> = []
    /// Objects whose values this fetch loaded and has not released.
    private(set) var rowsHeld = 0
    /// The largest ``rowsHeld`` seen.
    private(set) var maximumRowsHeld = 0
    /// SQL statements this fetch ran: the key query and the batch loads.
    private(set) var statementsRun = 1
    /// The objects registered by position (one per key; nil where freed or registered in the
    /// table), and the registry whose lock guards them; nil until the first is registered.
    /// Read and written only with the registry's lock held.
    @exclusivity(unchecked) private(set) var slots: UnsafeMutablePointer<Unmanaged<NSManagedObject>?>?
    @exclusivity(unchecked) private var registry: ObjectRegistry?
    /// The registry that lists this fetch's objects by position, if any.
    var registrySlots: ObjectRegistry? { registry }
    /// Positions by key (position + 1, 0 for none), hashed by the key's number, a power of two
    /// in size; made on the first lookup by key (registry lock held).
    @exclusivity(unchecked) private var index: UnsafeMutablePointer<Int32>?
    @exclusivity(unchecked) private var indexMask = 0
    /// The number of ``slots`` allocated (at least ``count``).
    @exclusivity(unchecked) private var slotCapacity = 0

    init(
        size: Int, store: NSPersistentStore, keys: RowKeys, entities: [EngineEntity]?, entity: EngineEntity, prefetchKeyPaths: [String],
        anchor: ContextAnchor?
    ) {
        self.size = size
        self.anchor = anchor
        self.store = store
        storeNumber = store.registryNumber
        storeIdentifier = store.identifier
        self.keys = keys
        self.entities = entities
        self.entity = entity
        self.prefetchKeyPaths = prefetchKeyPaths
        loaded = size > 0 ? Array(repeating: false, count: (keys.count + size - 1) / size) : []
    }

    /// The keys of a fetch without a batch size, filled row by row: its objects carry their
    /// rows' values from the start and need the keys only to make their IDs when asked.
    convenience init(keysOf store: NSPersistentStore, entity: EngineEntity) {
        self.init(size: 0, store: store, keys: RowKeys(), entities: nil, entity: entity, prefetchKeyPaths: [], anchor: nil)
    }

    deinit {
        registry?.removePage(self)
        slots?.deallocate()
        index?.deallocate()
    }

    /// Whether the fetch loads rows a batch at a time (it has a batch size).
    var isPaging: Bool { size > 0 }

    /// The number of rows.
    var count: Int { keys.count }

    // MARK: Registration (the registry's lock held)

    /// Makes room for an object per row, registered in `registry` (for a fetch still adding
    /// rows, room for more: see ``append(_:)``).
    func makeSlots(registry: ObjectRegistry) {
        let capacity = isPaging ? keys.count : Swift.max(keys.count * 2, 256)
        slots = Self.emptySlots(capacity)
        slotCapacity = capacity
        self.registry = registry
    }

    private static func emptySlots(_ capacity: Int) -> UnsafeMutablePointer<Unmanaged<NSManagedObject>?> {
        let slots = UnsafeMutablePointer<Unmanaged<NSManagedObject>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }

    /// Drops every registration (the context was reset).
    func clearSlots() {
        slots?.update(repeating: nil, count: slotCapacity)
    }

    /// The position of a row whose primary key is `key` and for which `accept` holds.
    func position(of key: Int64, where accept: (Int) -> Bool) -> Int? {
        if index == nil { makeIndex() }
        guard let index else { return nil }
        var probe = Self.hash(key) & indexMask
        while index[probe] != 0 {
            let position = Int(index[probe]) - 1
            if keys[position] == key, accept(position) { return position }
            probe = (probe + 1) & indexMask
        }
        return nil
    }

    private static func hash(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    private func makeIndex() {
        guard keys.count < Int32.max else { return }
        var capacity = 16
        while capacity < keys.count * 2 { capacity *= 2 }
        index?.deallocate()
        let index = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        index.initialize(repeating: 0, count: capacity)
        indexMask = capacity - 1
        for position in keys.indices { Self.enter(position, key: keys[position], in: index, mask: indexMask) }
        self.index = index
    }

    private static func enter(_ position: Int, key: Int64, in index: UnsafeMutablePointer<Int32>, mask: Int) {
        var probe = hash(key) & mask
        while index[probe] != 0 { probe = (probe + 1) & mask }
        index[probe] = Int32(position + 1)
    }

    /// Adds the key of the next row of a fetch without a batch size; returns its position. Once
    /// the fetch has slots (its objects are registered by position), called with the registry's
    /// lock held, so the slots grow under it; an index made by a lookup while rows still come
    /// takes the new key too.
    func append(_ key: Int64) -> Int32 {
        keys.append(key)
        let position = keys.count - 1
        if let slots, keys.count > slotCapacity {
            let capacity = slotCapacity * 2
            let grown = Self.emptySlots(capacity)
            grown.update(from: slots, count: slotCapacity)
            slots.deallocate()
            self.slots = grown
            slotCapacity = capacity
        }
        if let index {
            if keys.count * 2 > indexMask + 1 {
                makeIndex()
            } else {
                Self.enter(position, key: key, in: index, mask: indexMask)
            }
        }
        return Int32(position)
    }

    /// Loads the batch of the object at `position` (unless loaded) and releases far batches,
    /// reading through `fetch` (the fetch's context's).
    func load(position: Int, with fetch: borrowing StoreFetch) {
        guard isPaging else { return }
        let batch = position / size
        guard batch < loaded.count, !loaded[batch] else { return }
        for far in loadedBatches where abs(far - batch) > 1 { release(far, in: fetch.graph) }
        let range = (batch * size)..<min((batch + 1) * size, keys.count)
        let objects = range.compactMap { objectAt($0, in: fetch.graph) }.filter { $0.faultState == .hollow }
        statementsRun += (try? loadRows(of: objects, with: fetch)) ?? 0
        let fetched = objects.filter { $0.faultState != .hollow }
        if !prefetchKeyPaths.isEmpty { try? fetch.prefetch(prefetchKeyPaths, of: fetched) }
        rowsHeld += fetched.count
        maximumRowsHeld = max(maximumRowsHeld, rowsHeld)
        loaded[batch] = true
        loadedBatches.insert(batch)
    }

    /// Turns the unchanged objects of `batch` back into hollow faults.
    private func release(_ batch: Int, in graph: ObjectGraph) {
        loaded[batch] = false
        loadedBatches.remove(batch)
        for position in (batch * size)..<min((batch + 1) * size, keys.count) {
            guard let object = objectAt(position, in: graph), object.batches === self, object.faultState != .hollow else { continue }
            rowsHeld -= 1
            guard !object.changedFlag, !object.insertedFlag, !object.deletedFlag else { continue }
            object.releaseRow(of: self)
        }
    }

    /// The entity of the row at `position`.
    func entity(at position: Int) -> EngineEntity { entities?[position] ?? entity }

    private func objectAt(_ position: Int, in graph: ObjectGraph) -> NSManagedObject? {
        graph.registry.object(in: self, at: position)
    }

    /// Loads the rows of hollow `objects` (of this fetch's store and root entity) with one `IN`
    /// query per 500 keys; returns the number of queries run. Rows are matched to the objects
    /// by key here, not through the registry.
    private func loadRows(of objects: [NSManagedObject], with fetch: borrowing StoreFetch) throws -> Int {
        guard let store, let coordinator = fetch.coordinator, let model = entity.model,
            let root = model.entity(number: entity.rootNumber), !objects.isEmpty
        else { return 0 }
        var byKey: [Int64: NSManagedObject] = [:]
        byKey.reserveCapacity(objects.count)
        for object in objects {
            guard let (objectStore, key) = object.rowLocation, objectStore === store, object.engine.rootNumber == root.rootNumber
            else { continue }
            byKey[key] = object
        }
        let wanted = Array(byKey.keys)
        var queries = 0
        for start in stride(from: 0, to: wanted.count, by: 500) {
            let chunk = wanted[start..<min(start + 500, wanted.count)]
            let sql = root.selectSQL + " WHERE t.Z_PK IN (" + chunk.map { _ in "?" }.joined(separator: ", ") + ")"
            try coordinator.locked {
                try SQLiteStoreEngine.wrap {
                    let statement = try fetch.readConnection(store).cachedStatement(sql)
                    defer { statement.reset() }
                    queries += 1
                    for (offset, key) in chunk.enumerated() { statement.bind(key, at: Int32(offset + 1)) }
                    var maker = ObjectGraph.HollowObjectMaker(graph: fetch.graph)
                    while try statement.step() {
                        guard let object = byKey[statement.int64(at: root.tableShape.primaryKey)], object.faultState == .hollow
                        else { continue }
                        fetch.fill(object, from: statement, shape: object.engine.tableShape, store: store, maker: &maker)
                        object.faultState = .fault
                    }
                }
            }
        }
        return queries
    }

    /// The registry key of the row at `position`, of an entity whose root has number `root`.
    func key(at position: Int, root: Int) -> ObjectKey {
        ObjectKey(storeNumber: storeNumber, root: root, primaryKey: keys[position])
    }

    /// The permanent ID of the row at `position`, an object of `entity`.
    func objectID(at position: Int, entity: EngineEntity) -> NSManagedObjectID {
        NSManagedObjectID(
            entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(keys[position]), store: store,
            storeNumber: storeNumber, storeIdentifier: storeIdentifier)
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// The rows behind one fetch with a `fetchBatchSize`: the fetch reads only the objects' keys, in
/// order, and returns hollow objects; the first read of one of them loads the rows of its whole
/// batch with one query. Rows of batches more than one batch away from the one being loaded are
/// released again (their unchanged objects turn back into hollow faults), so iterating a large
/// result holds at most two batches of row values at a time.
///
/// The fetch's objects point at this value (not the other way round), so it holds no objects: a
/// batch's objects are found through the context's registry by key.
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
    @exclusivity(unchecked) private(set) var keys: [Int64]
    /// The entity of each row when the rows are of several entities; nil when every row is of
    /// ``entity``.
    let entities: [EngineEntity]?
    let entity: EngineEntity
    let prefetchKeyPaths: [String]
    /// Whether each batch's rows are loaded now.
    private var loaded: [Bool]
    private var loadedBatches: Set<Int> = []
    /// Objects whose values this fetch loaded and has not released.
    private(set) var rowsHeld = 0
    /// The largest ``rowsHeld`` seen.
    private(set) var maximumRowsHeld = 0
    /// SQL statements this fetch ran: the key query and the batch loads.
    private(set) var statementsRun = 1

    init(size: Int, store: NSPersistentStore, keys: [Int64], entities: [EngineEntity]?, entity: EngineEntity, prefetchKeyPaths: [String]) {
        self.size = size
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
        self.init(size: 0, store: store, keys: [], entities: nil, entity: entity, prefetchKeyPaths: [])
    }

    /// Whether the fetch loads rows a batch at a time (it has a batch size).
    var isPaging: Bool { size > 0 }

    /// Adds the key of the next row; returns its position.
    func append(_ key: Int64) -> Int32 {
        keys.append(key)
        return Int32(keys.count - 1)
    }

    /// Loads the batch of the object at `position` (unless loaded) and releases far batches.
    func load(position: Int, in context: NSManagedObjectContext) {
        guard isPaging else { return }
        let batch = position / size
        guard batch < loaded.count, !loaded[batch] else { return }
        for far in loadedBatches where abs(far - batch) > 1 { release(far, in: context) }
        let range = (batch * size)..<min((batch + 1) * size, keys.count)
        let objects = range.compactMap { objectAt($0, in: context) }.filter { $0.faultState == .hollow }
        statementsRun += (try? context.loadHollow(objects)) ?? 0
        let fetched = objects.filter { $0.faultState != .hollow }
        if !prefetchKeyPaths.isEmpty { try? context.prefetch(prefetchKeyPaths, of: fetched) }
        rowsHeld += fetched.count
        maximumRowsHeld = max(maximumRowsHeld, rowsHeld)
        loaded[batch] = true
        loadedBatches.insert(batch)
    }

    /// Turns the unchanged objects of `batch` back into hollow faults.
    private func release(_ batch: Int, in context: NSManagedObjectContext) {
        loaded[batch] = false
        loadedBatches.remove(batch)
        for position in (batch * size)..<min((batch + 1) * size, keys.count) {
            guard let object = objectAt(position, in: context), object.batches === self, object.faultState != .hollow else { continue }
            rowsHeld -= 1
            guard !object.changedFlag, !object.insertedFlag, !object.deletedFlag else { continue }
            object.values = object.engine.emptyValues
            object.committed = nil
            object.faultState = .hollow
        }
    }

    /// The entity of the row at `position`.
    func entity(at position: Int) -> EngineEntity { entities?[position] ?? entity }

    private func objectAt(_ position: Int, in context: NSManagedObjectContext) -> NSManagedObject? {
        context.registry[key(at: position, root: entity(at: position).rootNumber)]
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

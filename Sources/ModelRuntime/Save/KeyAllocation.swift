#if !canImport(CoreData)
import ModelQuery

/// Permanent IDs for inserted objects: keys allocated per store and table (root entity), from
/// the store each object's entity is assigned to.
struct KeyAllocation {
    /// The objects' graph, which records their IDs and any store `assign(_:to:)` chose.
    let graph: ObjectGraph
    /// The stores the keys come from, under the coordinator's lock.
    let coordinator: NSPersistentStoreCoordinator

    /// Gives the objects permanent IDs, their keys allocated in a transaction of their own, or
    /// inside the save's open `transactions` (objects a merge policy inserted during a save).
    func givePermanentIDs(to objects: [NSManagedObject], within transactions: SaveTransactions? = nil) throws {
        guard !objects.isEmpty else { return }
        // Objects by store and table (root entity), in the order first met; the store of an
        // entity is looked up once.
        var groups: [(store: NSPersistentStore, root: Int, objects: [NSManagedObject])] = []
        var storesByEntity: [ObjectIdentifier: NSPersistentStore] = [:]
        // Objects are told apart by their engine data, not their entity description: a
        // description is weakly referenced by its properties, so retaining one per object would
        // take the slow path.
        var last: (engine: ObjectIdentifier, group: Int)?
        for object in objects {
            let engine = ObjectIdentifier(object.engine)
            if !graph.assignedStores.isEmpty, let assigned = graph.takeAssignedStore(of: object) {
                // A store chosen by `assign(_:to:)`: a group of its own kind, never the last one's.
                let root = object.engine.rootNumber
                if let index = groups.firstIndex(where: { $0.store === assigned && $0.root == root }) {
                    groups[index].objects.append(object)
                } else {
                    groups.append((assigned, root, [object]))
                }
                last = nil
                continue
            }
            if let last, last.engine == engine {
                groups[last.group].objects.append(object)
                continue
            }
            let entity = object.engine.description
            guard let store = storesByEntity[ObjectIdentifier(entity)] ?? coordinator.store(for: entity) else {
                throw CoreDataError.make(
                    NSPersistentStoreSaveError, "No store can hold objects of entity \(entity.name ?? "")",
                    [NSAffectedObjectsErrorKey: [object]])
            }
            storesByEntity[ObjectIdentifier(entity)] = store
            let root = object.engine.rootNumber
            let group =
                groups.firstIndex { $0.store === store && $0.root == root }
                ?? {
                    groups.append((store, root, []))
                    groups[groups.count - 1].objects.reserveCapacity(objects.count)
                    return groups.count - 1
                }()
            groups[group].objects.append(object)
            last = (engine, group)
        }
        try coordinator.locked {
            for (store, root, unordered) in groups.sorted(by: { $0.root < $1.root }) {
                // Keys in insertion order, not in the order of the context's sets, so equal
                // work gives equal stores.
                let members =
                    unordered.indices.dropFirst().allSatisfy { unordered[$0 - 1].insertionOrder < unordered[$0].insertionOrder }
                    ? unordered : unordered.sorted { $0.insertionOrder < $1.insertionOrder }
                guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
                try transactions?.begin(store)
                let first = try store.engine.allocateKeys(members.count, root: root, inOpenTransaction: transactions != nil)
                // Objects nobody asked the ID of are listed by key in `keys` (see
                // ``ObjectGraph/givePermanentID(to:key:root:store:keys:)``).
                var keys: FetchBatches?
                for (offset, object) in members.enumerated() {
                    graph.givePermanentID(to: object, key: first + Int64(offset), root: root, store: store, keys: &keys)
                }
            }
        }
    }
}
#endif

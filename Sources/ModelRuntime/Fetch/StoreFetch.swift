#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The part of fetching that reads the stores: a request's rows read into a context's objects
/// (its ``ObjectGraph``), faults filled from their rows, to-manys, prefetches, batched fetches,
/// dictionary rows and counts.
///
/// The context's `fetch(_:)` and `count(for:)` are the façade: they check the queue, pick the
/// request's entity and result type, bring in the ancestors' unsaved changes of a child context
/// and load a child's new objects from its parent, and call one of these for the rows. What
/// reading needs of the context comes in as values: the graph, the coordinator, the pinned
/// read connections and whether the values come from a parent. A fetch makes one per call and
/// passes it on borrowed, so reading a row retains none of its references.
struct StoreFetch {
    /// The objects rows are read into, and where the objects for rows are found.
    let graph: ObjectGraph
    /// The stores read, under the coordinator's lock; nil when the context has none (then
    /// nothing is read).
    let coordinator: NSPersistentStoreCoordinator?
    /// The read connections of a context pinned to a query generation; nil when unpinned.
    let pinnedReads: PinnedReads?
    /// Whether the objects' values come from a parent context (a child context's): new objects
    /// are left hollow, for the caller to load from the parent once the coordinator's lock is
    /// released (see docs/runtime/Safety.md, "Lock order").
    let valuesFromParent: Bool

    /// The connection `store` is read through: the pinned one, else the store's.
    func readConnection(_ store: NSPersistentStore) -> StoreConnection {
        pinnedReads?.connection(for: store) ?? store.engine.connection
    }

    /// Runs `body` for each store the request affects (all of the coordinator's by default),
    /// under the coordinator's lock, store errors as `NSError`s.
    func withStores<T>(for request: NSFetchRequest<T>, _ body: (NSPersistentStore) throws -> Void) throws {
        guard let coordinator else { return }
        try coordinator.locked {
            for store in request.affectedStores ?? coordinator.persistentStores {
                try store.engine.wrap { try body(store) }
            }
        }
    }

    /// The number of rows `plan` (a count) counts in the stores the request affects, before its
    /// offset and limit.
    func count<T>(_ plan: FetchPlan, for request: NSFetchRequest<T>) throws -> Int {
        var total = 0
        try withStores(for: request) { store in
            let statement = try readConnection(store).cachedStatement(plan.sql.sql)
            plan.bind(statement)
            if try statement.step() { total += Int(statement.int64(at: 0)) }
            statement.reset()
        }
        return total
    }
}
#endif

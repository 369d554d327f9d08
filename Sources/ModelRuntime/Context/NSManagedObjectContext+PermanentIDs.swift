#if !canImport(CoreData)
import ModelQuery

extension NSManagedObjectContext {
    /// Gives the objects permanent IDs, their keys allocated in a transaction of their own (see
    /// ``KeyAllocation``).
    func assignPermanentIDs(_ objects: [NSManagedObject]) throws {
        guard !objects.isEmpty else { return }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator")
        }
        try KeyAllocation(graph: graph, coordinator: coordinator).givePermanentIDs(to: objects)
    }
}
#endif

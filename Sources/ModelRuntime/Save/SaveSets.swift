#if !canImport(CoreData)
/// The objects a save writes: inserted, updated (with persistent changes) and deleted.
struct SaveSets {
    var inserted: [NSManagedObject]
    var updated: [NSManagedObject]
    var deleted: [NSManagedObject]
}
#endif

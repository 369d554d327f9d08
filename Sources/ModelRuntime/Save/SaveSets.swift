#if !canImport(CoreData)
/// The objects a save writes: inserted, updated (with persistent changes) and deleted.
struct SaveSets {
    var inserted: [NSManagedObject]
    var updated: [NSManagedObject]
    var deleted: [NSManagedObject]

    /// Readies the objects for the save as Core Data does: each gets `willSave()`, then each is
    /// validated for its kind of change; every validation error is collected, and the save fails
    /// with them all (one error, or `NSValidationMultipleErrorsError`).
    func prepare() throws {
        for objects in [inserted, updated, deleted] { for object in objects { object.willSave() } }
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError { errors.append(error) }
        }
        for object in inserted { collect { try object.validateForInsert() } }
        for object in updated { collect { try object.validateForUpdate() } }
        for object in deleted { collect { try object.validateForDelete() } }
        try Validator.throwing(errors)
    }
}
#endif

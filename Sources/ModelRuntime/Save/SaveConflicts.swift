#if !canImport(CoreData)
/// The conflicts one round of a save found.
struct SaveConflicts {
    var optimistic: [NSMergeConflict] = []
    var constraint: [NSConstraintConflict] = []

    var isEmpty: Bool { optimistic.isEmpty && constraint.isEmpty }
    /// Every conflict, optimistic-locking ones first (the order Core Data's merge policy resolves
    /// them in).
    var all: [Any] { optimistic + constraint }
    /// The objects the conflicts name.
    var objects: [NSManagedObject] {
        optimistic.map(\.sourceObject) + constraint.flatMap { $0.conflictingObjects + [$0.databaseObject].compactMap { $0 } }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// A child context's objects loaded from its parent, whose current values (unsaved changes
/// included) are the child's store: the parent's graph gives an object's values by ID on the
/// parent's queue, and the child's graph writes them into its own object.
extension ObjectGraph {
    /// An object's values and row version, as a parent's graph gives them to a child's.
    struct ParentValues {
        /// Every value of the object, related objects by ID.
        let snapshot: ObjectSnapshot
        /// The version of the row the values come from.
        let version: Int64
    }

    /// The values of the object with `id`, for a child context to load; nil when the object is
    /// hollow and `loadRow` (how the graph's context loads a row: from its stores or its own
    /// parent) finds no row for it.
    func valuesForChild(of id: NSManagedObjectID, loadRow: (NSManagedObject) -> Bool) -> ParentValues? {
        guard let source = loadedObject(with: id, loadRow: loadRow) else { return nil }
        return ParentValues(snapshot: ObjectSnapshot(of: source, slots: nil), version: source.version)
    }

    /// The IDs of the destinations of the to-many at `slot` of the object with `id`, for a child
    /// context to load (the relationship loaded first when it is not); empty when the object is
    /// hollow and `loadRow` finds no row for it.
    func toManyForChild(of id: NSManagedObjectID, slot: Int, loadRow: (NSManagedObject) -> Bool) -> [NSManagedObjectID] {
        guard let source = loadedObject(with: id, loadRow: loadRow) else { return [] }
        return source.loadedToMany(slot).objects.map(\.id)
    }

    /// The object with `id`, its row loaded by `loadRow` when it is hollow; nil when there is no
    /// such row.
    private func loadedObject(with id: NSManagedObjectID, loadRow: (NSManagedObject) -> Bool) -> NSManagedObject? {
        let source = object(with: id)
        if source.faultState == .hollow, !loadRow(source) { return nil }
        return source
    }

    /// Loads the values the parent gave (``valuesForChild(of:loadRow:)``) into `object`, one of
    /// the graph's: they become its committed values and its row version, and a hollow object
    /// becomes a fault. Without values (the parent has no such object) a hollow object is marked
    /// materialized, as it is, and the result is false (the caller handles the missing row).
    func load(_ parentValues: ParentValues?, into object: NSManagedObject) -> Bool {
        guard let parentValues else {
            if object.faultState == .hollow { object.faultState = .materialized }
            return false
        }
        parentValues.snapshot.apply(to: object, in: self)
        object.commitValues()
        object.version = parentValues.version
        if object.faultState == .hollow { object.faultState = .fault }
        return true
    }

    /// The graph's objects for the destination IDs a parent gave (``toManyForChild(of:slot:loadRow:)``),
    /// in their order, without those the graph deleted.
    func toManyFromParent(_ ids: [NSManagedObjectID]) -> [NSManagedObject] {
        ids.map { object(with: $0) }.filter { !$0.deletedFlag }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The part of a save that writes to the stores: a context's changes (its ``ObjectGraph``)
/// written through its coordinator, the conflicts the stores report resolved by its merge policy.
///
/// The context's `save()` is the façade: it checks the queue, processes pending changes, calls
/// `willSave()` and validates, gives inserted objects permanent IDs (``KeyAllocation``), then
/// runs one of these and posts the notifications. What a save needs of the context comes in as
/// values: the graph, the coordinator, the merge policy and the names history records.
struct StoreSave {
    /// The changes to write, and where their stored rows' objects are found.
    let graph: ObjectGraph
    /// The stores written, under the coordinator's lock.
    let coordinator: NSPersistentStoreCoordinator
    /// Resolves the conflicts a round finds: the context's `mergePolicy`, an ``NSMergePolicy``
    /// (anything else resolves as `NSMergePolicy.error`). It is cast only when a round has
    /// conflicts: most saves have none, and a cast from `Any` is a runtime type check.
    let mergePolicy: Any
    /// The context's `transactionAuthor` and `name`, for the history the stores record.
    let history: HistoryRecorder.Names

    /// A change a derived-attribute trigger made: the object's row, the attribute, its value.
    typealias DerivedValue = (key: ObjectKey, property: String, value: SQLiteValue)

    /// How many times one save hands conflicts to its merge policy before it fails.
    static let maximumConflictResolutions = 5

    /// Writes the save's rows into its stores and returns the values derived-attribute triggers
    /// computed, and whether the merge policy resolved conflicts. Every store's transaction stays
    /// open until all of them are written, then they commit.
    ///
    /// Each round writes under a savepoint: the uniqueness-constraint check, then the deletes,
    /// inserts and updates guarded by `Z_OPT`, and the rows `detectConflicts(for:)` marked. A
    /// round that finds conflicts is rolled back to its savepoint and the merge policy resolves
    /// them all with one `resolve(mergeConflicts:)` call, inside the transactions; the next round
    /// writes what the resolution left to save (`sets` becomes that). When the save fails after a
    /// resolution, the graph is put back as the save found it (``SaveCheckpoint``).
    func write(_ sets: inout SaveSets) throws -> (derived: [DerivedValue], resolved: Bool) {
        try coordinator.locked {
            let transactions = SaveTransactions()
            defer { transactions.rollBack() }
            let resolution = graph.beginSaveResolution()
            defer { graph.endSaveResolution() }
            var checkpoint: SaveCheckpoint?
            do {
                var resolutions = 0
                while true {
                    let parts = storeParts(of: sets, unwritten: resolution.unwritten)
                    for part in parts { try transactions.begin(part.store) }
                    // The first round, the one of every save without conflicts, writes without one.
                    if resolutions > 0 { try transactions.setSavepoint() }
                    let conflicts = try findConflictsOrWrite(parts)
                    if conflicts.isEmpty {
                        var derived: [DerivedValue] = []
                        for part in parts {
                            let writer = RowWriter(store: part.store)
                            try writer.finish(inserted: part.inserted, updated: part.updated, deleted: part.deleted, history: history)
                            derived += writer.takeDerivedValueChanges()
                        }
                        if resolutions > 0 { try transactions.releaseSavepoint() }
                        try transactions.commit()
                        // Metadata set through the stores went with their rows.
                        for part in parts { part.store.engine.metadataChanged = false }
                        return (derived, checkpoint != nil)
                    }
                    if resolutions > 0 { try transactions.rollBackToSavepoint() } else { try transactions.restart() }
                    if checkpoint == nil {
                        checkpoint = SaveCheckpoint(graph, involving: conflicts.objects)
                    } else {
                        checkpoint?.include(conflicts.objects, from: graph)
                    }
                    resolutions += 1
                    guard resolutions <= Self.maximumConflictResolutions else {
                        throw CoreDataError.make(
                            NSManagedObjectMergeError,
                            ConflictText.unresolved(conflicts.optimistic, conflicts.constraint, after: resolutions - 1),
                            [NSPersistentStoreSaveConflictsErrorKey: conflicts.all])
                    }
                    let policy = mergePolicy as? NSMergePolicy ?? NSMergePolicy.error
                    try policy.resolve(mergeConflicts: conflicts.all)
                    sets = try setsAfterResolution(sets, transactions: transactions)
                }
            } catch {
                checkpoint?.restore(in: graph)
                throw error
            }
        }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The objects a save writes: inserted, updated (with persistent changes) and deleted.
struct SaveSets {
    var inserted: [NSManagedObject]
    var updated: [NSManagedObject]
    var deleted: [NSManagedObject]
}

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

/// The write transactions of one save, one per store: `BEGIN IMMEDIATE`, so each store's write
/// lock is held while a round writes and while the merge policy resolves the conflicts it found.
/// The first round's writes are undone by restarting the transactions (a savepoint would cost
/// every save two more statements): a writer that slips in between the rollback and the new
/// `BEGIN IMMEDIATE` leaves a conflict the next round finds. Later rounds write under a savepoint,
/// so what a resolution wrote meanwhile (the keys of objects it inserted) stays when a round is
/// undone.
final class SaveTransactions {
    private(set) var stores: [NSPersistentStore] = []
    private static let savepoint = "modelruntime_save_round"

    /// Begins `store`'s transaction unless it has begun.
    func begin(_ store: NSPersistentStore) throws {
        guard !stores.contains(where: { $0 === store }) else { return }
        guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
        try run("BEGIN IMMEDIATE", on: store)
        stores.append(store)
    }

    func setSavepoint() throws {
        for store in stores { try run("SAVEPOINT \(Self.savepoint)", on: store) }
    }

    func releaseSavepoint() throws {
        for store in stores { try run("RELEASE \(Self.savepoint)", on: store) }
    }

    /// Undoes the first round's writes: every transaction rolled back and begun again.
    func restart() throws {
        for store in stores {
            try run("ROLLBACK", on: store)
            try run("BEGIN IMMEDIATE", on: store)
        }
    }

    /// Undoes a later round's writes, leaving the transactions open without the savepoint.
    func rollBackToSavepoint() throws {
        for store in stores {
            try run("ROLLBACK TO \(Self.savepoint)", on: store)
            try run("RELEASE \(Self.savepoint)", on: store)
        }
    }

    /// Commits the stores' transactions, in the order they began.
    func commit() throws {
        while let store = stores.first {
            try run("COMMIT", on: store)
            stores.removeFirst()
        }
    }

    /// Rolls back the transactions not committed (a save that failed).
    func rollBack() {
        for store in stores { try? store.engine.connection.execute("ROLLBACK") }
        stores.removeAll()
    }

    private func run(_ sql: String, on store: NSPersistentStore) throws {
        try store.engine.wrap {
            let statement = try store.engine.connection.cachedStatement(sql)
            defer { statement.reset() }
            _ = try statement.step()
        }
    }
}

extension NSManagedObjectContext {
    /// How many times one save hands conflicts to its merge policy before it fails.
    static let maximumConflictResolutions = 5

    /// Writes the save's rows into its stores and returns the values derived-attribute triggers
    /// computed, and whether the merge policy resolved conflicts. Every store's transaction stays
    /// open until all of them are written, then they commit.
    ///
    /// Each round writes under a savepoint: the uniqueness-constraint check, then the deletes,
    /// inserts and updates guarded by `Z_OPT`, and the rows `detectConflicts(for:)` marked. A
    /// round that finds conflicts is rolled back to its savepoint and the context's merge policy
    /// resolves them all with one `resolve(mergeConflicts:)` call, inside the transactions; the
    /// next round writes what the resolution left to save (`sets` becomes that). When the save
    /// fails after a resolution, the context is put back as the save found it (``SaveCheckpoint``).
    func writeToStores(_ sets: inout SaveSets) throws -> (derived: [(key: ObjectKey, property: String, value: SQLiteValue)], resolved: Bool)
    {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator")
        }
        return try coordinator.locked {
            let transactions = SaveTransactions()
            defer { transactions.rollBack() }
            let resolution = graph.beginSaveResolution()
            defer { graph.endSaveResolution() }
            var checkpoint: SaveCheckpoint?
            do {
                var resolutions = 0
                while true {
                    let parts = storeParts(of: sets, coordinator: coordinator, unwritten: resolution.unwritten)
                    for part in parts { try transactions.begin(part.store) }
                    // The first round, the one of every save without conflicts, writes without one.
                    if resolutions > 0 { try transactions.setSavepoint() }
                    let conflicts = try findConflictsOrWrite(parts)
                    if conflicts.isEmpty {
                        var derived: [(key: ObjectKey, property: String, value: SQLiteValue)] = []
                        for part in parts {
                            try RowWriter(store: part.store).finish(
                                inserted: part.inserted, updated: part.updated, deleted: part.deleted,
                                history: HistoryRecorder.Names(author: transactionAuthor, contextName: name))
                            derived += takeDerivedValueChanges(of: part.store)
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
                    sets = try setsAfterResolution(sets, coordinator: coordinator, transactions: transactions)
                }
            } catch {
                checkpoint?.restore(in: graph)
                throw error
            }
        }
    }

    /// The objects of one store a round writes.
    private struct StorePart {
        let store: NSPersistentStore
        let inserted: [NSManagedObject]
        let updated: [NSManagedObject]
        let deleted: [NSManagedObject]
        let checked: [NSManagedObject]
    }

    /// The save's objects by store, the stores in the order their transactions begin.
    private func storeParts(of sets: SaveSets, coordinator: NSPersistentStoreCoordinator, unwritten: [ObjectIdentifier: NSManagedObject])
        -> [StorePart]
    {
        // The usual save: one store, every object of it, nothing marked or left unwritten.
        let stores = coordinator.persistentStores
        if unwritten.isEmpty, graph.conflictChecked.isEmpty, stores.count == 1 {
            let store = stores[0]
            let number = store.registryNumber
            let ofStore = { (objects: [NSManagedObject]) in number != 0 && objects.allSatisfy { $0.storeNumber == number } }
            if ofStore(sets.inserted), ofStore(sets.updated), ofStore(sets.deleted) {
                if sets.inserted.isEmpty, sets.updated.isEmpty, sets.deleted.isEmpty { return [] }
                return [StorePart(store: store, inserted: sets.inserted, updated: sets.updated, deleted: sets.deleted, checked: [])]
            }
        }
        let updated = unwritten.isEmpty ? sets.updated : sets.updated.filter { unwritten[ObjectIdentifier($0)] == nil }
        // Unchanged objects marked by `detectConflicts(for:)` whose rows are checked too.
        let written = Set((sets.inserted + sets.updated + sets.deleted).map(ObjectIdentifier.init))
        let checked = graph.conflictChecked.values.filter {
            !written.contains(ObjectIdentifier($0)) && unwritten[ObjectIdentifier($0)] == nil && !$0.insertedFlag && !$0.deletedFlag
                && $0.hasCommitted && $0.managedObjectContext === self
        }
        // The objects of each store, by the store's registry number (no weak reference loaded,
        // nor ID made, per object).
        var numbers: Set<UInt32> = []
        for objects in [sets.inserted, updated, sets.deleted, checked] {
            for object in objects {
                let number = object.storeNumber
                if number != 0 { numbers.insert(number) }
            }
        }
        let writing = stores.filter { numbers.contains($0.registryNumber) }
        return writing.sorted(by: { $0.engine.storeUUID < $1.engine.storeUUID }).map { store in
            let number = store.registryNumber
            let mine = { (objects: [NSManagedObject]) in objects.filter { $0.storeNumber == number } }
            return StorePart(
                store: store, inserted: mine(sets.inserted), updated: mine(updated), deleted: mine(sets.deleted), checked: mine(checked))
        }
    }

    /// One round: the uniqueness check of every store, then, when it found no conflict, the
    /// rows written (optimistic-locking conflicts found as they are), else only the rows'
    /// versions compared, so the merge policy gets both kinds of conflicts at once.
    private func findConflictsOrWrite(_ parts: [StorePart]) throws -> SaveConflicts {
        var conflicts = SaveConflicts()
        for part in parts {
            discardDerivedValueChanges(of: part.store)
            conflicts.constraint += try RowWriter(store: part.store).constraintConflicts(
                inserted: part.inserted, updated: part.updated, deleted: part.deleted)
        }
        // The store reports the stored rows it found; their objects are this context's.
        for conflict in conflicts.constraint {
            if let row = conflict.databaseRow {
                conflict.settleDatabaseObject(object(entity: row.entity, primaryKey: row.key, store: row.store))
            }
        }
        for part in parts {
            let writer = RowWriter(store: part.store)
            conflicts.optimistic +=
                conflicts.constraint.isEmpty
                ? try writer.writeRows(inserted: part.inserted, updated: part.updated, deleted: part.deleted, checked: part.checked)
                : try writer.versionConflicts(updated: part.updated, deleted: part.deleted, checked: part.checked)
        }
        return conflicts
    }

    /// What the context has to save after the merge policy changed it, found as `save()` finds
    /// it: objects new to the save get `willSave()` and are validated, inserted ones get
    /// permanent IDs (their keys allocated inside the save's transactions).
    private func setsAfterResolution(_ previous: SaveSets, coordinator: NSPersistentStoreCoordinator, transactions: SaveTransactions) throws
        -> SaveSets
    {
        let before = Set((previous.inserted + previous.updated + previous.deleted).map(ObjectIdentifier.init))
        let sets = SaveSets(
            inserted: graph.insertedInOrder(),
            updated: graph.updatedToSave(),
            deleted: Array(graph.deleted.values))
        let new = (
            inserted: sets.inserted.filter { !before.contains(ObjectIdentifier($0)) },
            updated: sets.updated.filter { !before.contains(ObjectIdentifier($0)) },
            deleted: sets.deleted.filter { !before.contains(ObjectIdentifier($0)) }
        )
        for objects in [new.inserted, new.updated, new.deleted] { for object in objects { object.willSave() } }
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError { errors.append(error) }
        }
        for object in new.inserted { collect { try object.validateForInsert() } }
        for object in new.updated { collect { try object.validateForUpdate() } }
        for object in new.deleted { collect { try object.validateForDelete() } }
        try Validator.throwing(errors)
        let model = coordinator.engineModel
        for object in new.inserted { object.rebind(to: model) }
        try assignPermanentIDs(sets.inserted.filter { !$0.hasID || $0.id.isTemporaryID }, within: transactions)
        return sets
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

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
#endif

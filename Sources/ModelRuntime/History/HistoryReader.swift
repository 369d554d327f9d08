#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Reads and deletes a store's history rows. Runs under the coordinator's lock.
struct HistoryReader {
    let store: NSPersistentStore
    var connection: StoreConnection { store.engine.connection }

    /// Which transactions a request selects.
    enum Bound {
        case all
        case afterNumber(Int64)
        case afterDate(Date)
        case beforeNumber(Int64)
        case beforeDate(Date)

        var clause: (sql: String, bindings: [SQLiteValue]) {
            switch self {
            case .all: ("", [])
            case .afterNumber(let number): (" WHERE Z_PK > ?", [.integer(number)])
            case .afterDate(let date): (" WHERE ZTIMESTAMP > ?", [.real(date.timeIntervalSinceReferenceDate)])
            case .beforeNumber(let number): (" WHERE Z_PK < ?", [.integer(number)])
            case .beforeDate(let date): (" WHERE ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
            }
        }
    }

    /// Fails unless the store was opened with history tracking and has the tables.
    func checkTracking() throws {
        guard HistorySchema.isTracking(store.options), HistorySchema.hasTables(connection) else {
            throw CoreDataError.make(
                NSPersistentStoreUnsupportedRequestTypeError,
                "The store at \(store.url?.path ?? "") was not opened with NSPersistentHistoryTrackingKey")
        }
    }

    /// The number of the store's last transaction (0 for none): `Z_MAX` of the transaction entity.
    func lastTransactionNumber() throws -> Int64 {
        try SQLiteStoreEngine.wrap {
            try connection.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(HistorySchema.transactionEntity))])
                .first?.first?.integerValue ?? 0
        }
    }

    /// Fails with `NSPersistentHistoryTokenExpiredError` when transactions after `number` were
    /// recorded and then deleted (transaction numbers are consecutive, so a gap right after the
    /// token means deleted history).
    func checkNotExpired(after number: Int64) throws {
        let last = try lastTransactionNumber()
        guard number < last else { return }
        let next = try SQLiteStoreEngine.wrap {
            try connection.rows("SELECT MIN(Z_PK) FROM ATRANSACTION WHERE Z_PK > ?", [.integer(number)]).first?.first?.integerValue
        }
        if next != number + 1 {
            throw CoreDataError.make(
                NSPersistentHistoryTokenExpiredError, "The history after the token (transaction \(number)) has been deleted")
        }
    }

    func transactions(_ bound: Bound, withChanges: Bool) throws -> [NSPersistentHistoryTransaction] {
        let clause = bound.clause
        let statement = try SQLiteStoreEngine.wrap {
            try connection.prepare(
                "SELECT Z_PK, ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZBUNDLEID, ZPROCESSID FROM ATRANSACTION\(clause.sql) ORDER BY Z_PK")
        }
        statement.bind(clause.bindings)
        var result: [NSPersistentHistoryTransaction] = []
        while try SQLiteStoreEngine.wrap({ try statement.step() }) {
            result.append(
                NSPersistentHistoryTransaction(
                    number: statement.int64(at: 0), timestamp: Date(timeIntervalSinceReferenceDate: statement.double(at: 1)),
                    author: statement.string(at: 2), contextName: statement.string(at: 3), bundleID: statement.string(at: 4) ?? "",
                    processID: statement.string(at: 5) ?? "", storeID: store.engine.storeUUID))
        }
        if withChanges { try loadChanges(of: result) }
        return result
    }

    /// Reads the changes of `transactions` into them.
    func loadChanges(of transactions: [NSPersistentHistoryTransaction]) throws {
        guard let first = transactions.first?.transactionNumber, let last = transactions.last?.transactionNumber else { return }
        let byNumber = Dictionary(uniqueKeysWithValues: transactions.map { ($0.transactionNumber, $0) })
        for transaction in transactions { transaction.changes = [] }
        let tombstones = try SQLiteStoreEngine.wrap {
            try connection.rows("SELECT name FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'").count
        }
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try SQLiteStoreEngine.wrap {
            try connection.prepare(
                "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns) FROM ACHANGE "
                    + "WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY Z_PK")
        }
        statement.bind(first, at: 1)
        statement.bind(last, at: 2)
        while try SQLiteStoreEngine.wrap({ try statement.step() }) {
            guard let transaction = byNumber[statement.int64(at: 4)], let change = change(from: statement, tombstones: tombstones)
            else { continue }
            change.transaction = transaction
            transaction.changes?.append(change)
        }
    }

    private func change(from statement: Statement, tombstones: Int) -> NSPersistentHistoryChange? {
        guard let type = NSPersistentHistoryChangeType(rawValue: Int(statement.int64(at: 1))),
            let entity = store.engine.model.entity(number: Int(statement.int64(at: 2)))
        else { return nil }
        let id = NSManagedObjectID(
            entity: entity.description, rootEntityNumber: entity.rootNumber, key: .permanent(statement.int64(at: 3)), store: store)
        var updated: Set<NSPropertyDescription>?
        if type == .update, let bits = statement.bytes(at: 5) {
            let properties = HistorySchema.columnProperties(of: entity)
            updated = Set(
                properties.indices.filter { $0 / 8 < bits.count && bits[$0 / 8] & (0x80 >> UInt8($0 % 8)) != 0 }
                    .map { entity.properties[properties[$0].slot] })
        }
        var tombstone: [AnyHashable: Any]?
        if type == .delete {
            var values: [AnyHashable: Any] = [:]
            for (index, preserved) in HistorySchema.preservedAttributes(of: entity).enumerated() where index < tombstones {
                if let value = StoreValueCodec.read(statement, Int32(6 + index), as: preserved.attribute.attributeType) {
                    values[preserved.attribute.name] = value
                }
            }
            tombstone = values
        }
        return NSPersistentHistoryChange(
            changeID: statement.int64(at: 0), changeType: type, changedObjectID: id, updatedProperties: updated, tombstone: tombstone)
    }

    /// Deletes the selected transactions and their changes; returns how many changes went.
    func delete(_ bound: Bound) throws -> Int {
        let clause = bound.clause
        return try SQLiteStoreEngine.wrap {
            try connection.transaction(.immediate) {
                _ = try connection.rows(
                    "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION\(clause.sql))", clause.bindings)
                let changes = connection.changes
                _ = try connection.rows("DELETE FROM ATRANSACTION\(clause.sql)", clause.bindings)
                return changes
            }
        }
    }
}
#endif

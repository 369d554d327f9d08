#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// The context a batch request runs in, as its history transaction records it: `ZAUTHOR` is the
/// context's `transactionAuthor`, `ZCONTEXTNAME` its `name`.
struct HistoryOrigin {
    let author: String?
    let contextName: String?
}

/// Records one batch request in a tracked store's history, inside the request's own SQLite
/// transaction: one `ATRANSACTION` row and one `ACHANGE` row per affected row (nothing when no
/// row was affected). Rows SQL can select are recorded by `INSERT … SELECT`: a batch insert's
/// new rows by their key range, a batch update's rows by its selection (with
/// `NSPersistentHistoryBatchDeleteUpdateTrigger` computing `ZCOLUMNS`), a batch delete's rows
/// with their tombstone columns copied from the row. Changes are numbered inserts, updates,
/// deletes, each by entity number and key, as a save numbers them.
struct HistoryBatchRecorder {
    let store: NSPersistentStore
    let origin: HistoryOrigin
    private var connection: StoreConnection { store.engine.connection }
    private var recorder: HistoryRecorder { HistoryRecorder(connection: connection) }

    /// A recorder when the store tracks history and the request has an origin, else nil.
    init?(store: NSPersistentStore, origin: HistoryOrigin?) {
        guard let origin, HistorySchema.isTracking(store.options) else { return nil }
        self.store = store
        self.origin = origin
    }

    private static let changeColumns = "Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"

    /// A batch insert: the new rows with keys in `keys` (of `entity`'s table), then the stored
    /// rows an upsert updated, with the bits of the properties the insert writes.
    func recordInsert(entity: EngineEntity, keys: ClosedRange<Int64>?, upserted: [(key: Int64, entity: Int)], written: Set<String>)
        throws
    {
        let updates = Self.ordered(upserted.map { (entity: $0.entity, key: $0.key) })
        let count = (keys?.count ?? 0) + updates.count
        guard count > 0 else { return }
        let transaction = try recorder.writeTransaction(author: origin.author, contextName: origin.contextName)
        var next = try recorder.reserve(count, entity: HistorySchema.changeEntity)
        if let keys {
            let statement = try connection.cachedStatement(
                "INSERT INTO ACHANGE (\(Self.changeColumns)) SELECT Z_PK + ?, \(HistorySchema.changeEntity), 1, "
                    + "\(HistoryRecorder.insertType), Z_ENT, Z_PK, ?, NULL FROM \(entity.table.name) WHERE Z_PK BETWEEN ? AND ?")
            defer { statement.reset() }
            statement.bind(next - keys.lowerBound, at: 1)
            statement.bind(transaction, at: 2)
            statement.bind(keys.lowerBound, at: 3)
            statement.bind(keys.upperBound, at: 4)
            try statement.step()
            next += Int64(keys.count)
        }
        for row in updates {
            try writeChange(key: next, transaction: transaction, type: HistoryRecorder.updateType, row: row) { written.contains($0.name) }
            next += 1
        }
    }

    /// A batch update, before its `UPDATE` runs: one update change per row `selection` (the
    /// request's `Z_ENT, Z_PK` query, `count` rows) gives, with the bits of `names`.
    func recordUpdate(selection: FetchSQL, count: Int, names: [String]) throws {
        guard count > 0 else { return }
        let transaction = try recorder.writeTransaction(author: origin.author, contextName: origin.contextName)
        let first = try recorder.reserve(count, entity: HistorySchema.changeEntity)
        let quoted = names.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
        // Keys and the transaction are literals: the selection's own parameters are numbered from 1.
        let statement = try connection.prepare(
            "INSERT INTO ACHANGE (\(Self.changeColumns)) SELECT \(first - 1) + ROW_NUMBER() OVER (ORDER BY Z_ENT, Z_PK), "
                + "\(HistorySchema.changeEntity), 1, \(HistoryRecorder.updateType), Z_ENT, Z_PK, \(transaction), "
                + "NSPersistentHistoryBatchDeleteUpdateTrigger(Z_ENT, \(quoted)) FROM (\(selection.sql))")
        statement.bind(selection.bindings)
        try statement.step()
        guard connection.changes == count else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The batch update's history does not match its rows")
        }
    }

    /// A batch delete, before its rows go: an update change per row a nullify rule changed
    /// (`updated`: the row and the names of its properties that changed), then a delete change
    /// per deleted row with its preserved attributes copied into the tombstone columns.
    func recordDelete(
        model: EngineModel, deleted: [(entity: Int, key: Int64)], updated: [(row: (entity: Int, key: Int64), names: Set<String>)]
    )
        throws
    {
        let count = deleted.count + updated.count
        guard count > 0 else { return }
        let transaction = try recorder.writeTransaction(author: origin.author, contextName: origin.contextName)
        var next = try recorder.reserve(count, entity: HistorySchema.changeEntity)
        let updates = updated.sorted { ($0.row.entity, $0.row.key) < ($1.row.entity, $1.row.key) }
        for update in updates {
            try writeChange(key: next, transaction: transaction, type: HistoryRecorder.updateType, row: update.row) {
                update.names.contains($0.name)
            }
            next += 1
        }
        for row in Self.ordered(deleted) {
            guard let entity = model.entity(number: row.entity) else { continue }
            let preserved = HistorySchema.preservedAttributes(of: entity).map { preserved -> String in
                guard case .attribute(_, let column?) = entity.slotKinds[preserved.slot] else { return "NULL" }
                return entity.table.columns[Int(column)].name
            }
            var columns = Self.changeColumns
            for index in preserved.indices { columns += ", ZTOMBSTONE\(index)" }
            let copied = preserved.map { ", " + $0 }.joined()
            let statement = try connection.cachedStatement(
                "INSERT INTO ACHANGE (\(columns)) SELECT ?, \(HistorySchema.changeEntity), 1, \(HistoryRecorder.deleteType), "
                    + "Z_ENT, Z_PK, ?, NULL\(copied) FROM \(entity.table.name) WHERE Z_PK = ?")
            defer { statement.reset() }
            statement.bind(next, at: 1)
            statement.bind(transaction, at: 2)
            statement.bind(row.key, at: 3)
            try statement.step()
            next += 1
        }
    }

    private func writeChange(
        key: Int64, transaction: Int64, type: Int64, row: (entity: Int, key: Int64), isSet: ((slot: Int, name: String)) -> Bool
    ) throws {
        let statement = try connection.cachedStatement(
            "INSERT INTO ACHANGE (\(Self.changeColumns)) VALUES (?, \(HistorySchema.changeEntity), 1, ?, ?, ?, ?, ?)")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        statement.bind(type, at: 2)
        statement.bind(Int64(row.entity), at: 3)
        statement.bind(row.key, at: 4)
        statement.bind(transaction, at: 5)
        if let entity = store.engine.model.entity(number: row.entity) {
            statement.bind(bytes: HistoryRecorder.columnBits(of: entity, where: isSet), at: 6)
        } else {
            statement.bindNull(at: 6)
        }
        try statement.step()
    }

    /// Rows once each, by entity number, then key.
    private static func ordered(_ rows: [(entity: Int, key: Int64)]) -> [(entity: Int, key: Int64)] {
        var seen: Set<[Int64]> = []
        return rows.filter { seen.insert([Int64($0.entity), $0.key]).inserted }.sorted { ($0.entity, $0.key) < ($1.entity, $1.key) }
    }
}

/// What `NSPersistentHistoryBatchDeleteUpdateTrigger(Z_ENT, name, …)` returns on a store's
/// connection: the `ZCOLUMNS` bit map of the named properties, cached per entity and names.
final class HistoryColumnMasks {
    private let model: EngineModel
    private var cache: [String: [UInt8]] = [:]

    init(model: EngineModel) { self.model = model }

    func mask(entityNumber: Int64, names: [String]) -> [UInt8]? {
        let key = "\(entityNumber) " + names.joined(separator: " ")
        if let cached = cache[key] { return cached }
        guard let entity = model.entity(number: Int(entityNumber)) else { return nil }
        let wanted = Set(names)
        let mask = HistoryRecorder.columnBits(of: entity) { wanted.contains($0.name) }
        cache[key] = mask
        return mask
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Records one save in a store's history tables, inside the save's SQLite transaction: one
/// `ATRANSACTION` row (strings interned in `ATRANSACTIONSTRING`) and one `ACHANGE` row per
/// inserted, updated and deleted object. Does nothing for a store opened without
/// `NSPersistentHistoryTrackingKey`.
struct HistoryRecorder {
    let connection: StoreConnection

    /// The change types `ACHANGE.ZCHANGETYPE` holds (`NSPersistentHistoryChangeType`).
    static let insertType: Int64 = 0
    static let updateType: Int64 = 1
    static let deleteType: Int64 = 2

    /// What a transaction records of the context that saved it.
    struct Names {
        /// The context's `transactionAuthor`.
        var author: String?
        /// The context's `name`.
        var contextName: String?
    }

    static func record(
        _ names: Names, store: NSPersistentStore, inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]
    ) throws {
        guard HistorySchema.isTracking(store.options), !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        let recorder = HistoryRecorder(connection: store.engine.connection)
        var changes: [(type: Int64, object: NSManagedObject)] = []
        for (type, objects) in [(insertType, inserted), (updateType, updated), (deleteType, deleted)] {
            changes += Self.ordered(objects).map { (type, $0) }
        }
        try recorder.write(author: names.author, contextName: names.contextName, changes: changes)
    }

    /// Objects by entity number, then primary key: a deterministic order.
    static func ordered(_ objects: [NSManagedObject]) -> [NSManagedObject] {
        objects.filter { $0.id.primaryKey != nil }.sorted {
            ($0.engine.number, $0.id.primaryKey ?? 0) < ($1.engine.number, $1.id.primaryKey ?? 0)
        }
    }

    /// The bundle identifier Core Data records: the main bundle's, else the process name.
    static var bundleID: String { Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName }

    private func write(author: String?, contextName: String?, changes: [(type: Int64, object: NSManagedObject)]) throws {
        let transaction = try writeTransaction(author: author, contextName: contextName)
        guard !changes.isEmpty else { return }
        var key = try reserve(changes.count, entity: HistorySchema.changeEntity)
        for change in changes {
            try writeChange(key: key, transaction: transaction, type: change.type, object: change.object)
            key += 1
        }
    }

    /// Writes the `ATRANSACTION` row of one save or batch request; returns its key.
    func writeTransaction(author: String?, contextName: String?) throws -> Int64 {
        let processID = String(ProcessInfo.processInfo.processIdentifier)
        let strings = [author, Self.bundleID, contextName, processID]
        let keys = try strings.map { try $0.map(intern) }
        let transaction = try reserve(1, entity: HistorySchema.transactionEntity)
        let statement = try connection.cachedStatement(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, "
                + "ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        defer { statement.reset() }
        statement.bind(transaction, at: 1)
        statement.bind(Int64(HistorySchema.transactionEntity), at: 2)
        for (offset, key) in keys.enumerated() {
            if let key { statement.bind(key, at: Int32(3 + offset)) } else { statement.bindNull(at: Int32(3 + offset)) }
        }
        statement.bind(Date().timeIntervalSinceReferenceDate, at: 7)
        for (offset, string) in strings.enumerated() {
            if let string { statement.bind(string, at: Int32(8 + offset)) } else { statement.bindNull(at: Int32(8 + offset)) }
        }
        _ = try statement.step()
        return transaction
    }

    private func writeChange(key: Int64, transaction: Int64, type: Int64, object: NSManagedObject) throws {
        let entity = object.engine
        let tombstones = type == Self.deleteType ? HistorySchema.preservedAttributes(of: entity) : []
        var columns = "Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"
        for index in tombstones.indices { columns += ", ZTOMBSTONE\(index)" }
        let marks = Array(repeating: "?", count: 8 + tombstones.count).joined(separator: ", ")
        let statement = try connection.cachedStatement("INSERT INTO ACHANGE (\(columns)) VALUES (\(marks))")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        statement.bind(Int64(HistorySchema.changeEntity), at: 2)
        statement.bind(Int64(1), at: 3)
        statement.bind(type, at: 4)
        statement.bind(Int64(entity.number), at: 5)
        statement.bind(object.id.primaryKey ?? 0, at: 6)
        statement.bind(transaction, at: 7)
        if type == Self.updateType {
            statement.bind(bytes: Self.columnBits(of: object), at: 8)
        } else {
            statement.bindNull(at: 8)
        }
        for (index, preserved) in tombstones.enumerated() {
            let value = object.hasCommitted ? object.committedValue(at: preserved.slot) : object.values[preserved.slot]
            StoreValueCodec.bind(value, as: preserved.attribute.attributeType, to: statement, at: Int32(9 + index))
        }
        _ = try statement.step()
    }

    /// `ZCOLUMNS`: bit *n* (from the most significant bit of byte 0) set when the *n*-th of the
    /// entity's non-transient properties, sorted by name, changed.
    static func columnBits(of object: NSManagedObject) -> [UInt8] {
        columnBits(of: object.engine) { object.isChanged($0.slot) }
    }

    /// `ZCOLUMNS` of `entity` with the bits of the properties `isSet` accepts.
    static func columnBits(of entity: EngineEntity, where isSet: ((slot: Int, name: String)) -> Bool) -> [UInt8] {
        let properties = HistorySchema.columnProperties(of: entity)
        var bytes = [UInt8](repeating: 0, count: (properties.count + 7) / 8)
        for (bit, property) in properties.enumerated() where isSet(property) {
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return bytes
    }

    /// The `ATRANSACTIONSTRING` key of `string`, added when new.
    private func intern(_ string: String) throws -> Int64 {
        let find = try connection.cachedStatement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        defer { find.reset() }
        find.bind(string, at: 1)
        if try find.step() { return find.int64(at: 0) }
        let key = try reserve(1, entity: HistorySchema.stringEntity)
        let insert = try connection.cachedStatement("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
        defer { insert.reset() }
        insert.bind(key, at: 1)
        insert.bind(Int64(HistorySchema.stringEntity), at: 2)
        insert.bind(string, at: 3)
        _ = try insert.step()
        return key
    }

    /// Reserves `count` keys of a history entity in `Z_PRIMARYKEY` (inside the save's
    /// transaction, which holds the write lock); returns the first.
    func reserve(_ count: Int, entity: Int) throws -> Int64 {
        let update = try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?")
        update.bind(Int64(count), at: 1)
        update.bind(Int64(entity), at: 2)
        _ = try update.step()
        update.reset()
        let read = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        defer { read.reset() }
        read.bind(Int64(entity), at: 1)
        guard try read.step() else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The store's Z_PRIMARYKEY has no row for history entity \(entity)")
        }
        return read.int64(at: 0) - Int64(count) + 1
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Core Data's persistent-history tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`),
/// created in a store opened with `NSPersistentHistoryTrackingKey`. See
/// docs/runtime/History.md for what is confirmed and what is inferred.
enum HistorySchema {
    /// `Z_PRIMARYKEY` numbers of the history entities.
    static let changeEntity = 16001
    static let transactionEntity = 16002
    static let stringEntity = 16003

    static let transactionTable =
        "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
        + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, "
        + "ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB)"
    static let changeTable =
        "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, "
        + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB)"
    static let stringTable = "CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)"
    static let indexes = [
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZTIMESTAMP_INDEX ON ATRANSACTION (ZTIMESTAMP)",
        "CREATE UNIQUE INDEX ATRANSACTIONSTRING_ZNAME_INDEX ON ATRANSACTIONSTRING (ZNAME)",
    ]
    static let entityRows = [(changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING")]

    /// Whether the options turn history tracking on.
    static func isTracking(_ options: [AnyHashable: Any]?) -> Bool {
        let value = options?[NSPersistentHistoryTrackingKey]
        return (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }

    /// The number of `ZTOMBSTONE<n>` columns the model needs: the most preserve-after-deletion
    /// attributes any one entity has.
    static func tombstoneColumnCount(_ model: EngineModel) -> Int {
        model.entities.map { preservedAttributes(of: $0).count }.max() ?? 0
    }

    /// An entity's attributes marked `preservesValueInHistoryOnDeletion`, in name order, with
    /// their slots: `ZTOMBSTONE0`, `ZTOMBSTONE1`, … hold their values in this order.
    static func preservedAttributes(of entity: EngineEntity) -> [(slot: Int, attribute: NSAttributeDescription)] {
        entity.properties.indices.compactMap { slot -> (slot: Int, attribute: NSAttributeDescription)? in
            guard let attribute = entity.properties[slot] as? NSAttributeDescription, attribute.preservesValueInHistoryOnDeletion,
                !attribute.isTransient
            else { return nil }
            return (slot, attribute)
        }.sorted { $0.attribute.name < $1.attribute.name }
    }

    /// The properties `ACHANGE.ZCOLUMNS` bits stand for: the entity's non-transient attributes
    /// and relationships, sorted by name.
    static func columnProperties(of entity: EngineEntity) -> [(slot: Int, name: String)] {
        entity.properties.indices.filter { !entity.properties[$0].isTransient }
            .map { ($0, entity.properties[$0].name) }.sorted { $0.name < $1.name }
    }

    /// Creates the history tables, their `Z_PRIMARYKEY` rows and the tombstone columns the model
    /// needs, where missing.
    static func prepare(_ connection: StoreConnection, model: EngineModel) throws {
        try connection.transaction(.immediate) {
            let existing = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.first?.textValue))
            if !existing.contains("ATRANSACTION") {
                for sql in [transactionTable, changeTable, stringTable] + indexes { try connection.execute(sql) }
            }
            for (number, name) in entityRows {
                _ = try connection.rows(
                    "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                    [.integer(Int64(number)), .text(name)])
            }
            let columns = Set(try connection.rows("SELECT name FROM pragma_table_info('ACHANGE')").compactMap(\.first?.textValue))
            for index in 0..<tombstoneColumnCount(model) where !columns.contains("ZTOMBSTONE\(index)") {
                try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index) BLOB")
            }
        }
    }

    /// Whether the store's file has the history tables.
    static func hasTables(_ connection: StoreConnection) -> Bool {
        ((try? connection.rows("SELECT 1 FROM sqlite_master WHERE name = 'ATRANSACTION'")) ?? []).isEmpty == false
    }
}
#endif

import Foundation
import ModelSchema

/// Creates a new store with exactly Core Data's DDL: the entity tables, join tables and indexes
/// of a ``StoreLayout``, then `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`, in the order Core
/// Data creates them (confirmed against every fixture store's `sqlite_master`), and the triggers
/// of derived attributes (``DerivedAttributeTriggers``).
public enum StoreSchema {
    /// The bookkeeping tables, character for character as Core Data writes them.
    public static let primaryKeyTable =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    public static let metadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    public static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Every `CREATE` statement of a new store, in order.
    public static func statements(for layout: StoreLayout) -> [String] {
        var statements: [String] = []
        for table in layout.tables {
            statements.append("CREATE TABLE \(table.name) ( " + table.columns.map(definition).joined(separator: ", ") + " )")
        }
        for joinTable in layout.joinTables {
            let columns = [joinTable.first.column, joinTable.second.column] + joinTable.orderColumns
            statements.append(
                "CREATE TABLE \(joinTable.name) ( " + columns.map { "\($0) INTEGER" }.joined(separator: ", ")
                    + ", PRIMARY KEY (\(joinTable.first.column), \(joinTable.second.column)) )")
        }
        for index in layout.indexes {
            let elements = index.elements.map { element in element.ordering.map { "\(element.column) \($0)" } ?? element.column }
            statements.append(
                "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (" + elements.joined(separator: ", ") + ")")
        }
        return statements + [primaryKeyTable, metadataTable, modelCacheTable]
    }

    private static func definition(_ column: StoreLayout.Column) -> String {
        column.role == .primaryKey ? "\(column.name) INTEGER PRIMARY KEY" : "\(column.name) \(column.type.rawValue)"
    }

    public struct CreationError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Creates a store for `version` at `path` (which must not exist, or with `inEmptyFile` be a
    /// zero-length file, which is kept): pragmas, DDL, `Z_PRIMARYKEY` rows, metadata and model
    /// cache, in one transaction. Returns the open connection.
    public static func create(
        at path: String, version: ModelVersion, layout: StoreLayout? = nil, storeUUID: String = UUID().uuidString
    ) throws -> StoreConnection {
        try create(at: path, version: version, layout: layout, storeUUID: storeUUID, inEmptyFile: false)
    }

    public static func create(
        at path: String, version: ModelVersion, layout: StoreLayout?, storeUUID: String = UUID().uuidString, inEmptyFile: Bool
    ) throws -> StoreConnection {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        let reused = inEmptyFile && size == 0
        guard !FileManager.default.fileExists(atPath: path) || reused else {
            throw CreationError(message: "'\(path)' already exists")
        }
        let layout = layout ?? StoreLayout(version)
        do {
            return try populate(at: path, version: version, layout: layout, storeUUID: storeUUID)
        } catch {
            // Leave no half-created store behind (and the empty file empty).
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            if reused {
                try? FileHandle(forWritingAtPath: path)?.truncate(atOffset: 0)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
            throw error
        }
    }

    private static func populate(at path: String, version: ModelVersion, layout: StoreLayout, storeUUID: String) throws -> StoreConnection {
        let connection = try StoreConnection(path: path, mode: .create)
        try connection.applyNewStorePragmas()
        try connection.transaction(.exclusive) {
            for statement in statements(for: layout) { try connection.execute(statement) }
            // Derived attributes' triggers, after the tables they read (their place among
            // Core Data's statements is not confirmed: no fixture store has derived attributes).
            for statement in DerivedAttributeTriggers.statements(for: version, layout: layout) { try connection.execute(statement) }
            let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for entity in layout.entities {
                insert.reset()
                insert.bind(Int64(entity.entityNumber), at: 1)
                insert.bind(entity.name, at: 2)
                insert.bind(Int64(entity.superEntityNumber), at: 3)
                try insert.step()
            }
            try StoreMetadataTable.write(.init(storeUUID: storeUUID, plist: StoreMetadataPlist.make(for: version)), to: connection)
            let cache = try connection.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
            cache.bind(bytes: try ModelCache.encode(version), at: 1)
            try cache.step()
        }
        return connection
    }
}

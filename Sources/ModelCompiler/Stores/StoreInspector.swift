import CSQLite
import Foundation
import ModelSchema

/// What a Core Data SQLite store says about itself.
public struct StoreMetadata: Sendable, Equatable {
    public struct EntityTable: Sendable, Equatable {
        public let entityName: String
        public let entityNumber: Int
        /// The table holding the entity's rows: that of the root of its inheritance tree.
        public let tableName: String
        /// Rows of exactly this entity (not of its sub-entities).
        public let rowCount: Int
    }

    public let storeUUID: String
    public let storeType: String?
    public let frameworkVersion: Int?
    public let versionIdentifiers: [String]
    public let entityHashes: [String: [UInt8]]
    public let hashesDigest: String?
    public let versionChecksum: String?
    public let entityTables: [EntityTable]
}

public struct StoreInspectionError: Error, Equatable, Sendable {
    public let message: String

    public init(message: String) {
        self.message = message
    }
}

/// Reads a Core Data SQLite store without ever modifying it. SQLite writes to a WAL store even
/// to read it (it may checkpoint, and it creates `-shm`), so the store and its `-wal`/`-shm`
/// companions are copied to a private temporary folder first and only the copy is opened.
public enum StoreInspector {
    public static func inspect(_ path: String) throws(StoreInspectionError) -> StoreMetadata {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreInspectionError(message: "no such file")
        }
        guard !isDirectory.boolValue else { throw StoreInspectionError(message: "'\(path)' is a folder, not a store file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StoreInspectionError(message: "cannot read the file") }
        let header = (try? handle.read(upToCount: 16)) ?? nil
        try? handle.close()
        guard let header, header.elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw StoreInspectionError(message: "not a SQLite database")
        }
        let copy = try temporaryCopy(of: path)
        defer { try? fileManager.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let database = try Database(path: copy)
        return try database.readMetadata()
    }

    private static func temporaryCopy(of path: String) throws(StoreInspectionError) -> String {
        let fileManager = FileManager.default
        let folder = fileManager.temporaryDirectory.appendingPathComponent("modelgen-store-\(UUID().uuidString)").path
        let destination = folder + "/store.sqlite"
        do {
            try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: path, toPath: destination)
            for suffix in ["-wal", "-shm"] where fileManager.fileExists(atPath: path + suffix) {
                try fileManager.copyItem(atPath: path + suffix, toPath: destination + suffix)
            }
            for file in [destination, destination + "-wal", destination + "-shm"] where fileManager.fileExists(atPath: file) {
                try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        } catch {
            try? fileManager.removeItem(atPath: folder)
            throw StoreInspectionError(message: "cannot copy the store to a temporary folder: \(error.localizedDescription)")
        }
        return destination
    }
}

/// A minimal SQLite connection for reading store bookkeeping tables.
private final class Database {
    private var handle: OpaquePointer?

    init(path: String) throws(StoreInspectionError) {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw StoreInspectionError(message: "cannot open the database: \(message)")
        }
    }

    deinit { sqlite3_close(handle) }

    /// Runs a query and returns its rows; each column as Int, String, Data or nil. Bindings are
    /// Ints or Strings, never spliced into the SQL text.
    func rows(_ sql: String, _ bindings: [Any] = []) throws(StoreInspectionError) -> [[Any?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreInspectionError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in bindings.enumerated() {
            if let number = value as? Int {
                sqlite3_bind_int64(statement, Int32(index + 1), Int64(number))
            } else if let text = value as? String {
                sqlite3_bind_text(statement, Int32(index + 1), text, -1, transient)
            }
        }
        var result: [[Any?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw StoreInspectionError(message: String(cString: sqlite3_errmsg(handle))) }
            var row: [Any?] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(Int(sqlite3_column_int64(statement, column)))
                case SQLITE_TEXT: row.append(String(cString: sqlite3_column_text(statement, column)))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    row.append(count == 0 ? Data() : Data(bytes: sqlite3_column_blob(statement, column), count: count))
                default: row.append(nil)
                }
            }
            result.append(row)
        }
        return result
    }

    func tableExists(_ name: String) throws(StoreInspectionError) -> Bool {
        !(try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [name])).isEmpty
    }

    func readMetadata() throws(StoreInspectionError) -> StoreMetadata {
        guard try tableExists("Z_METADATA") else {
            throw StoreInspectionError(message: "not a Core Data store: the database has no Z_METADATA table")
        }
        guard let row = try rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA").first, let plistData = row[1] as? Data else {
            throw StoreInspectionError(message: "not a Core Data store: Z_METADATA holds no metadata")
        }
        guard let plist = PropertyList.foundationObject(from: plistData) as? [String: Any] else {
            throw StoreInspectionError(message: "the store metadata is not a property list dictionary")
        }
        var hashes: [String: [UInt8]] = [:]
        for (entity, value) in plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:] {
            if let data = value as? Data { hashes[entity] = [UInt8](data) }
        }
        return StoreMetadata(
            storeUUID: row[0] as? String ?? "", storeType: plist["NSStoreType"] as? String,
            frameworkVersion: (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue,
            versionIdentifiers: plist["NSStoreModelVersionIdentifiers"] as? [String] ?? [], entityHashes: hashes,
            hashesDigest: plist["NSStoreModelVersionHashesDigest"] as? String,
            versionChecksum: plist["NSStoreModelVersionChecksumKey"] as? String, entityTables: try entityTables())
    }

    private func entityTables() throws(StoreInspectionError) -> [StoreMetadata.EntityTable] {
        guard try tableExists("Z_PRIMARYKEY") else { return [] }
        let entities = try rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var names: [Int: String] = [:]
        var parents: [Int: Int] = [:]
        for entity in entities {
            guard let number = entity[0] as? Int, let name = entity[1] as? String else { continue }
            names[number] = name
            parents[number] = entity[2] as? Int ?? 0
        }
        var tables: [StoreMetadata.EntityTable] = []
        for number in names.keys.sorted() where number < 16000 {  // 16001… are persistent-history entities
            var root = number
            var seen: Set<Int> = [number]
            while let parent = parents[root], parent != 0, names[parent] != nil, seen.insert(parent).inserted { root = parent }
            let table = "Z" + names[root]!.uppercased()
            var count = 0
            if try tableExists(table) {
                // The name is a table that exists (checked above), quoted as an identifier.
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                count = try rows("SELECT COUNT(*) FROM \(quoted) WHERE Z_ENT = ?", [number]).first?.first as? Int ?? 0
            }
            tables.append(.init(entityName: names[number]!, entityNumber: number, tableName: table, rowCount: count))
        }
        return tables
    }
}

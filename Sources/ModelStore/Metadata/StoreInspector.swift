import Foundation
import ModelSchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct StoreInspectionError: Error, Equatable, Sendable {
    public let message: String

    public init(message: String) {
        self.message = message
    }
}

/// Reads a Core Data SQLite store without writing anything anywhere: not to the store, not
/// beside it (no `-shm`, no checkpoint), not to a temporary folder, so an interrupted or killed
/// inspection leaves nothing behind.
///
/// - A rollback-journal store is opened read-only (`mode=ro`).
/// - A WAL store whose `-wal` is absent or empty is opened `immutable=1`: its whole content is in
///   the main file, and an immutable open takes no locks and creates no `-shm`.
/// - A WAL store with an un-checkpointed `-wal` is read into memory with the committed WAL frames
///   applied (``WALReplay``) and opened from that image. `immutable=1` would silently ignore the
///   WAL (it returned an empty store for the WAL fixture), and a read-only open would need to
///   create or write the `-shm`.
public enum StoreInspector {
    /// Stores read into memory (those with an un-checkpointed WAL) may be at most this large.
    public static let inMemoryLimit = 1 << 30

    public static func inspect(_ path: String) throws(StoreInspectionError) -> StoreMetadata {
        let connection = try open(path)
        return try read(connection)
    }

    /// Opens a store for reading as described above.
    public static func open(_ path: String) throws(StoreInspectionError) -> StoreConnection {
        let connection = try openWithoutTemporaryFiles(path)
        // Sorts and temporary tables stay in memory too, so SQLite creates no temporary files.
        do { try connection.execute("PRAGMA temp_store = MEMORY") } catch { throw StoreInspectionError(message: error.message) }
        return connection
    }

    private static func openWithoutTemporaryFiles(_ path: String) throws(StoreInspectionError) -> StoreConnection {
        let size = try regularFileSize(path, role: "store")
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StoreInspectionError(message: "cannot read the file") }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        try? handle.close()
        guard header.count >= 16, header[0..<16].elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw StoreInspectionError(message: "not a SQLite database")
        }
        let isWAL = header.count >= 20 && header[18] == 2 && header[19] == 2
        do {
            guard isWAL else { return try StoreConnection(path: uri(path, "mode=ro"), mode: .readOnly) }
            let walSize = FileManager.default.fileExists(atPath: path + "-wal") ? try regularFileSize(path + "-wal", role: "-wal file") : 0
            if walSize == 0 { return try StoreConnection(path: uri(path, "immutable=1"), mode: .readOnly) }
            guard size + walSize <= inMemoryLimit else {
                throw StoreInspectionError(
                    message:
                        "the store has an un-checkpointed -wal file and is too large to read into memory; open it with its app once to checkpoint it"
                )
            }
            let database = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let wal = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
            return try StoreConnection.readOnlyImage(WALReplay.image(database: database, wal: wal))
        } catch let error as StoreInspectionError {
            throw error
        } catch let error as StoreSQLiteError {
            throw StoreInspectionError(message: "cannot open the database: \(error.message)")
        } catch let error as WALReplay.FormatError {
            throw StoreInspectionError(message: error.message)
        } catch {
            throw StoreInspectionError(message: "cannot read the store: \(error.localizedDescription)")
        }
    }

    /// The size of a regular file; anything else (a folder, a FIFO, a device, a socket) is
    /// refused before it is opened, since reading a FIFO would block forever.
    static func regularFileSize(_ path: String, role: String) throws(StoreInspectionError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StoreInspectionError(message: role == "store" ? "no such file" : "cannot read the \(role)")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw StoreInspectionError(message: "'\(path)' is a folder, not a store file") }
        guard type == S_IFREG else {
            throw StoreInspectionError(
                message: "'\(path)' is not a regular file (a FIFO, socket or device); only store files can be inspected")
        }
        return Int(info.st_size)
    }

    /// A `file:` URI for `path` with one query parameter; every byte outside the unreserved set
    /// is percent-encoded so `?`, `#` and `%` in file names stay part of the path.
    static func uri(_ path: String, _ parameter: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || "/-._~".unicodeScalars.contains(scalar)
            {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return "file:\(encoded)?\(parameter)"
    }

    /// Reads the metadata and the entity tables of an open store.
    public static func read(_ connection: StoreConnection) throws(StoreInspectionError) -> StoreMetadata {
        do {
            guard try tableExists("Z_METADATA", connection) else {
                throw StoreInspectionError(message: "not a Core Data store: the database has no Z_METADATA table")
            }
            guard let row = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA").first, let bytes = row[1].blobValue else {
                throw StoreInspectionError(message: "not a Core Data store: Z_METADATA holds no metadata")
            }
            guard let plist = PropertyList.foundationObject(from: Data(bytes)) as? [String: Any] else {
                throw StoreInspectionError(message: "the store metadata is not a property list dictionary")
            }
            let hashes = StoreModelMatch.entityHashes(inMetadata: plist) ?? [:]
            return StoreMetadata(
                storeUUID: row[0].textValue ?? "", storeType: plist["NSStoreType"] as? String,
                frameworkVersion: (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue,
                versionIdentifiers: plist["NSStoreModelVersionIdentifiers"] as? [String] ?? [], entityHashes: hashes,
                hashesDigest: plist["NSStoreModelVersionHashesDigest"] as? String,
                versionChecksum: plist["NSStoreModelVersionChecksumKey"] as? String, entityTables: try entityTables(connection))
        } catch let error as StoreInspectionError {
            throw error
        } catch {
            throw StoreInspectionError(message: ErrorText.message(error))
        }
    }

    private static func tableExists(_ name: String, _ connection: StoreConnection) throws -> Bool {
        !(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])).isEmpty
    }

    private static func entityTables(_ connection: StoreConnection) throws -> [StoreMetadata.EntityTable] {
        guard try tableExists("Z_PRIMARYKEY", connection) else { return [] }
        var names: [Int: String] = [:]
        var parents: [Int: Int] = [:]
        for entity in try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard let number = entity[0].integerValue.map(Int.init), let name = entity[1].textValue else { continue }
            names[number] = name
            parents[number] = entity[2].integerValue.map(Int.init) ?? 0
        }
        var tables: [StoreMetadata.EntityTable] = []
        for number in names.keys.sorted() where number < 16000 {  // 16001… are persistent-history entities
            var root = number
            var seen: Set<Int> = [number]
            while let parent = parents[root], parent != 0, names[parent] != nil, seen.insert(parent).inserted { root = parent }
            let table = "Z" + names[root]!.uppercased()
            var count = 0
            if try tableExists(table, connection) {
                // The name is a table that exists (checked above), quoted as an identifier.
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                count = Int(
                    try connection.rows("SELECT COUNT(*) FROM \(quoted) WHERE Z_ENT = ?", [.integer(Int64(number))]).first?.first?
                        .integerValue ?? 0)
            }
            tables.append(.init(entityName: names[number]!, entityNumber: number, tableName: table, rowCount: count))
        }
        return tables
    }
}

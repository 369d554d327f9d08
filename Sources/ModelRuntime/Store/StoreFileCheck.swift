#if !canImport(CoreData)
import ModelQuery
import ModelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What is at an `NSSQLiteStoreType` store's URL, found out before anything opens the file for
/// writing, so that a file that is not a Core Data store is refused with Core Data's error and
/// left byte for byte as it was (no journal-mode switch, no `-wal`/`-shm` beside it).
///
/// | at the URL | result | evidence |
/// |---|---|---|
/// | nothing | a new store (read-write) | Core Data's documented behaviour |
/// | a zero-length file | a new store in it (read-write) | confirmed for file-based stores: Apple's `NSAtomicStore` and `NSIncrementalStore` documentation say a zero-length file tells the system to create a new store there; inferred for the SQLite store, whose `destroyPersistentStore` leaves exactly such a file (see ``StoreFileRemoval``) that apps add again |
/// | not SQLite: text, random bytes, shorter than SQLite's 100-byte header, or a header promising more pages than the file has | `NSFileReadCorruptFileError` (259), `NSSQLiteErrorDomain` 26 (`SQLITE_NOTADB`) or 11 (`SQLITE_CORRUPT`) | 259 with `NSSQLiteErrorDomain` 26 and "couldn’t be opened because it isn’t in the correct format" confirmed on Apple platforms for a store whose bytes were overwritten; 259 carrying `NSURL` seen from `addPersistentStore`; 11 for a truncated file inferred |
/// | SQLite without Core Data's `Z_METADATA` and `Z_PRIMARYKEY` | `NSPersistentStoreInvalidTypeError` (134000) | reported on Apple platforms for a database whose Core Data tables its SQLite could not see; inferred for other databases |
/// | a folder, FIFO, socket or device; a symbolic link to nothing | `NSFileReadUnknownError` (256), `NSSQLiteErrorDomain` 14 (`SQLITE_CANTOPEN`) | 256 with `NSFilePath` and `NSSQLiteErrorDomain` confirmed for SQLite open failures; the SQLite code for these files inferred |
///
/// Every error carries `NSFilePathErrorKey` and `NSURLErrorKey`, names the path in its
/// description and keeps SQLite's code and message in `NSUnderlyingErrorKey`.
enum StoreFileCheck {
    enum Contents: Equatable {
        /// No file: a read-write load creates the store.
        case missing
        /// A zero-length file: a read-write load creates the store in it.
        case empty
        /// A SQLite database without a single table, index, view or trigger (what a store
        /// creation stopped before its transaction committed leaves): it holds nothing, so a
        /// read-write load creates the store in it (``empty(_:)`` first).
        case emptyDatabase
        /// A Core Data store (or one too large to look into without opening it; its header is
        /// SQLite's).
        case store
    }

    static let sqliteHeader = Array("SQLite format 3".utf8) + [0]

    /// Looks at the file without writing anything: its type, SQLite's header and, for stores
    /// that can be read without a checkpoint (``StoreInspector``), Core Data's tables.
    static func check(_ url: URL) throws -> Contents {
        let path = url.path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            throw cannotOpen(url, String(cString: strerror(code)))
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &info) == 0 else { throw cannotOpen(url, "it is a symbolic link to nothing") }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw cannotOpen(url, "it is a folder, not a store file")
        default: throw cannotOpen(url, "it is not a regular file (a FIFO, socket or device)")
        }
        let walSize = regularSize(path + "-wal")
        if info.st_size == 0 {
            // A store whose whole content is still in its -wal is not an empty file to start over in.
            guard walSize == 0 else { throw notADatabase(url, "the file is empty but its -wal is not") }
            return .empty
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw cannotOpen(url, "the file cannot be read") }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        try? handle.close()
        guard header.count == 100, header[0..<16].elementsEqual(sqliteHeader) else {
            throw notADatabase(
                url, header.count < 16 ? "the file is too short to be a SQLite database" : "the file is not a SQLite database")
        }
        if let reason = truncation(header, fileSize: Int(info.st_size)) { throw notADatabase(url, reason, sqliteCode: 11) }
        // A hot rollback journal is rolled back by the read-write open; a large -wal would have
        // to be read into memory to look inside without a checkpoint. Both stores are SQLite's.
        if regularSize(path + "-journal") > 0 || (walSize > 0 && Int(info.st_size) + walSize > StoreMigrationOnLoad.inMemoryLimit) {
            return .store
        }
        let tables: Set<String>
        do {
            let connection = try StoreInspector.open(path)
            if try connection.rows("SELECT COUNT(*) FROM sqlite_master").first?.first?.integerValue == 0 { return .emptyDatabase }
            let rows = try connection.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Z_METADATA', 'Z_PRIMARYKEY')")
            tables = Set(rows.compactMap { $0.first?.textValue })
        } catch let error as StoreInspectionError {
            throw notADatabase(url, error.message)
        } catch let error as StoreSQLiteError {
            throw notADatabase(url, error.message, sqliteCode: Int(error.primaryCode))
        }
        guard tables.count == 2 else {
            throw CoreDataError.make(
                NSPersistentStoreInvalidTypeError,
                "The file at \(path) is a SQLite database but not a Core Data store: it has no \(tables.contains("Z_METADATA") ? "Z_PRIMARYKEY" : "Z_METADATA") table",
                [NSFilePathErrorKey: path, NSURLErrorKey: url])
        }
        return .store
    }

    /// Empties a database that holds nothing (``Contents/emptyDatabase``): the file becomes
    /// zero-length, its `-wal` and `-shm` (which can hold no committed schema) are removed.
    static func empty(_ url: URL) throws {
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            try handle.close()
        } catch {
            throw cannotOpen(url, "the empty database cannot be reused: \(error.localizedDescription)")
        }
        for suffix in ["-wal", "-shm"] where StoreFileRemoval.isRegularFile(url.path + suffix) {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// Why a SQLite header does not fit the file: an invalid page size, or a valid in-header page
    /// count (its change counter equals its version-valid-for number) needing more bytes than
    /// the file has. A store's main file is never shorter than its header says (checkpoints
    /// write the pages before the header), so a shorter one was cut off.
    static func truncation(_ header: [UInt8], fileSize: Int) -> String? {
        func number(_ offset: Int, _ count: Int) -> Int { header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = number(16, 2)
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return "its header has no valid page size" }
        let pages = number(28, 4)
        guard pages > 0, number(24, 4) == number(92, 4) else { return nil }
        guard pages * pageSize > fileSize else { return nil }
        return "the file is truncated: its header promises \(pages * pageSize) bytes, it has \(fileSize)"
    }

    /// The size of a regular file at `path`; 0 when there is none.
    static func regularSize(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
        return Int(info.st_size)
    }

    /// `NSFileReadCorruptFileError` (259): the file is not a SQLite database Core Data can read.
    static func notADatabase(_ url: URL, _ reason: String, sqliteCode: Int = 26) -> NSError {
        CoreDataError.make(
            CocoaError.fileReadCorruptFile.rawValue,
            "The file “\(url.lastPathComponent)” couldn’t be opened because it isn’t in the correct format: \(reason) (\(url.path))",
            [
                NSFilePathErrorKey: url.path, NSURLErrorKey: url, NSSQLiteErrorDomain: sqliteCode,
                NSUnderlyingErrorKey: NSError(domain: NSSQLiteErrorDomain, code: sqliteCode, userInfo: [NSLocalizedDescriptionKey: reason]),
            ])
    }

    /// `NSFileReadUnknownError` (256): there is no file SQLite could open as a database.
    static func cannotOpen(_ url: URL, _ reason: String) -> NSError {
        CoreDataError.make(
            CocoaError.fileReadUnknown.rawValue, "The file “\(url.lastPathComponent)” couldn’t be opened: \(reason) (\(url.path))",
            [
                NSFilePathErrorKey: url.path, NSURLErrorKey: url, NSSQLiteErrorDomain: 14,
                NSUnderlyingErrorKey: NSError(domain: NSSQLiteErrorDomain, code: 14, userInfo: [NSLocalizedDescriptionKey: reason]),
            ])
    }
}
#endif

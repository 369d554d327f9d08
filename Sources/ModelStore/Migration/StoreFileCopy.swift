import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The copy a migration works on, made by copying the store's files in fixed-size chunks, so a
/// store of any size is copied in a constant amount of memory. The original's files are only
/// read: the `.sqlite`, and its `-wal` or `-journal` when present (never the `-shm`, which SQLite
/// rebuilds from the `-wal`). Opening the copy lets SQLite recover it as it would the original
/// after a crash — the `-wal`'s committed frames are applied, a hot `-journal` is rolled back —
/// and the copy is then checkpointed into its main file.
enum StoreFileCopy {
    /// Bytes read and written at a time.
    static let chunkSize = 1 << 20

    /// Copies the store at `source` to `destination` (a path in an existing folder, with no
    /// files yet) and returns the copy opened with Core Data's connection pragmas, its `-wal`
    /// checkpointed.
    static func copy(storeAt source: String, to destination: String) throws -> StoreConnection {
        do {
            _ = try StoreInspector.regularFileSize(source, role: "store")
        } catch {
            throw StoreMigrationError(.failed, "cannot copy the store: \(error.message)")
        }
        try copyFile(source, to: destination)
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try copyFile(source + suffix, to: destination + suffix)
        }
        do {
            let connection = try StoreConnection.openStore(at: destination)
            _ = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)")
            return connection
        } catch {
            throw StoreMigrationError(.failed, "cannot open the copy of the store: \(error.message)")
        }
    }

    /// Copies one regular file chunk by chunk and syncs the copy.
    static func copyFile(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY)
        guard input >= 0 else { throw failure("cannot read", source) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw StoreMigrationError(.failed, "cannot copy the store: '\(source)' is not a regular file")
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard output >= 0 else { throw failure("cannot create", destination) }
        defer { close(output) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, chunkSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read", source)
            }
            var written = 0
            while written < count {
                let result = write(output, buffer.baseAddress! + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot write", destination)
                }
                written += result
            }
        }
        guard fsync(output) == 0 else { throw failure("cannot sync", destination) }
    }

    private static func failure(_ what: String, _ path: String) -> StoreMigrationError {
        StoreMigrationError(.failed, "cannot copy the store: \(what) \(path): \(String(cString: strerror(errno)))")
    }
}

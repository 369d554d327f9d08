#if !canImport(CoreData)
import ModelQuery

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file work of `destroyPersistentStore` and the destination checks of
/// `replacePersistentStore` for SQLite stores: a store is its file and the `-wal`, `-shm` and
/// `-journal` beside it, and nothing else is ever changed.
///
/// Destroying follows what Apple's SQLite does for Core Data (`SQLITE_TRUNCATE_DATABASE`, a
/// `sqlite3_file_control` operation of Apple's `sqlite3_private.h`, whose default truncates the
/// database to zero bytes, unlinks a rollback journal, truncates a WAL to zero bytes and scrambles
/// the start of the `-shm` so open connections rebuild their index): the store file stays in
/// place, empty, so code that removes it afterwards (`FileManager.removeItem`) finds it, and adding
/// the store again creates a new one in it. Apple documents the method as deleting "(or
/// truncating)" the store "in accordance with the store class' requirements", and libraries note
/// that it "just truncates the database"; that Core Data uses that very file control is inferred.
///
/// Before anything is touched every file is looked at without following links: a folder, FIFO,
/// socket, device or symbolic link in any of the four places refuses the whole operation, as does
/// a non-empty store file that does not start with SQLite's header (it is no store, so destroying
/// it would destroy something else). Nothing is done through a symbolic link, since its target
/// may be anything. A missing store is no error and creates nothing (inferred: apps destroy
/// stores that may not exist before creating them).
enum StoreFileRemoval {
    static let companions = ["-wal", "-shm", "-journal"]

    /// The bytes of the `-shm` header (two copies of the WAL-index header and the checkpoint
    /// information) cleared so that connections rebuild the index from the files.
    static let sharedMemoryHeaderSize = 136

    /// Empties the store at `url`: the checks above, then the journal unlinked, the `-wal`
    /// truncated, the `-shm` header cleared and the store file truncated to zero bytes.
    static func destroy(_ url: URL) throws {
        let present = try checkedFiles(of: url, action: "destroy")
        let path = url.path
        for suffix in ["-journal", "-wal", "-shm", ""] where present.contains(path + suffix) {
            let file = path + suffix
            switch suffix {
            case "-journal":
                guard unlink(file) == 0 || errno == ENOENT else { throw failure(url, file, "cannot remove it") }
            case "-shm": try clearHeader(of: file, store: url)
            default: try truncate(file, store: url)
            }
        }
    }

    /// The files of the store at `url` that exist (the store file first), after refusing the
    /// operation for anything but regular files and for a store file that is not SQLite.
    static func checkedFiles(of url: URL, action: String) throws -> [String] {
        let path = url.path
        var present: [String] = []
        for file in [path] + companions.map({ path + $0 }) {
            var info = stat()
            guard lstat(file, &info) == 0 else {
                let code = errno
                if code == ENOENT { continue }
                throw refusal(url, file, action, String(cString: strerror(code)))
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: present.append(file)
            case S_IFLNK:
                throw refusal(url, file, action, "it is a symbolic link, and nothing is done through a link; name the store at its target")
            case S_IFDIR: throw refusal(url, file, action, "it is a folder, not a store file")
            default: throw refusal(url, file, action, "it is not a regular file (a FIFO, socket or device)")
            }
        }
        if present.first == path, StoreFileCheck.regularSize(path) > 0 {
            let handle = FileHandle(forReadingAtPath: path)
            let header = [UInt8]((try? handle?.read(upToCount: 16)) ?? Data())
            try? handle?.close()
            guard header.elementsEqual(StoreFileCheck.sqliteHeader) else {
                throw refusal(url, path, action, "it is not a SQLite database, so it is no store")
            }
        }
        return present
    }

    /// True for a regular file (not through a link).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    private static func truncate(_ file: String, store url: URL) throws {
        let descriptor = try openRegular(file, store: url)
        defer { close(descriptor) }
        guard ftruncate(descriptor, 0) == 0 else { throw failure(url, file, "cannot truncate it: \(String(cString: strerror(errno)))") }
    }

    private static func clearHeader(of file: String, store url: URL) throws {
        let descriptor = try openRegular(file, store: url)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(url, file, "cannot read it") }
        let count = min(Int(info.st_size), sharedMemoryHeaderSize)
        guard count > 0 else { return }
        let zeros = [UInt8](repeating: 0, count: count)
        guard pwrite(descriptor, zeros, count, 0) == count else {
            throw failure(url, file, "cannot clear its header: \(String(cString: strerror(errno)))")
        }
    }

    /// Opens a file for writing without following a link and without blocking, and checks that
    /// what was opened is still a regular file.
    private static func openRegular(_ file: String, store url: URL) throws -> Int32 {
        let descriptor = open(file, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(url, file, "cannot open it: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw failure(url, file, "it is no longer a regular file")
        }
        return descriptor
    }

    /// `NSPersistentStoreOperationError` naming the file that stopped the operation; nothing was
    /// changed.
    static func refusal(_ url: URL, _ file: String, _ action: String, _ reason: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreOperationError, "Cannot \(action) the store at \(url.path): \(file): \(reason); nothing was changed",
            [NSFilePathErrorKey: file, NSURLErrorKey: URL(fileURLWithPath: file)])
    }

    private static func failure(_ url: URL, _ file: String, _ reason: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreOperationError, "Destroying the store at \(url.path) failed: \(file): \(reason)",
            [NSFilePathErrorKey: file, NSURLErrorKey: URL(fileURLWithPath: file)])
    }
}
#endif

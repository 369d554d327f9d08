import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on migrating one store, shared by every process (and every thread) on the
/// machine: `flock` on the file `<store>.migration-lock` beside the store. Taking it waits while
/// another holder migrates the store; the holder then re-reads the store, which the other one may
/// have migrated already. The lock file exists only while the lock is held or waited for: the
/// holder removes it when it releases the lock, and a waiter that finds its file replaced (or
/// removed) after acquiring the lock starts over on the current file.
///
/// The store's own files are not used for this: closing any descriptor of a database file drops
/// the POSIX locks SQLite holds on it in the same process.
public final class StoreMigrationLock {
    public let path: String
    private var descriptor: Int32

    /// Waits until no other process or thread migrates the store at `storePath`, and takes the lock.
    public init(storeAt storePath: String) throws {
        path = storePath + ".migration-lock"
        while true {
            let candidate = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard candidate >= 0 else {
                throw StoreMigrationError(.failed, "cannot create the migration lock \(path): \(String(cString: strerror(errno)))")
            }
            var result: Int32
            repeat { result = flock(candidate, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(candidate)
                throw StoreMigrationError(.failed, "cannot lock \(path): \(reason)")
            }
            // The previous holder may have removed the file while this one waited on it.
            var held = stat()
            var current = stat()
            if fstat(candidate, &held) == 0, stat(path, &current) == 0, held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                descriptor = candidate
                return
            }
            close(candidate)
        }
    }

    /// Removes the lock file and releases the lock (also done when the lock is deallocated).
    public func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

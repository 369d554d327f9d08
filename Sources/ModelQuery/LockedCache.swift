#if !canImport(CoreData)
import Foundation

/// A value shared between threads behind an `NSLock`, for the process-wide caches of queries.
/// A pthread mutex, unlike `Synchronization.Mutex` (a futex the thread sanitizer cannot see),
/// lets `--sanitize=thread` check the code that uses the caches from several contexts' queues.
package final class LockedCache<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif

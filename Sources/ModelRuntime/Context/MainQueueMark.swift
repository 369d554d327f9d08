#if !canImport(CoreData)
import ModelQuery
import Synchronization

/// Which thread may use main-queue contexts, and how another thread waits for the main queue
/// without deadlocking.
///
/// The main queue is recognised on whatever thread runs it (after `dispatch_main()` — an async
/// `main`, the test runner — its blocks run on worker threads), and a thread holding it may
/// *lend* it: while it waits in `performAndWait` of a private-queue context, that context's queue
/// runs with the main queue's rights, since the holder runs nothing until the block returns (as
/// Core Data's parent contexts serve their children under a lock, not on their queue). So a
/// child context of a main-queue parent may read the parent while the main thread waits for the
/// child: `queue.sync` runs the child's block on the waiting thread itself (which carries a mark
/// of its own, the current queue being the child's) or, for a block already queued, on a worker,
/// which finds the child's queue lent. A thread that needs the main queue and does not hold it
/// queues its block there and waits, but runs the block itself as soon as its own queue is lent
/// the main queue (its block is then taken back from the main queue, which skips it).
enum MainQueueMark {
    static let key = DispatchSpecificKey<Bool>()
    private static let once: Void = DispatchQueue.main.setSpecific(key: key, value: true)
    static func set() { _ = once }

    /// Set while this thread, holding the main queue, runs a block on another queue.
    private static let heldKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The private-queue contexts whose queues run with the main queue's rights, guarded by
    /// ``lock`` (a pthread mutex, which the thread sanitizer understands); ``lentCount`` lets the
    /// common case skip the lock.
    nonisolated(unsafe) private static var lent: [ObjectIdentifier] = []
    private static let lentCount = Atomic<Int>(0)
    private static let lock = NSLock()

    /// Whether the calling thread may use main-queue contexts: the main thread, a block of the
    /// main queue, a block another queue runs for it synchronously, or a block of a queue the
    /// main queue is lent to.
    static var isCurrent: Bool {
        if Thread.isMainThread || DispatchQueue.getSpecific(key: key) != nil || pthread_getspecific(heldKey) != nil { return true }
        return isLentToCurrentQueue
    }

    private static var isLentToCurrentQueue: Bool {
        guard lentCount.load(ordering: .acquiring) > 0, let current = DispatchQueue.getSpecific(key: NSManagedObjectContext.queueKey)
        else { return false }
        return lock.withLock { lent.contains(current) }
    }

    /// Runs `body`, which waits in the queue of the context `queueOwner` (`queue.sync`), lending
    /// that queue the main queue when the calling thread holds it.
    @inline(__always)
    static func lending<T, E: Error>(to queueOwner: ObjectIdentifier, _ body: () throws(E) -> T) throws(E) -> T {
        guard isCurrent else { return try body() }
        let previous = pthread_getspecific(heldKey)
        pthread_setspecific(heldKey, UnsafeRawPointer(bitPattern: 1))
        lock.withLock { lent.append(queueOwner) }
        lentCount.add(1, ordering: .releasing)
        defer {
            lock.withLock {
                if let index = lent.lastIndex(of: queueOwner) { lent.remove(at: index) }
            }
            lentCount.subtract(1, ordering: .releasing)
            pthread_setspecific(heldKey, previous)
        }
        return try body()
    }

    /// Runs `body` on the main queue from a thread that does not hold it, and waits: the block
    /// is queued on the main queue, and run here instead if the calling thread's queue is lent
    /// the main queue before the main queue takes it.
    static func waitForMainQueue<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try withoutActuallyEscaping(body) { (escapable) throws(E) -> T in
            let task = MainQueueTask<T, E>(escapable)
            DispatchQueue.main.async { task.runIfUnclaimed() }
            while true {
                if let result = task.wait(milliseconds: 2) { return try result.get() }
                if isLentToCurrentQueue, let claimed = task.claim() { return try claimed() }
            }
        }
    }
}

/// A block queued on the main queue that its waiting thread may take back and run itself.
private final class MainQueueTask<T, E: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    /// The block until the main queue or the waiting thread takes it.
    private var body: (() throws(E) -> T)?
    private var result: Result<T, E>?

    init(_ body: @escaping () throws(E) -> T) { self.body = body }

    /// Takes the block (nil when the main queue took it).
    func claim() -> (() throws(E) -> T)? {
        condition.withLock {
            defer { body = nil }
            return body
        }
    }

    func runIfUnclaimed() {
        // The block is released before the waiting thread is woken: it may be a non-escaping
        // closure made escapable for the wait, which must not outlive it.
        guard let outcome = run() else { return }
        condition.withLock {
            result = outcome
            condition.broadcast()
        }
    }

    private func run() -> Result<T, E>? {
        guard let body = claim() else { return nil }
        return Result<T, E> { () throws(E) -> T in try body() }
    }

    /// The result once the main queue ran the block, waiting at most `milliseconds`.
    func wait(milliseconds: Int) -> Result<T, E>? {
        condition.withLock {
            if result == nil { _ = condition.wait(until: Date().addingTimeInterval(Double(milliseconds) / 1000)) }
            return result
        }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A generation of a context's stores' data (`NSQueryGenerationToken`): what a context pinned
/// with `setQueryGenerationFrom(_:)` reads. ``current`` asks for the newest generation, advanced
/// whenever the context saves, merges or resets. Not `Sendable`, as in Core Data.
public final class NSQueryGenerationToken: NSObject, NSCopying {
    /// Which generation: 0 for ``current``, else a number unique in the process.
    let number: UInt64

    init(number: UInt64) {
        self.number = number
    }

    nonisolated(unsafe) private static var lastNumber: UInt64 = 0
    private static let numberLock = NSLock()
    static func next() -> NSQueryGenerationToken {
        numberLock.lock()
        defer { numberLock.unlock() }
        lastNumber += 1
        return NSQueryGenerationToken(number: lastNumber)
    }

    /// The newest generation, as a request: a context pinned with it moves to the newest
    /// generation when it saves, merges or resets.
    public class var current: NSQueryGenerationToken { currentToken }
    nonisolated(unsafe) private static let currentToken = NSQueryGenerationToken(number: 0)

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSQueryGenerationToken)?.number == number
    }

    public override var hash: Int { number.hashValue }

    public override var description: String {
        number == 0 ? "<NSQueryGenerationToken: current>" : "<NSQueryGenerationToken: \(number)>"
    }
}

/// Query generations (`queryGenerationToken`, `setQueryGenerationFrom(_:)`): a pinned context
/// reads its SQLite file stores through connections of its own held at one generation.
extension NSManagedObjectContext {
    /// The generation the context reads: nil when unpinned (it reads the newest data).
    public var queryGenerationToken: NSQueryGenerationToken? {
        checkQueue()
        return pinnedReads?.token
    }

    /// Pins the context to the newest generation (``NSQueryGenerationToken/current``), or unpins
    /// it (nil). A pinned context's fetches and faults read the stores as they were when it was
    /// pinned, until it saves, merges changes or resets, which move it to the newest generation.
    /// Pinning to another context's token (a past generation) is not supported here and throws
    /// `NSPersistentStoreOperationError`; the context's own token keeps it where it is.
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        checkQueue()
        guard let generation else {
            pinnedReads = nil
            return
        }
        if let pinnedReads, generation == pinnedReads.token { return }
        guard generation.number == 0 else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "Pinning a context to another context's query generation is not supported on Linux; pin it to NSQueryGenerationToken.current"
            )
        }
        try pinToNewestGeneration()
    }

    /// Moves a pinned context to the newest generation (after a save, a merge or a reset).
    func advanceQueryGeneration() {
        guard pinnedReads != nil else { return }
        // Should the store no longer open, the context reads unpinned rather than stale.
        do { try pinToNewestGeneration() } catch { pinnedReads = nil }
    }

    private func pinToNewestGeneration() throws {
        pinnedReads = nil
        guard let coordinator = persistentStoreCoordinator else { return }
        pinnedReads = try coordinator.locked { try PinnedReads(stores: coordinator.persistentStores) }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// The context whose `perform` or `performAndWait` block the calling thread runs, innermost
/// first: what `NSFetchRequest.execute()` fetches in, as Core Data's does.
enum CurrentContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `context` as the current context, then puts the previous one back.
    @inline(__always)
    static func with<T, E: Error>(_ context: NSManagedObjectContext, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }

    /// The current context; nil outside every context's block. (The context outlives its block:
    /// whoever called `perform` or `performAndWait` holds it, or the block is skipped.)
    static var context: NSManagedObjectContext? {
        pthread_getspecific(key).map { Unmanaged<NSManagedObjectContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

extension NSFetchRequest {
    /// Fetches with the context whose `perform` or `performAndWait` block is running (Core Data's
    /// `execute()`); called outside every such block it throws
    /// `NSManagedObjectContextLockingError`, where Core Data raises an exception.
    public func execute() throws -> [ResultType] {
        guard let context = CurrentContext.context else {
            throw CoreDataError.make(
                NSManagedObjectContextLockingError,
                "NSFetchRequest.execute() fetches in the context whose perform or performAndWait block is running; none is")
        }
        return try context.fetch(self)
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// A fetch that `NSManagedObjectContext.execute(_:)` starts and returns from at once
/// (`NSAsynchronousFetchRequest`). The fetch runs later on the context's queue and hands its
/// result to `completionBlock` there.
open class NSAsynchronousFetchRequest<ResultType>: NSPersistentStoreRequest {
    /// The fetch to run.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// Called on the context's queue when the fetch finished, failed or was cancelled.
    public let completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    /// How many results the caller expects: the progress's `totalUnitCount` until the fetch
    /// knows the real number (0: unknown).
    open var estimatedResultCount: Int = 0

    public init(
        fetchRequest request: NSFetchRequest<ResultType>, completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil
    ) {
        fetchRequest = request
        completionBlock = blk
        super.init()
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    override func startAsynchronously(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult? {
        // Core Data refuses a confinement context (raw value 0, a deprecated case).
        guard context.concurrencyType.rawValue != 0 else {
            throw CoreDataError.make(NSCoreDataError, "An asynchronous fetch needs a context with a queue (private or main)")
        }
        return start(in: context)
    }
}

/// A result that completes after `execute(_:)` returned (`NSPersistentStoreAsynchronousResult`).
/// Not `Sendable`, as in Core Data (``cancel()`` is safe from any thread).
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult {
    /// The context that runs the request.
    public let managedObjectContext: NSManagedObjectContext
    /// Tracks the fetch: its units are results; cancelling it cancels the fetch.
    public let progress: Progress?
    private let lock = NSLock()
    private var cancelled = false
    private var error: Error?
    /// The request and results, untyped; the typed subclass casts them back.
    let untypedRequest: AnyObject
    private var untypedResults: Any?

    init(request: AnyObject, context: NSManagedObjectContext, progress: Progress?) {
        untypedRequest = request
        managedObjectContext = context
        self.progress = progress
        super.init()
    }

    /// Why the request produced no result: its error, or `NSUserCancelledError` after ``cancel()``.
    open var operationError: Error? { lock.withLock { error } }

    /// Stops a fetch that has not run yet: its completion block then gets no `finalResult` and a
    /// `NSUserCancelledError`. A fetch already running on the context's queue finishes, and its
    /// results are dropped. Safe to call from any thread.
    open func cancel() {
        let first = lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
        if first, let progress, !progress.isCancelled { progress.cancel() }
    }

    /// Cancelled through ``cancel()`` or through the progress (read here rather than through a
    /// cancellation handler, which Foundation may call later on another thread).
    var isCancelled: Bool { lock.withLock { cancelled } || progress?.isCancelled == true }

    func fail(_ error: Error) { lock.withLock { self.error = error } }

    var results: Any? {
        get { lock.withLock { untypedResults } }
        set { lock.withLock { untypedResults = newValue } }
    }
}

/// The outcome of an asynchronous fetch (`NSAsynchronousFetchResult`).
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult {
    /// The request that was run.
    public var fetchRequest: NSAsynchronousFetchRequest<ResultType> { untypedRequest as! NSAsynchronousFetchRequest<ResultType> }

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress?) {
        super.init(request: request, context: context, progress: progress)
    }

    /// The fetched objects, once the fetch succeeded; nil before, and after an error or a cancel.
    open var finalResult: [ResultType]? { results as? [ResultType] }

    func finish(_ objects: [ResultType]) { results = objects }
}

extension NSAsynchronousFetchRequest {
    /// Makes the result and queues the fetch on the context's queue. The fetch itself is the
    /// synchronous `fetch(_:)`: it reads the context's pending changes and registers objects, so
    /// it runs on the queue, after the work already queued there.
    fileprivate func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult {
        // Under a current progress this one becomes its child (Foundation's implicit tree).
        let progress = Progress(totalUnitCount: Int64(max(estimatedResultCount, 0)))
        let result = NSAsynchronousFetchResult(request: self, context: context, progress: progress)
        let work = UncheckedBox((self, result))
        let owner = WeakContext(context)
        context.queue.async {
            let (request, result) = work.value
            NSManagedObjectContext.userEvent(owner) { request.run(result) }
        }
        return result
    }

    private func run(_ result: NSAsynchronousFetchResult<ResultType>) {
        let context = result.managedObjectContext
        if !result.isCancelled {
            do {
                let objects = try context.fetch(fetchRequest)
                if !result.isCancelled {
                    result.finish(objects)
                    let units = Int64(max(objects.count, 1))
                    result.progress?.totalUnitCount = units
                    result.progress?.completedUnitCount = units
                }
            } catch {
                result.fail(error)
            }
        }
        if result.isCancelled {
            result.fail(CoreDataError.make(CocoaError.Code.userCancelled.rawValue, "The asynchronous fetch was cancelled"))
        }
        completionBlock?(result)
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import Synchronization

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

    public init(fetchRequest request: NSFetchRequest<ResultType>, completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil) {
        fetchRequest = request
        completionBlock = blk
        super.init()
    }

    open override var requestType: RequestType { .fetchRequestType }
}

/// A result that completes after `execute(_:)` returned (`NSPersistentStoreAsynchronousResult`).
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    /// The context that runs the request.
    public let managedObjectContext: NSManagedObjectContext
    /// Tracks the fetch: its units are results; cancelling it cancels the fetch.
    public let progress: Progress?
    private let state = Mutex(AsynchronousState())

    init(context: NSManagedObjectContext, progress: Progress?) {
        managedObjectContext = context
        self.progress = progress
        super.init()
    }

    /// Why the request produced no result: its error, or `NSUserCancelledError` after ``cancel()``.
    open var operationError: Error? { state.withLock { $0.error } }

    /// Stops a fetch that has not run yet: its completion block then gets no `finalResult` and a
    /// `NSUserCancelledError`. A fetch already running on the context's queue finishes, and its
    /// results are dropped. Safe to call from any thread.
    open func cancel() {
        let first = state.withLock { state in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        if first, let progress, !progress.isCancelled { progress.cancel() }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func fail(_ error: Error) { state.withLock { $0.error = error } }
}

private struct AsynchronousState {
    var cancelled = false
    var error: Error?
}

/// The outcome of an asynchronous fetch (`NSAsynchronousFetchResult`).
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    /// The request that was run.
    public let fetchRequest: NSAsynchronousFetchRequest<ResultType>
    private let results = Mutex<UncheckedBox<[ResultType]?>>(UncheckedBox(nil))

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress?) {
        fetchRequest = request
        super.init(context: context, progress: progress)
    }

    /// The fetched objects, once the fetch succeeded; nil before, and after an error or a cancel.
    open var finalResult: [ResultType]? { results.withLock { $0.value } }

    func finish(_ objects: [ResultType]) { results.withLock { $0 = UncheckedBox(objects) } }
}

/// Starts an asynchronous fetch without knowing its result type (what `execute(_:)` sees).
protocol AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult
}

extension NSAsynchronousFetchRequest: AsynchronousFetchStarting {
    /// Makes the result and queues the fetch on the context's queue. The fetch itself is the
    /// synchronous `fetch(_:)`: it reads the context's pending changes and registers objects, so
    /// it runs on the queue, after the work already queued there.
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult {
        // Under a current progress this one becomes its child (Foundation's implicit tree).
        let progress = Progress(totalUnitCount: Int64(max(estimatedResultCount, 0)))
        let result = NSAsynchronousFetchResult(request: self, context: context, progress: progress)
        progress.cancellationHandler = { [weak result] in result?.cancel() }
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

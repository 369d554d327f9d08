// Compiled on every platform: on Apple platforms over Core Data's own NSFetchedResultsController.
#if canImport(CoreData)
import CoreData
#else
import Foundation
#endif

/// A fetch request's results at one moment: sections (one, named "", without a section key
/// path) of object IDs, in fetch order.
public struct FetchedResultsSnapshot: Equatable, @unchecked Sendable {
    public struct Section: Equatable, @unchecked Sendable {
        public let name: String
        public let objectIDs: [NSManagedObjectID]

        public init(name: String, objectIDs: [NSManagedObjectID]) {
            self.name = name
            self.objectIDs = objectIDs
        }
    }

    public let sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }

    /// Every object ID, section after section.
    public var objectIDs: [NSManagedObjectID] { sections.flatMap(\.objectIDs) }
}

/// The results of a fetch request as they change, for Swift concurrency: the first element is
/// the results when iteration starts, then one snapshot each time the context's changes alter
/// them (an `NSFetchedResultsController` with the request, on the context's queue, reports
/// each change). Every snapshot is kept until read. Ending the iteration (or cancelling its
/// task) stops tracking; a failing fetch ends it with the error.
public struct FetchedResultsSequence: AsyncSequence, @unchecked Sendable {
    public typealias Element = FetchedResultsSnapshot
    public typealias AsyncIterator = AsyncThrowingStream<FetchedResultsSnapshot, any Error>.Iterator

    private let start: @Sendable (AsyncThrowingStream<FetchedResultsSnapshot, any Error>.Continuation) -> Void

    init(start: @escaping @Sendable (AsyncThrowingStream<FetchedResultsSnapshot, any Error>.Continuation) -> Void) {
        self.start = start
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncThrowingStream(FetchedResultsSnapshot.self) { continuation in start(continuation) }.makeAsyncIterator()
    }
}

extension NSManagedObjectContext {
    /// The results of `request` (which needs sort descriptors, as for
    /// `NSFetchedResultsController`) as an asynchronous sequence of snapshots.
    public func fetchedResults<T: NSFetchRequestResult>(for request: NSFetchRequest<T>, sectionNameKeyPath: String? = nil)
        -> FetchedResultsSequence
    {
        let setup = FetchedResultsStreamSetup(context: self) { observer in
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: self, sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
            controller.delegate = observer
            try controller.performFetch()
            observer.controller = controller
            observer.read = { [unowned controller] in FetchedResultsSnapshot(controller.sections) }
            observer.detach = { [unowned controller] in controller.delegate = nil }
        }
        return FetchedResultsSequence { continuation in
            setup.context.perform {
                let observer = FetchedResultsStreamObserver(continuation)
                do {
                    try setup.attach(observer)
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                continuation.yield(observer.snapshot())
                let held = FetchedResultsStreamObserverBox(observer)
                continuation.onTermination = { _ in setup.context.perform { held.observer.stop() } }
            }
        }
    }
}

/// How a stream starts, carried to the context's queue (where alone it is used): the context,
/// and the step that makes the controller and attaches the observer.
private struct FetchedResultsStreamSetup: @unchecked Sendable {
    let context: NSManagedObjectContext
    let attach: (FetchedResultsStreamObserver) throws -> Void
}

/// Keeps a stream's controller and turns its reports into snapshots.
private final class FetchedResultsStreamObserver: NSObject, NSFetchedResultsControllerDelegate {
    private let continuation: AsyncThrowingStream<FetchedResultsSnapshot, any Error>.Continuation
    var controller: AnyObject?
    var read: () -> FetchedResultsSnapshot = { FetchedResultsSnapshot(sections: []) }
    var detach: () -> Void = {}

    init(_ continuation: AsyncThrowingStream<FetchedResultsSnapshot, any Error>.Continuation) {
        self.continuation = continuation
    }

    func snapshot() -> FetchedResultsSnapshot { read() }

    /// Stops tracking and lets the controller go.
    func stop() {
        guard controller != nil else { return }
        detach()
        controller = nil
        detach = {}
        read = { FetchedResultsSnapshot(sections: []) }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        continuation.yield(snapshot())
    }
}

private final class FetchedResultsStreamObserverBox: @unchecked Sendable {
    let observer: FetchedResultsStreamObserver
    init(_ observer: FetchedResultsStreamObserver) { self.observer = observer }
}

extension FetchedResultsSnapshot {
    /// The sections of a fetched results controller, by object ID.
    init(_ sections: [NSFetchedResultsSectionInfo]?) {
        self.init(
            sections: (sections ?? []).map { section in
                Section(
                    name: section.name,
                    objectIDs: (section.objects ?? []).compactMap { ($0 as? NSManagedObject)?.objectID ?? ($0 as? NSManagedObjectID) })
            })
    }
}

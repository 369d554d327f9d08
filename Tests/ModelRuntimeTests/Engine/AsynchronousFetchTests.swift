#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Synchronization
import Testing

/// `NSAsynchronousFetchRequest` run with `execute(_:)`: the result returns at once and completes
/// on the context's queue.
struct AsynchronousFetchTests {
    /// What a completion block saw, carried out of it.
    struct Outcome: @unchecked Sendable {
        var names: [String]?
        var error: NSError?
        var onQueue: Bool
        var progressFinished: Bool
        var result: NSAsynchronousFetchResult<NSManagedObject>
    }

    private static func seeded(_ names: [String]) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            for name in names { _ = EngineTestModel.insert("Trip", into: context, ["name": name]) }
            try context.save()
        }
        return context
    }

    private static func sortedTrips() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return request
    }

    /// Executes `request` on the context's queue and waits for its completion block; `beforeRun`
    /// runs right after `execute(_:)` returned, still on the queue.
    private static func run(
        _ request: NSFetchRequest<NSManagedObject>, in context: NSManagedObjectContext,
        beforeRun: (NSAsynchronousFetchResult<NSManagedObject>) -> Void = { _ in }
    ) throws -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var outcome: Outcome?
        let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            let seen = Outcome(
                names: result.finalResult?.map { $0.value(forKey: "name") as? String ?? "" },
                error: result.operationError as NSError?, onQueue: context.isOnQueue,
                progressFinished: result.progress?.isFinished ?? false, result: result)
            lock.withLock { outcome = seen }
            done.signal()
        }
        try context.performAndWait {
            let started = try context.execute(asynchronous)
            let result = try #require(started as? NSAsynchronousFetchResult<NSManagedObject>)
            #expect(result.finalResult == nil, "execute(_:) returns before the fetch runs")
            beforeRun(result)
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the completion block runs")
        return try #require(lock.withLock { outcome })
    }

    @Test func theFinalResultEqualsASynchronousFetchAndArrivesOnTheContextsQueue() throws {
        let context = try Self.seeded(["Oslo", "Bergen", "Tromsø", "Ålesund"])
        let outcome = try Self.run(Self.sortedTrips(), in: context)
        let synchronous = try context.performAndWait {
            try context.fetch(Self.sortedTrips()).map { $0.value(forKey: "name") as? String ?? "" }
        }
        #expect(outcome.names == synchronous)
        #expect(outcome.names?.count == 4)
        #expect(outcome.onQueue)
        #expect(outcome.error == nil)
        #expect(outcome.result.managedObjectContext === context)
        #expect(outcome.result.fetchRequest.fetchRequest.entityName == "Trip")
    }

    @Test func theFetchSeesUnsavedChangesMadeBeforeItRuns() throws {
        let context = try Self.seeded(["Oslo"])
        let outcome = try Self.run(Self.sortedTrips(), in: context) { result in
            // Still on the queue, before the queued fetch runs.
            _ = EngineTestModel.insert("Trip", into: result.managedObjectContext, ["name": "Bodø"])
        }
        #expect(outcome.names == ["Bodø", "Oslo"])
    }

    @Test func theProgressReachesCompletion() throws {
        let context = try Self.seeded(["A", "B", "C"])
        let outcome = try Self.run(Self.sortedTrips(), in: context)
        #expect(outcome.progressFinished)
        #expect(outcome.result.progress?.completedUnitCount == 3)
        let empty = try Self.run(NSFetchRequest<NSManagedObject>(entityName: "Stop"), in: context)
        #expect(empty.names == [])
        #expect(empty.progressFinished)
    }

    @Test func cancellingBeforeTheFetchRunsReportsUserCancelledWithoutResults() throws {
        let context = try Self.seeded(["A"])
        let outcome = try Self.run(Self.sortedTrips(), in: context) { $0.cancel() }
        #expect(outcome.names == nil)
        #expect(outcome.error?.domain == NSCocoaErrorDomain)
        #expect(outcome.error?.code == CocoaError.Code.userCancelled.rawValue)
        #expect(outcome.result.progress?.isCancelled == true)
        // Cancelling the progress cancels the fetch too.
        let viaProgress = try Self.run(Self.sortedTrips(), in: context) { $0.progress?.cancel() }
        #expect(viaProgress.names == nil)
        #expect(viaProgress.error?.code == CocoaError.Code.userCancelled.rawValue)
    }

    @Test func aBadPredicateKeyReachesOperationError() throws {
        let context = try Self.seeded(["A"])
        let request = Self.sortedTrips()
        request.predicate = NSPredicate(format: "noSuchKey == 1")
        let outcome = try Self.run(request, in: context)
        #expect(outcome.names == nil)
        #expect(outcome.error != nil)
    }

    @Test func aBatchedFetchReturnsAllObjectsInOrder() throws {
        let names = (0..<30).map { String(format: "trip %02d", $0) }
        let context = try Self.seeded(names.reversed())
        let request = Self.sortedTrips()
        request.fetchBatchSize = 7
        let outcome = try Self.run(request, in: context)
        #expect(outcome.names == names)
    }

    @Test func fetchesFromSeveralThreadsCompleteOnTheirOwnQueues() throws {
        let (coordinator, writer) = try EngineTestModel.stack()
        try writer.performAndWait {
            for index in 0..<20 { _ = EngineTestModel.insert("Trip", into: writer, ["name": "t\(index)"]) }
            try writer.save()
        }
        let counts = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            let outcome = try? Self.run(Self.sortedTrips(), in: context)
            #expect(outcome?.onQueue == true)
            counts.withLock { $0.append(outcome?.names?.count ?? -1) }
        }
        #expect(counts.withLock { $0 } == [20, 20, 20, 20])
    }

    @Test func theRequestReportsTheFetchRequestTypeAndKeepsItsEstimate() throws {
        let request = NSAsynchronousFetchRequest(fetchRequest: Self.sortedTrips())
        request.estimatedResultCount = 12
        #expect(request.requestType == .fetchRequestType)
        #expect(request.estimatedResultCount == 12)
        #expect(request.completionBlock == nil)
    }

    @Test func aContinuationResumedFromTheCompletionBlockBridgesToAwait() async throws {
        let context = try Self.seeded(["B", "A"])
        let names: [String] = try await withCheckedThrowingContinuation { continuation in
            let request = NSAsynchronousFetchRequest(fetchRequest: Self.sortedTrips()) { result in
                if let error = result.operationError { return continuation.resume(throwing: error) }
                continuation.resume(returning: result.finalResult?.map { $0.value(forKey: "name") as? String ?? "" } ?? [])
            }
            let box = UncheckedBox((request, context))
            context.perform {
                let (request, context) = box.value
                do { try context.execute(request) } catch { continuation.resume(throwing: error) }
            }
        }
        #expect(names == ["A", "B"])
    }

    @Test func theProgressIsAChildOfTheCurrentProgressAndStartsAtTheEstimate() throws {
        let context = try Self.seeded(["A", "B"])
        let parent = Progress(totalUnitCount: 1)
        let progress: Progress? = try context.performAndWait {
            let request = NSAsynchronousFetchRequest(fetchRequest: Self.sortedTrips())
            request.estimatedResultCount = 5
            parent.becomeCurrent(withPendingUnitCount: 1)
            defer { parent.resignCurrent() }
            let result = try context.execute(request) as? NSPersistentStoreAsynchronousResult
            #expect(result?.progress?.totalUnitCount == 5)
            return result?.progress
        }
        // The fetch was queued behind this block; a second block runs after it.
        context.performAndWait {}
        #expect(progress?.isFinished == true)
        #expect(parent.fractionCompleted == 1)
    }
}
#endif

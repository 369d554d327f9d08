#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `NSFetchRequest.execute()`: a fetch in the context whose block is running.
struct FetchRequestExecuteTests {
    private func contexts() throws -> (NSManagedObjectContext, NSManagedObjectContext) {
        let (coordinator, first) = try EngineTestModel.stack()
        try first.performAndWait {
            for name in ["A", "B"] { _ = EngineTestModel.insert("Trip", into: first, ["name": name]) }
            try first.save()
        }
        let second = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        second.persistentStoreCoordinator = coordinator
        return (first, second)
    }

    @Test func executeFetchesInTheContextOfTheRunningBlockInnermostFirst() throws {
        let (first, second) = try contexts()
        try first.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            let own = try request.execute()
            #expect(own.count == 2 && own.allSatisfy { $0.managedObjectContext === first })
            try second.performAndWait {
                let inner = try request.execute()
                #expect(inner.count == 2 && inner.allSatisfy { $0.managedObjectContext === second })
            }
            // Back in the outer block: its context again.
            #expect(try request.execute().allSatisfy { $0.managedObjectContext === first })
            // Pending changes count, as in fetch(_:).
            _ = EngineTestModel.insert("Trip", into: first, ["name": "C"])
            #expect(try request.execute().count == 3)
        }
    }

    @Test func executeWorksInPerformBlocksAndTheAsyncPerform() async throws {
        let (first, _) = try contexts()
        let count = try await first.perform { try NSFetchRequest<NSManagedObject>(entityName: "Trip").execute().count }
        #expect(count == 2)
        final class Seen: @unchecked Sendable { var count = -1 }
        let seen = Seen()
        Self.enqueue(first) { seen.count = (try? NSFetchRequest<NSManagedObject>(entityName: "Trip").execute().count) ?? -2 }
        first.performAndWait {}
        #expect(seen.count == 2)
    }

    /// `perform(_:)`, the block form (an async caller would get the async form).
    private static func enqueue(_ context: NSManagedObjectContext, _ block: @escaping @Sendable () -> Void) {
        context.perform(block)
    }

    @Test func executeOutsideEveryContextsBlockThrows() throws {
        _ = try contexts()
        #expect {
            try NSFetchRequest<NSManagedObject>(entityName: "Trip").execute()
        } throws: { ($0 as NSError).code == NSManagedObjectContextLockingError }
    }
}
#endif

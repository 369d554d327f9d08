#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// A fetch request's results as an asynchronous sequence of snapshots.
struct FetchedResultsSequenceTests {
    typealias Fixture = FetchedResultsControllerTests

    @Test func snapshotsFollowTheContextsChanges() async throws {
        let context = try Fixture.context(Fixture.trips)
        var iterator = context.fetchedResults(for: Fixture.request(), sectionNameKeyPath: "note").makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.sections.map(\.name) == ["Bay", "alps", "beach", "city"])
        #expect(first.objectIDs.count == 6)
        let added = await context.perform {
            EngineTestModel.insert("Trip", into: context, ["name": "aa", "note": "alps"]).objectID
        }
        let second = try #require(try await iterator.next())
        #expect(second.sections.map { $0.objectIDs.count } == [1, 3, 2, 1])
        #expect(second.sections[1].objectIDs[1] == added)
        try await context.perform { () throws in
            for trip in try context.fetch(Fixture.request()) where trip.value(forKey: "note") as? String == "city" {
                context.delete(trip)
            }
            try context.save()
        }
        let third = try #require(try await iterator.next())
        #expect(third.sections.map(\.name) == ["Bay", "alps", "beach"])
    }

    @Test func aRequestWithoutSortDescriptorsEndsTheSequenceWithTheError() async throws {
        let context = try Fixture.context(Fixture.trips)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        var iterator = context.fetchedResults(for: request).makeAsyncIterator()
        await #expect(throws: NSError.self) { _ = try await iterator.next() }
    }

    @Test func withoutASectionKeyPathThereIsOneSection() async throws {
        let context = try Fixture.context(Fixture.trips)
        for try await snapshot in context.fetchedResults(for: Fixture.request(sortedBy: ["name"])) {
            #expect(snapshot.sections.map(\.name) == [""])
            #expect(snapshot.objectIDs.count == 6)
            break
        }
    }
}
#endif

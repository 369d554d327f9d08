#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// Small change sets are applied to the controller's results in memory, without fetching, when
/// the request reads the entity's own attributes; other requests, ties and rollbacks still end
/// with the results a fetch gives.
struct FetchedResultsInMemoryTests {
    typealias Fixture = FetchedResultsControllerTests
    typealias Tracking = FetchedResultsTrackingTests

    static func fresh(_ controller: NSFetchedResultsController<NSManagedObject>) throws -> [String] {
        Fixture.names(try controller.managedObjectContext.fetch(controller.fetchRequest))
    }

    @Test func singleChangesAreAppliedWithoutFetchingAgain() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Tracking.tracked(context)
            #expect(controller.state.fetchCount == 1)
            try Tracking.trip(controller, "c").setValue(9, forKey: "legs")
            context.processPendingChanges()
            #expect(Tracking.summary(recorder) == ["update c 2.0 2.0"])
            recorder.reset()
            try Tracking.trip(controller, "a").setValue("beach", forKey: "note")
            context.processPendingChanges()
            #expect(Tracking.summary(recorder) == ["move a 1.0 2.0"])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "ab", "note": "alps"])
            context.delete(try Tracking.trip(controller, "e"))
            context.processPendingChanges()
            try context.save()
            #expect(controller.state.fetchCount == 1, "no change fetched again, the save neither")
            #expect(Fixture.names(controller.fetchedObjects) == (try Self.fresh(controller)))
            #expect(controller.sections?.map(\.name) == ["Bay", "alps", "beach"])
        }
    }

    @Test func requestsReadingOtherObjectsFetchAgain() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let request = Fixture.request()
            request.predicate = NSPredicate(format: "stops.@count == 0")
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            let recorder = FetchedResultsRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            try Tracking.trip(controller, "c").setValue(9, forKey: "legs")
            context.processPendingChanges()
            #expect(controller.state.fetchCount == 2)
            #expect(Tracking.summary(recorder) == ["update c 2.0 2.0"])
        }
    }

    @Test func anObjectSortingEqualToANeighbourFetchesAgain() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Fixture.request(sortedBy: ["note"]), managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = FetchedResultsRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            try Tracking.trip(controller, "e").setValue("alps", forKey: "note")
            context.processPendingChanges()
            #expect(controller.state.fetchCount == 2)
            #expect(Fixture.names(controller.fetchedObjects) == (try Self.fresh(controller)))
        }
    }

    @Test func rollbackReportsTheRestoredResults() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Tracking.tracked(context)
            let before = Fixture.names(controller.fetchedObjects)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "bb", "note": "alps"])
            context.delete(try Tracking.trip(controller, "e"))
            try Tracking.trip(controller, "a").setValue("beach", forKey: "note")
            context.processPendingChanges()
            recorder.reset()
            context.rollback()
            #expect(recorder.events.first == "will" && recorder.events.last == "did")
            #expect(
                Tracking.summary(recorder).sorted() == [
                    "delete bb 1.1 -", "insert e - 3.0", "move a 2.0 1.0", "section insert 3 city",
                ])
            #expect(Fixture.names(controller.fetchedObjects) == before)
            #expect(before == (try Self.fresh(controller)))
        }
    }
}
#endif

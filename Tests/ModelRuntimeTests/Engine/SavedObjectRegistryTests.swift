#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// Objects saved for the first time get no ID object unless asked: their keys are listed in
/// order and they are registered as a fetch's rows are. Every way of reaching them, and the rows
/// written, must be as if each had been given its permanent ID at once.
struct SavedObjectRegistryTests {
    static let rows = ObjectRegistry.tableRowsPerFetch * 3

    /// Inserts `rows` trips, each with one stop unless told otherwise, and saves; returns them in insertion order.
    static func insertAndSave(_ context: NSManagedObjectContext, askingIDsOf asked: Set<Int> = [], withStops: Bool = true) throws -> (
        trips: [NSManagedObject], stops: [NSManagedObject], temporary: [Int: NSManagedObjectID]
    ) {
        var trips: [NSManagedObject] = []
        var stops: [NSManagedObject] = []
        var temporary: [Int: NSManagedObjectID] = [:]
        for index in 0..<rows {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)", "legs": index])
            if withStops {
                stops.append(EngineTestModel.insert("Stop", into: context, ["name": "stop \(index)", "order": index, "trip": trip]))
            }
            if asked.contains(index) { temporary[index] = trip.objectID }
            trips.append(trip)
        }
        try context.save()
        return (trips, stops, temporary)
    }

    @Test func savedObjectsAreFoundByTheirPermanentIDsAndByLaterFetches() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let (trips, _, _) = try Self.insertAndSave(context)
            #expect(trips.allSatisfy { $0.idStorage == nil && $0.batches?.count == Self.rows })
            #expect(trips[150].batches?.registrySlots != nil)
            for index in [0, 63, 64, 150, Self.rows - 1] {
                let id = trips[index].objectID
                #expect(!id.isTemporaryID)
                #expect(context.object(with: id) === trips[index])
                #expect(try context.existingObject(with: id) === trips[index])
                #expect(context.registeredObject(for: id) === trips[index])
            }
            let fetched = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(zip(fetched, trips).allSatisfy { $0 === $1 })
            #expect(context.registeredObjects.count == 2 * Self.rows)
            #expect(Set(trips.map(\.objectID)).count == Self.rows)
        }
    }

    @Test func rowsAndToOneKeysOfObjectsSavedWithoutIDsAreWritten() throws {
        let (coordinator, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in _ = try Self.insertAndSave(context) }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait { () throws in
            let stops = try other.fetch(BatchedFetchRegistryTests.request("Stop"))
            #expect(stops.count == Self.rows)
            for stop in stops {
                let trip = stop.value(forKey: "trip") as? NSManagedObject
                #expect(trip?.value(forKey: "legs") as? Int64 == Int64(stop.value(forKey: "order") as? Int16 ?? -1))
            }
        }
    }

    @Test func objectsWhoseTemporaryIDWasAskedForGetTheirPermanentIDToo() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let asked: Set<Int> = [3, 70, 150]
            let (trips, _, temporary) = try Self.insertAndSave(context, askingIDsOf: asked)
            for index in asked {
                let old = try #require(temporary[index])
                #expect(old.isTemporaryID)
                #expect(context.registeredObject(for: old) == nil)
                #expect(!trips[index].objectID.isTemporaryID)
                #expect(context.object(with: trips[index].objectID) === trips[index])
            }
            // Keys follow insertion order whether or not the ID was asked for.
            let keys = trips.map { $0.objectID.primaryKey ?? -1 }
            #expect(keys == keys.sorted())
            #expect(Set(keys).count == Self.rows)
        }
    }

    @Test func savedObjectsLeaveTheRegistryWhenFreedAndChangesSaveAgain() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            weak var dropped: NSManagedObject?
            var kept: NSManagedObject?
            do {
                // Without stops: a trip and its stop refer to each other, which keeps both alive
                // (as in Core Data, until refreshed).
                let (trips, _, _) = try Self.insertAndSave(context, withStops: false)
                dropped = trips[140]
                kept = trips[141]
            }
            #expect(dropped == nil)
            #expect(context.registeredObjects.count == 1)
            kept?.setValue("renamed", forKey: "name")
            try context.save()
            context.reset()
            let fetched = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(fetched[141].value(forKey: "name") as? String == "renamed")
            #expect(fetched[140].value(forKey: "name") as? String == "trip 140")
        }
    }

    @Test func obtainingPermanentIDsBeforeSavingKeepsThemThroughTheSave() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trips = (0..<Self.rows).map { EngineTestModel.insert("Trip", into: context, ["name": "trip \($0)", "legs": $0]) }
            try context.obtainPermanentIDs(for: trips)
            let ids = trips.map(\.objectID)
            #expect(ids.allSatisfy { !$0.isTemporaryID })
            #expect(trips.allSatisfy { $0.isInserted })
            try context.save()
            #expect(trips.map(\.objectID) == ids)
            #expect(zip(ids, trips).allSatisfy { context.object(with: $0.0) === $0.1 })
            context.reset()
            let fetched = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(fetched.map(\.objectID) == ids)
        }
    }
}
#endif

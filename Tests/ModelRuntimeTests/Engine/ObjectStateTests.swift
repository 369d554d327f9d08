#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// The names of the updated objects of each `NSManagedObjectContextObjectsDidChange`.
private final class UpdatedNames: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[String]] = []
    func append(_ names: [String]) { lock.withLock { recorded.append(names) } }
    var entries: [[String]] { lock.withLock { recorded } }
}

/// An object's state holds its values in its own allocation; committed values are the values
/// themselves until a value is written, and every write is seen by `processPendingChanges()`.
struct ObjectStateTests {
    /// A context with one saved trip (with two stops) and nothing registered.
    private static func savedTrip() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Lisbon", "legs": 3, "distance": 12.5])
            for name in ["A", "B"] { _ = EngineTestModel.insert("Stop", into: context, ["name": name, "trip": trip]) }
            try context.save()
            context.reset()
        }
        return context
    }

    private static func fetchTrip(_ context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
    }

    @Test func aFetchedObjectsCommittedValuesAreItsValuesUntilAWrite() throws {
        let context = try Self.savedTrip()
        try context.performAndWait { () throws in
            let trip = try Self.fetchTrip(context)
            #expect(trip.value(forKey: "name") as? String == "Lisbon")
            #expect(trip.committedAreValues)
            #expect(!trip.hasPersistentChangedValues)
            trip.setValue("Porto", forKey: "name")
            #expect(!trip.committedAreValues)
            #expect(trip.committedValue(at: try #require(trip.slot(forKey: "name"))) as? String == "Lisbon")
            #expect(trip.committedValues(forKeys: ["name", "legs"])["name"] as? String == "Lisbon")
            #expect(trip.changedValues().keys.sorted() == ["name"])
            // Set back to the committed value: unchanged again, as in Core Data.
            trip.setValue("Lisbon", forKey: "name")
            #expect(trip.changedValues().isEmpty)
            trip.setValue("Porto", forKey: "name")
            try context.save()
            #expect(trip.committedAreValues)
            #expect(trip.committedValues(forKeys: ["name"])["name"] as? String == "Porto")
        }
    }

    @Test func rollbackAndRefreshPutTheCommittedValuesBack() throws {
        let context = try Self.savedTrip()
        try context.performAndWait { () throws in
            let trip = try Self.fetchTrip(context)
            trip.setValue("Porto", forKey: "name")
            trip.setValue(Int64(9), forKey: "legs")
            context.rollback()
            #expect(trip.value(forKey: "name") as? String == "Lisbon")
            #expect(trip.value(forKey: "legs") as? Int64 == 3)
            #expect(trip.committedAreValues && !trip.hasChanges)
            trip.setValue("Faro", forKey: "name")
            context.refresh(trip, mergeChanges: false)
            #expect(trip.isFault)
            #expect(trip.value(forKey: "name") as? String == "Lisbon")
            #expect(trip.committedAreValues)
        }
    }

    @Test func everyWriteIsReportedByTheNextProcessPendingChanges() throws {
        let context = try Self.savedTrip()
        try context.performAndWait { () throws in
            let trip = try Self.fetchTrip(context)
            let updated = UpdatedNames()
            let observer = NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
            ) { note in
                let objects = note.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject> ?? []
                updated.append(objects.compactMap { $0.primitiveValue(forKey: "name") as? String })
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            trip.setValue("Porto", forKey: "name")
            context.processPendingChanges()
            context.processPendingChanges()
            trip.setValue(Int64(4), forKey: "legs")
            context.processPendingChanges()
            #expect(updated.entries == [["Porto"], ["Porto"]])
        }
    }

    @Test func anObjectReferredToButNotLoadedHasNoRoomForValuesUntilLoaded() throws {
        let context = try Self.savedTrip()
        try context.performAndWait { () throws in
            let stops = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Stop"))
            #expect(stops.count == 2)
            let trip = try #require(stops[0].value(forKey: "trip") as? NSManagedObject)
            #expect(stops[1].value(forKey: "trip") as? NSManagedObject === trip)
            // The destination has an ID and a context, and a state without room for values.
            #expect(trip.isFault && trip.hasState && !trip.objectID.isTemporaryID)
            #expect(trip.managedObjectContext === context)
            #expect(trip.cellsIfAny() == nil)
            let id = trip.objectID
            // Loading gives it room for its values and keeps the rest.
            #expect(trip.value(forKey: "name") as? String == "Lisbon")
            #expect(trip.objectID == id && trip.managedObjectContext === context)
            #expect(trip.committedAreValues)
            #expect(context.registeredObjects.contains(trip))
            trip.setValue("Porto", forKey: "name")
            try context.save()
            #expect(trip.value(forKey: "name") as? String == "Porto")
        }
    }

    @Test func valuesAreReleasedWithTheirObject() throws {
        final class Marker {}
        weak var released: Marker?
        do {
            let marker = Marker()
            released = marker
            let model = EngineTestModel.make()
            let object = NSManagedObject(entity: try #require(model.entitiesByName["Trip"]), insertInto: nil)
            object.setPrimitiveValue(marker, forKey: "note")
            object.setPrimitiveValue("a string longer than fifteen bytes", forKey: "name")
            object.setPrimitiveValue(Data(repeating: 7, count: 100), forKey: "photo")
            #expect(object.primitiveValue(forKey: "name") as? String == "a string longer than fifteen bytes")
            #expect(released != nil)
        }
        #expect(released == nil)
    }

    @Test func overwritingAValueReleasesTheOldOne() throws {
        final class Marker {}
        weak var released: Marker?
        let model = EngineTestModel.make()
        let object = NSManagedObject(entity: try #require(model.entitiesByName["Trip"]), insertInto: nil)
        do {
            let marker = Marker()
            released = marker
            object.setPrimitiveValue(marker, forKey: "note")
        }
        #expect(released != nil)
        object.setPrimitiveValue("plain", forKey: "note")
        #expect(released == nil)
        #expect(object.primitiveValue(forKey: "note") as? String == "plain")
    }
}
#endif

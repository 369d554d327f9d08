#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// An update writes `Z_OPT` and the columns its object changed (and every to-one column), as
/// Core Data does; the rows must come out as if every column had been written.
struct UpdateColumnsTests {
    @Test func anUpdateOfOneAttributeKeepsTheOthersAndTheToOne() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Alps", "legs": 4, "distance": 12.5, "note": "first"])
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "Pass", "order": 2])
            stop.setValue(trip, forKey: "trip")
            try context.save()
            trip.setValue(13.25, forKey: "distance")
            stop.setValue("Col", forKey: "name")
            try context.save()
            trip.setValue("second", forKey: "note")
            try context.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait { () throws in
            let trip = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(trip.value(forKey: "name") as? String == "Alps")
            #expect(trip.value(forKey: "legs") as? Int64 == 4)
            #expect(trip.value(forKey: "distance") as? Double == 13.25)
            #expect(trip.value(forKey: "note") as? String == "second")
            let stop = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Stop")).first)
            #expect(stop.value(forKey: "name") as? String == "Col")
            #expect(stop.value(forKey: "order") as? Int16 == 2)
            #expect(stop.value(forKey: "trip") as? NSManagedObject === trip)
        }
    }

    @Test func anUpdateAfterAnotherWritersChangeIsAConflictAndOverwriteWritesEveryValue() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        let trip = try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Alps", "legs": 4])
            try context.save()
            return trip
        }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait { () throws in
            let theirs = try #require(try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            theirs.setValue(9, forKey: "legs")
            try other.save()
        }
        try context.performAndWait { () throws in
            context.mergePolicy = NSOverwriteMergePolicy
            trip.setValue("Andes", forKey: "name")
            try context.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait { () throws in
            let stored = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(stored.value(forKey: "name") as? String == "Andes")
            // Overwrite writes the whole object: its legs as it read them, over the other writer's.
            #expect(stored.value(forKey: "legs") as? Int64 == 4)
        }
    }
}
#endif

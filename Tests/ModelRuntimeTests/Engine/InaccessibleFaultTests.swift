#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// A fault whose row another context deleted becomes a deleted object with nil values, as with
/// Core Data's default `shouldDeleteInaccessibleFaults`.
struct InaccessibleFaultTests {
    @Test func aFaultWhoseRowIsGoneReadsAsDeletedWithNilValues() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, writer) = try EngineTestModel.stack(url: folder.store)
        let id: NSManagedObjectID = try writer.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: writer, ["name": "Gone", "legs": 4])
            try writer.save()
            return trip.objectID
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        #expect(reader.performAndWait { reader.shouldDeleteInaccessibleFaults })
        let hollow = reader.performAndWait { reader.object(with: id) }
        try writer.performAndWait { () throws in
            writer.delete(writer.object(with: id))
            try writer.save()
        }
        reader.performAndWait {
            #expect(hollow.isFault)
            #expect(hollow.value(forKey: "name") == nil)
            #expect(hollow.value(forKey: "legs") == nil)
            #expect(((hollow.value(forKey: "stops") as? NSOrderedSet)?.count ?? 0) == 0)
            #expect(hollow.isDeleted && !hollow.isFault)
            #expect(!reader.hasChanges)
        }
    }

    @Test func settingItOffStopsTheProcessWithCoreDatasMessage() async {
        await #expect(processExitsWith: .failure) {
            let folder = EngineTestModel.Folder()
            let (coordinator, writer) = try EngineTestModel.stack(url: folder.store)
            let id: NSManagedObjectID = try writer.performAndWait { () throws in
                let trip = EngineTestModel.insert("Trip", into: writer, ["name": "Gone"])
                try writer.save()
                return trip.objectID
            }
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = coordinator
            let hollow = reader.performAndWait { reader.object(with: id) }
            try writer.performAndWait { () throws in
                writer.delete(writer.object(with: id))
                try writer.save()
            }
            reader.performAndWait {
                reader.shouldDeleteInaccessibleFaults = false
                _ = hollow.value(forKey: "name")
            }
        }
    }
}
#endif

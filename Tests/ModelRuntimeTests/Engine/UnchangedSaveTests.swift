#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Round trips that write a value the store already holds (another connection wrote it, or the
/// same value again): the save has nothing to write, and the objects leave the context's
/// updated objects as a save's do, instead of piling up for every later fetch and save.
struct UnchangedSaveTests {
    final class Counter: @unchecked Sendable {
        var value = 0
        var last: Notification?
    }

    @Test func roundTripsThatWriteTheStoredValueLeaveNoUpdatedObjects() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        let names = (0..<20).map { "Trip \($0)" }
        try context.performAndWait {
            for (index, name) in names.enumerated() { _ = EngineTestModel.insert("Trip", into: context, ["name": name, "legs": index]) }
            try context.save()
            context.reset()
        }
        let saves = Counter()
        let observer = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { _ in saves.value += 1 }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            for round in 0..<100 {
                let index = (round * 7) % names.count
                let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
                request.predicate = NSPredicate(format: "name == %@", names[index])
                request.fetchLimit = 1
                let trip = try #require(try context.fetch(request).first)
                trip.setValue(Int64(index), forKey: "legs")  // what the store holds
                #expect(trip.isUpdated && !trip.hasPersistentChangedValues && !context.hasChanges)
                try context.save()
                #expect(!trip.isUpdated && !trip.hasChanges && trip.changedValues().isEmpty)
                #expect(context.updatedObjects.isEmpty && !context.hasChanges)
                #expect(trip.value(forKey: "legs") as? Int64 == Int64(index))
            }
        }
        // Nothing was written or reported.
        #expect(saves.value == 0)
        // A real change afterwards is tracked, saved and reported alone.
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name == %@", names[3])
            let trip = try #require(try context.fetch(request).first)
            trip.setValue(Int64(40), forKey: "legs")
            #expect(context.hasChanges && context.updatedObjects == [trip])
            try context.save()
            #expect(context.updatedObjects.isEmpty && !trip.isUpdated)
        }
        #expect(saves.value == 1)
        let (_, reader) = try EngineTestModel.stack(url: folder.store)
        let legs = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try reader.fetch(request).map { ($0.value(forKey: "name") as! String, $0.value(forKey: "legs") as! Int64) }
        }
        let expected = names.enumerated().map { ($0.element, Int64($0.offset == 3 ? 40 : $0.offset)) }.sorted { $0.0 < $1.0 }
        #expect(legs.map(\.0) == expected.map(\.0) && legs.map(\.1) == expected.map(\.1))
    }

    @Test func anUnchangedObjectOfANothingToWriteSaveTakesAnotherContextsMergedSave() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        let id = try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "A", "legs": 2])
            try context.save()
            trip.setValue(Int64(2), forKey: "legs")
            try context.save()
            #expect(!trip.isUpdated)
            return trip.objectID
        }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let saved = Counter()
        let observer = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
        ) { received in
            saved.last = received
            saved.value += 1
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.performAndWait {
            other.object(with: id).setValue(Int64(9), forKey: "legs")
            try other.save()
        }
        #expect(saved.value == 1)
        let merged = try #require(saved.last)
        context.performAndWait {
            context.mergeChanges(fromContextDidSave: merged)
            let trip = context.object(with: id)
            #expect(trip.value(forKey: "legs") as? Int64 == 9 && !trip.isUpdated && !context.hasChanges)
        }
    }
}
#endif

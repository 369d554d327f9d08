#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Contexts on their queues, child contexts, notifications and merging between contexts.
struct ContextQueueTests {
    @Test func theAsyncPerformReturnsTheBlocksValueAndRethrows() async throws {
        let (_, context) = try EngineTestModel.stack()
        let count = try await context.perform {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            try context.save()
            return try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip"))
        }
        #expect(count == 1)
        let name = await context.perform(schedule: .enqueued) { "no try needed" }
        #expect(name == "no try needed")
        await #expect(throws: NSError.self) {
            try await context.perform {
                try context.save()
                _ = EngineTestModel.insert("Trip", into: context)
                try context.save()
            }
        }
    }

    @Test func backgroundContextsSaveConcurrentlyWithoutLosingRows() async throws {
        let (coordinator, _) = try EngineTestModel.stack()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                    context.persistentStoreCoordinator = coordinator
                    try await context.perform {
                        for index in 0..<25 {
                            _ = EngineTestModel.insert("Trip", into: context, ["name": "w\(worker)-\(index)"])
                            if index % 5 == 4 { try context.save() }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let count = try await reader.perform { try reader.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) }
        #expect(count == 100)
    }

    @Test func aChildContextSavesIntoItsParent() throws {
        let (_, parent) = try EngineTestModel.stack()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        #expect(child.persistentStoreCoordinator === parent.persistentStoreCoordinator)
        let (tripID, stopID): (NSManagedObjectID, NSManagedObjectID) = try child.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: child, ["name": "from child"])
            let stop = EngineTestModel.insert("Stop", into: child, ["name": "s", "trip": trip])
            try child.save()
            return (trip.objectID, stop.objectID)
        }
        try parent.performAndWait {
            #expect(parent.hasChanges)
            let trip = parent.object(with: tripID)
            #expect(trip.isInserted && trip.value(forKey: "name") as? String == "from child")
            #expect(parent.object(with: stopID).value(forKey: "trip") as? NSManagedObject === trip)
            #expect((trip.value(forKey: "stops") as? NSOrderedSet)?.count == 1)
            try parent.save()
            #expect(try parent.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Stop")) == 1)
        }
        // A child reads the parent's unsaved changes.
        try parent.performAndWait {
            let trip = try parent.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))[0]
            trip.setValue("edited in parent", forKey: "name")
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.parent = parent
        try reader.performAndWait {
            let trip = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))[0]
            #expect(trip.value(forKey: "name") as? String == "edited in parent")
        }
    }

    @Test func savingPostsDidSaveWithTheChangedObjects() throws {
        let (_, context) = try EngineTestModel.stack()
        final class Box: @unchecked Sendable {
            var inserted = 0
            var willSave = 0
        }
        let box = Box()
        let didSave = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) {
            note in
            box.inserted = (note.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count ?? -1
        }
        let willSave = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextWillSave, object: context, queue: nil) { _ in
            box.willSave += 1
        }
        defer {
            NotificationCenter.default.removeObserver(didSave)
            NotificationCenter.default.removeObserver(willSave)
        }
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            try context.save()
        }
        #expect(box.inserted == 2 && box.willSave == 1)
    }

    @Test func mergingADidSaveNotificationRefreshesAndRemovesObjects() throws {
        let (coordinator, writer) = try EngineTestModel.stack()
        let viewer = ConflictTests.context(sharing: coordinator)
        let ids: [NSManagedObjectID] = try writer.performAndWait {
            let a = EngineTestModel.insert("Trip", into: writer, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: writer, ["name": "B"])
            try writer.save()
            return [a.objectID, b.objectID]
        }
        let (a, b) = try viewer.performAndWait { (try viewer.existingObject(with: ids[0]), try viewer.existingObject(with: ids[1])) }
        final class Saved: @unchecked Sendable { var note: Notification? }
        let saved = Saved()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) {
            saved.note = $0
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            try writer.existingObject(with: ids[0]).setValue("A2", forKey: "name")
            writer.delete(try writer.existingObject(with: ids[1]))
            try writer.save()
        }
        let note = try #require(saved.note)
        viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: note)
            #expect(a.value(forKey: "name") as? String == "A2")
            #expect(viewer.registeredObject(for: ids[1]) == nil && b.isDeleted)
        }
    }

    @Test func automaticMergingBringsSiblingSavesIntoAContext() async throws {
        let (coordinator, writer) = try EngineTestModel.stack()
        let viewer = ConflictTests.context(sharing: coordinator)
        viewer.automaticallyMergesChangesFromParent = true
        let id: NSManagedObjectID = try await writer.perform {
            let trip = EngineTestModel.insert("Trip", into: writer, ["name": "before"])
            try writer.save()
            return trip.objectID
        }
        let trip = try await viewer.perform { try viewer.existingObject(with: id) }
        try await writer.perform {
            try writer.existingObject(with: id).setValue("after", forKey: "name")
            try writer.save()
        }
        // The merge is enqueued on the viewer's queue by the save; a block enqueued later sees it.
        let name = await viewer.perform(schedule: .enqueued) { trip.value(forKey: "name") as? String }
        #expect(name == "after")
    }
}
#endif

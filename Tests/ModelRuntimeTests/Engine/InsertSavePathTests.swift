#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// An entity's class recorded only when code first makes an object of it by class.
final class InsertPathWidget: NSManagedObject {}

/// The fast paths of inserting and saving: values stored and bound by their type, the entity and
/// class of `insertNewObject` remembered between calls, identity comparison of objects, and the
/// did-save notification's inserted set reused from the change report. Each must give what the
/// general path gives.
struct InsertSavePathTests {
    /// What the observers saw; they run on the saving context's queue, in the save.
    final class Seen: @unchecked Sendable {
        var saved: Set<NSManagedObject> = []
        var added: NSManagedObject?
        var removed: NSManagedObject?
        var context: NSManagedObjectContext?
    }

    @Test func rowsOfSeveralSavesCarryTheirEntityAndVersion() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait { () throws in
            for batch in 0..<2 {
                for index in 0..<3 { _ = EngineTestModel.insert("Trip", into: context, ["name": "Trip \(batch)-\(index)"]) }
                try context.save()
            }
        }
        // A row without its entity would not be fetched; one without its version would make
        // the update below an optimistic-locking conflict.
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait { () throws in
            let trips = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(trips.count == 6)
            for trip in trips { trip.setValue("Renamed", forKey: "note") }
            try reader.save()
            reader.reset()
            let renamed = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(renamed.count == 6)
            #expect(renamed.allSatisfy { $0.value(forKey: "note") as? String == "Renamed" })
        }
    }

    @Test func valuesOfOtherTypesAreConvertedWhenSetAndWhenWritten() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait { () throws in
            let trip = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
            func slot(_ key: String) -> Int { trip.slot(forKey: key)! }
            trip.setValue("Converted", atSlot: slot("name"))
            trip.setValue(NSNumber(value: 7), atSlot: slot("legs"))
            trip.setValue(3, atSlot: slot("distance"))
            trip.setValue(NSNumber(value: true), atSlot: slot("done"))
            trip.setValue(nil, atSlot: slot("note"))
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("t", forKey: "name")
            tag.setValue(12, forKey: "uses")
            #expect(trip.value(atSlot: slot("legs")) as? Int64 == 7)
            #expect(trip.value(atSlot: slot("distance")) as? Double == 3)
            #expect(trip.value(atSlot: slot("done")) as? Bool == true)
            #expect(tag.value(forKey: "uses") as? Int32 == 12)
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(fetched.value(forKey: "name") as? String == "Converted")
            #expect(fetched.value(forKey: "legs") as? Int64 == 7)
            #expect(fetched.value(forKey: "distance") as? Double == 3)
            #expect(fetched.value(forKey: "done") as? Bool == true)
            #expect(fetched.value(forKey: "note") == nil)
            let fetchedTag = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first)
            #expect(fetchedTag.value(forKey: "uses") as? Int32 == 12)
        }
    }

    @Test func insertNewObjectTakesUpAClassRecordedAfterEarlierInsertions() throws {
        let widget = NSEntityDescription()
        widget.name = "InsertPathWidget"
        widget.properties = [EngineTestModel.attribute("label", .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [widget]
        let (_, context) = try EngineTestModel.stack(model: model)
        context.performAndWait {
            let first = NSEntityDescription.insertNewObject(forEntityName: "InsertPathWidget", into: context)
            #expect(!(first is InsertPathWidget))
            // Making an object by its class records the class for the entity.
            _ = InsertPathWidget(context: context)
            let next = NSEntityDescription.insertNewObject(forEntityName: "InsertPathWidget", into: context)
            #expect(next is InsertPathWidget)
        }
    }

    @Test func insertNewObjectFindsTheEntityOfEachContextsModel() throws {
        let (_, first) = try EngineTestModel.stack()
        let (_, second) = try EngineTestModel.stack()
        let firstModel = try #require(first.persistentStoreCoordinator?.managedObjectModel)
        let secondModel = try #require(second.persistentStoreCoordinator?.managedObjectModel)
        #expect(firstModel !== secondModel)
        first.performAndWait {
            second.performAndWait {
                for _ in 0..<3 {
                    let a = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: first)
                    let b = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: second)
                    let c = NSEntityDescription.insertNewObject(forEntityName: "Stop", into: second)
                    #expect(a.entity === firstModel.entitiesByName["Trip"])
                    #expect(b.entity === secondModel.entitiesByName["Trip"])
                    #expect(c.entity === secondModel.entitiesByName["Stop"])
                }
            }
        }
    }

    @Test func managedObjectsAreEqualOnlyToThemselves() throws {
        let (_, context) = try EngineTestModel.stack()
        context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            #expect(a.isEqual(a))
            #expect(!a.isEqual(b))
            #expect(!a.isEqual(nil))
            #expect(!a.isEqual("A"))
            #expect(!a.isEqual(Int(bitPattern: ObjectIdentifier(a))))
            #expect(a.hash == a.hash)
            let set: Set<NSManagedObject> = [a, b, a]
            #expect(set.count == 2)
            #expect(set.contains(a) && set.contains(b))
        }
    }

    @Test func theDidSaveNotificationListsEveryInsertedObject() throws {
        let (_, context) = try EngineTestModel.stack()
        let seen = Seen()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) {
            seen.saved = $0.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> ?? []
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait { () throws in
            let first = (0..<4).map { EngineTestModel.insert("Trip", into: context, ["name": "First \($0)"]) }
            try context.save()
            #expect(seen.saved == Set(first))
            // Some reported before the save, some not.
            let early = EngineTestModel.insert("Trip", into: context, ["name": "Early"])
            context.processPendingChanges()
            let late = EngineTestModel.insert("Trip", into: context, ["name": "Late"])
            try context.save()
            #expect(seen.saved == [early, late])
        }
    }

    /// A will-save observer that swaps an inserted object for a new one leaves as many inserted
    /// objects as the change report listed, but not the same ones.
    @Test func theDidSaveNotificationListsTheObjectsInsertedWhenTheSaveBegan() throws {
        let (_, context) = try EngineTestModel.stack()
        let seen = Seen()
        seen.context = context
        let willSave = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextWillSave, object: context, queue: nil) {
            _ in
            if seen.added == nil, let context = seen.context {
                seen.added = EngineTestModel.insert("Trip", into: context, ["name": "Added"])
                if let removed = seen.removed { context.delete(removed) }
            }
        }
        let didSave = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) {
            seen.saved = $0.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> ?? []
        }
        defer {
            NotificationCenter.default.removeObserver(willSave)
            NotificationCenter.default.removeObserver(didSave)
        }
        try context.performAndWait { () throws in
            seen.removed = EngineTestModel.insert("Trip", into: context, ["name": "Removed"])
            try context.save()
            let extra = try #require(seen.added)
            #expect(seen.saved == [extra])
            #expect(!context.hasChanges)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Trip")) == 1)
        }
    }
}
#endif

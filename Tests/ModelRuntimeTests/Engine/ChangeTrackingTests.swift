#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Which properties of a saved object count as changed: those written since the last save or
/// fetch whose value still differs from the committed one, as Core Data compares on request.
struct ChangeTrackingTests {
    /// What a notification observer records (observers run on the saving context's queue).
    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A saved trip named "A" with 2 legs, in a fresh in-memory stack.
    static func savedTrip() throws -> (NSManagedObjectContext, NSManagedObject) {
        let (_, context) = try EngineTestModel.stack()
        let trip = try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "A", "legs": 2])
            try context.save()
            return trip
        }
        return (context, trip)
    }

    @Test func onlyWrittenPropertiesAreChangedAndAValueSetBackIsUnchangedAgain() throws {
        let (context, trip) = try Self.savedTrip()
        try context.performAndWait {
            #expect(trip.changedValues().isEmpty && !trip.hasPersistentChangedValues && !context.hasChanges)
            trip.setValue("B", forKey: "name")
            trip.setValue(2, forKey: "legs")  // the committed value: written, but not a change
            #expect(trip.changedValues().keys.sorted() == ["name"])
            #expect(trip.changedValues()["name"] as? String == "B")
            #expect(trip.hasPersistentChangedValues && context.hasChanges && trip.isUpdated)
            trip.setValue("A", forKey: "name")
            #expect(trip.changedValues().isEmpty)
            #expect(!trip.hasPersistentChangedValues)
            #expect(!context.hasChanges)
            // Saving with nothing changed posts no did-save notification and writes nothing.
            let saves = Box<Int>(0)
            let observer = NotificationCenter.default.addObserver(
                forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
            ) { _ in saves.value += 1 }
            defer { NotificationCenter.default.removeObserver(observer) }
            try context.save()
            #expect(saves.value == 0)
        }
    }

    @Test func theDidSaveNotificationListsOnlyObjectsWithPersistentChanges() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            try context.save()
            a.setValue("A2", forKey: "name")
            b.setValue("B2", forKey: "name")
            b.setValue("B", forKey: "name")
            let updated = Box<Set<NSManagedObject>>([])
            let observer = NotificationCenter.default.addObserver(
                forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
            ) { note in updated.value = note.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject> ?? [] }
            defer { NotificationCenter.default.removeObserver(observer) }
            try context.save()
            #expect(updated.value == [a])
            #expect(a.changedValues().isEmpty && b.changedValues().isEmpty && !context.hasChanges)
        }
    }

    @Test func saveRollbackAndRefreshStartTrackingAfresh() throws {
        let (context, trip) = try Self.savedTrip()
        try context.performAndWait {
            trip.setValue("B", forKey: "name")
            try context.save()
            #expect(trip.changedValues().isEmpty)
            #expect(trip.committedValues(forKeys: ["name"])["name"] as? String == "B")
            trip.setValue(5, forKey: "legs")
            #expect(trip.changedValues().keys.sorted() == ["legs"])

            context.rollback()
            #expect(trip.changedValues().isEmpty && trip.value(forKey: "legs") as? Int64 == 2)
            trip.setValue("C", forKey: "name")
            #expect(trip.changedValues().keys.sorted() == ["name"])

            context.refresh(trip, mergeChanges: true)
            #expect(trip.changedValues().keys.sorted() == ["name"])
            #expect(trip.value(forKey: "name") as? String == "C")

            context.refresh(trip, mergeChanges: false)
            #expect(trip.value(forKey: "name") as? String == "B")
            #expect(trip.changedValues().isEmpty && !context.hasChanges)
            trip.setValue(7, forKey: "legs")
            #expect(trip.changedValues().keys.sorted() == ["legs"])
        }
    }

    @Test func aChildContextsSavedChangesAreChangesOfTheParentsObject() throws {
        let (context, trip) = try Self.savedTrip()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        let id = context.performAndWait { trip.objectID }
        try child.performAndWait {
            let mine = child.object(with: id)
            mine.setValue(9, forKey: "legs")
            try child.save()
        }
        context.performAndWait {
            #expect(trip.changedValues().keys.sorted() == ["legs"])
            #expect(trip.changedValues()["legs"] as? Int64 == 9)
            #expect(context.hasChanges && context.updatedObjects == [trip])
        }
    }

    @Test func propertiesBeyondTheSixtyFourthAreTracked() throws {
        let entity = NSEntityDescription()
        entity.name = "Wide"
        entity.properties = (0..<70).map { EngineTestModel.attribute(String(format: "v%02d", $0), .integer64AttributeType) }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let (_, context) = try EngineTestModel.stack(model: model)
        try context.performAndWait {
            let wide = EngineTestModel.insert("Wide", into: context, ["v00": 0, "v69": 0])
            try context.save()
            #expect(!context.hasChanges)
            wide.setValue(1, forKey: "v69")
            wide.setValue(1, forKey: "v65")
            wide.setValue(0, forKey: "v00")
            #expect(wide.changedValues().keys.sorted() == ["v65", "v69"])
            try context.save()
            #expect(wide.changedValues().isEmpty)
            let fetched = try NSManagedObjectContext.fetchWide(model: model, from: context)
            #expect(fetched == [1, 1])
        }
    }
}

extension NSManagedObjectContext {
    /// `v65` and `v69` of the one `Wide` object as a second context of the coordinator reads them.
    fileprivate static func fetchWide(model: NSManagedObjectModel, from context: NSManagedObjectContext) throws -> [Int64] {
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = context.persistentStoreCoordinator
        return try other.performAndWait {
            let object = try #require(try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Wide")).first)
            return ["v65", "v69"].map { object.value(forKey: $0) as? Int64 ?? -1 }
        }
    }
}
#endif

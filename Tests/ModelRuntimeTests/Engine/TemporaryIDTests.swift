#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Inserted objects are registered objects of their context, found by their temporary IDs until
/// saved and by their permanent IDs after, however late the temporary ID is first asked for.
struct TemporaryIDTests {
    @Test func insertedObjectsAreRegisteredAndFoundByTheirTemporaryIDs() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let early = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
            let late = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
            #expect(context.registeredObjects == [early, late])
            let id = late.objectID
            #expect(id.isTemporaryID)
            #expect(context.registeredObject(for: id) === late)
            #expect(context.object(with: id) === late)
            #expect(try context.existingObject(with: id) === late)
            let unsaved = NSManagedObject(entity: late.entity, insertInto: nil)
            let unsavedID = unsaved.objectID
            context.insert(unsaved)
            #expect(context.registeredObject(for: unsavedID) === unsaved)
            for (index, trip) in [early, late, unsaved].enumerated() { trip.setValue("trip \(index)", forKey: "name") }
            try context.save()
            #expect(context.registeredObject(for: id) == nil)
            #expect(!late.objectID.isTemporaryID && context.registeredObject(for: late.objectID) === late)
            #expect(context.registeredObject(for: early.objectID) === early)
            #expect(context.registeredObjects == [early, late, unsaved])
        }
    }

    @Test func deletedAndRolledBackInsertsLeaveTheRegistry() throws {
        let (_, context) = try EngineTestModel.stack()
        context.performAndWait {
            let deleted = EngineTestModel.insert("Trip", into: context, ["name": "D"])
            let deletedID = deleted.objectID
            context.delete(deleted)
            #expect(context.registeredObject(for: deletedID) == nil)
            let dropped = EngineTestModel.insert("Trip", into: context, ["name": "R"])
            let droppedID = dropped.objectID
            let never = EngineTestModel.insert("Trip", into: context, ["name": "N"])
            context.rollback()
            #expect(context.registeredObject(for: droppedID) == nil)
            #expect(context.registeredObjects.isEmpty)
            #expect(never.managedObjectContext == nil && dropped.managedObjectContext == nil)
        }
    }

    @Test func obtainingPermanentIDsRegistersObjectsUnderThem() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            try context.obtainPermanentIDs(for: [trip])
            #expect(!trip.objectID.isTemporaryID)
            #expect(context.object(with: trip.objectID) === trip && trip.isInserted)
            try context.save()
            #expect(context.registeredObject(for: trip.objectID) === trip)
        }
    }
}
#endif

#if !canImport(CoreData)
import ModelRuntime
import Testing

/// `hasFault(forRelationshipNamed:)`, `objectIDs(forRelationshipNamed:)` and `faultingState`:
/// answered without firing a relationship fault.
struct RelationshipFaultTests {
    /// A saved trip with two stops (ordered) and a tag, fetched into a new context.
    private func savedTrip() throws -> (folder: EngineTestModel.Folder, model: NSManagedObjectModel, stops: [String], tag: String) {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        let ids: ([String], String) = try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let first = EngineTestModel.insert("Stop", into: context, ["name": "one", "trip": trip])
            let second = EngineTestModel.insert("Stop", into: context, ["name": "two", "trip": trip])
            let tag = EngineTestModel.insert("Tag", into: context, ["name": "blue"])
            trip.mutableSetValue(forKey: "tags").add(tag)
            try context.save()
            return (
                [first, second].map { $0.objectID.uriRepresentation().absoluteString }, tag.objectID.uriRepresentation().absoluteString
            )
        }
        return (folder, model, ids.0, ids.1)
    }

    @Test func aFetchedObjectsToManyIsAFaultAndItsIDsComeWithoutLoadingIt() throws {
        let saved = try savedTrip()
        let (_, context) = try EngineTestModel.stack(model: saved.model, url: saved.folder.store)
        try context.performAndWait {
            let trip = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(trip.hasFault(forRelationshipNamed: "stops"))
            #expect(trip.hasFault(forRelationshipNamed: "tags"))
            let stopIDs = trip.objectIDs(forRelationshipNamed: "stops")
            #expect(stopIDs.map { $0.uriRepresentation().absoluteString } == saved.stops)
            #expect(trip.objectIDs(forRelationshipNamed: "tags").map { $0.uriRepresentation().absoluteString } == [saved.tag])
            // Still faults: the IDs were read, not the relationships.
            #expect(trip.hasFault(forRelationshipNamed: "stops"))
            #expect(trip.hasFault(forRelationshipNamed: "tags"))
            _ = trip.value(forKey: "stops")
            #expect(!trip.hasFault(forRelationshipNamed: "stops"))
            #expect(trip.hasFault(forRelationshipNamed: "tags"))
            #expect(trip.faultingState == 0)
        }
    }

    @Test func aToOneIsAFaultWhileItsDestinationIs() throws {
        let saved = try savedTrip()
        let (_, context) = try EngineTestModel.stack(model: saved.model, url: saved.folder.store)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Stop")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let stop = try #require(try context.fetch(request).first)
            // The stop's row is read; its trip is an object not loaded yet.
            #expect(stop.hasFault(forRelationshipNamed: "trip"))
            let tripIDs = stop.objectIDs(forRelationshipNamed: "trip")
            #expect(tripIDs.count == 1)
            let trip = try #require(stop.value(forKey: "trip") as? NSManagedObject)
            #expect(trip.objectID == tripIDs[0])
            _ = trip.value(forKey: "name")
            #expect(!stop.hasFault(forRelationshipNamed: "trip"))
        }
    }

    @Test func anObjectNotLoadedHasEveryRelationshipAsAFault() throws {
        let saved = try savedTrip()
        let (_, context) = try EngineTestModel.stack(model: saved.model, url: saved.folder.store)
        try context.performAndWait {
            let url = try #require(URL(string: saved.stops[1]))
            let id = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url))
            let stop = context.object(with: id)
            #expect(stop.hasFault(forRelationshipNamed: "trip"))
            #expect(stop.isFault)
            #expect(stop.objectIDs(forRelationshipNamed: "trip").count == 1)
        }
    }

    @Test func pendingChangesCountAndInsertedObjectsHaveNoFaults() throws {
        let saved = try savedTrip()
        let (_, context) = try EngineTestModel.stack(model: saved.model, url: saved.folder.store)
        try context.performAndWait {
            let trip = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            let added = EngineTestModel.insert("Stop", into: context, ["name": "three"])
            trip.mutableOrderedSetValue(forKey: "stops").add(added)
            let ids = trip.objectIDs(forRelationshipNamed: "stops")
            #expect(ids.count == 3)
            #expect(ids.last == added.objectID && ids.last?.isTemporaryID == true)

            let fresh = EngineTestModel.insert("Trip", into: context, ["name": "new"])
            #expect(!fresh.hasFault(forRelationshipNamed: "stops"))
            #expect(!fresh.hasFault(forRelationshipNamed: "tags"))
            #expect(fresh.objectIDs(forRelationshipNamed: "stops").isEmpty)
            #expect(added.objectIDs(forRelationshipNamed: "trip") == [trip.objectID])
        }
    }
}
#endif

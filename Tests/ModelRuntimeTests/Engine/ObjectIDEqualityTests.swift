#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Object IDs compare by the row they name, however they were made and whatever static type they
/// are compared through, as Core Data's do in sets, dictionaries and `isEqual(_:)`.
struct ObjectIDEqualityTests {
    @Test func idsOfOneRowAreEqualAndHashAlikeWhereverTheyComeFrom() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (coordinator, context) = try EngineTestModel.stack(model: model, url: folder.store)
        let saved: [NSManagedObjectID] = try context.performAndWait {
            let trips = (0..<50).map { EngineTestModel.insert("Trip", into: context, ["name": "Trip \($0)"]) }
            try context.save()
            return trips.map(\.objectID)
        }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let fetched: [NSManagedObjectID] = try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try other.fetch(request).map(\.objectID)
        }
        let fromURIs = try saved.map { try #require(coordinator.managedObjectID(forURIRepresentation: $0.uriRepresentation())) }
        let byName = Dictionary(uniqueKeysWithValues: zip(saved.map { $0.uriRepresentation().absoluteString }, saved))
        for id in fetched + fromURIs {
            let match = try #require(byName[id.uriRepresentation().absoluteString])
            #expect(id == match)
            #expect(id.isEqual(match) && match.isEqual(id))
            #expect(id.hash == match.hash && id.hashValue == match.hashValue)
        }
        #expect(Set(saved + fetched + fromURIs).count == 50)
        // Through `NSObject`, as a set of mixed objects compares them.
        let objects: [NSObject] = saved + fetched
        #expect(Set(objects).count == 50)
        #expect(Set(saved).isSuperset(of: fetched) && Set(fetched).isSuperset(of: fromURIs))
    }

    @Test func anIDEqualsNoOtherRowsIDAndNoOtherKindOfValue() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            let first = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let second = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            let temporary = first.objectID
            #expect(temporary.isEqual(temporary) && !temporary.isEqual(second.objectID))
            try context.save()
            let id = first.objectID
            #expect(id != second.objectID && !id.isEqual(second.objectID))
            #expect(!id.isEqual(temporary))
            #expect(!id.isEqual(first) && !id.isEqual(id.uriRepresentation()) && !id.isEqual("Trip") && !id.isEqual(nil))
            #expect(Set([id, second.objectID, temporary]).count == 3)
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// `NSBatchDeleteRequest`: the selected rows go in SQL, with the delete rules applied as a
/// context's delete applies them, and join-table rows removed.
struct BatchDeleteTests {
    typealias B = BatchTestModel

    /// Ann (pets Rex and Tom, car with two wheels, club Chess), Bob (club Chess, a licence),
    /// and Cy (no relationships); returns their IDs by name.
    static func fill(_ context: NSManagedObjectContext) throws -> [String: NSManagedObjectID] {
        let ann = EngineTestModel.insert("Owner", into: context, ["name": "Ann"])
        let bob = EngineTestModel.insert("Owner", into: context, ["name": "Bob"])
        let cy = EngineTestModel.insert("Owner", into: context, ["name": "Cy"])
        for name in ["Rex", "Tom"] { _ = EngineTestModel.insert("Pet", into: context, ["name": name, "owner": ann]) }
        let car = EngineTestModel.insert("Car", into: context, ["plate": "A-1", "owner": ann])
        for position in [1, 2] { _ = EngineTestModel.insert("Wheel", into: context, ["position": Int16(position), "car": car]) }
        let chess = EngineTestModel.insert("Club", into: context, ["title": "Chess"])
        chess.mutableSetValue(forKey: "members").addObjects(from: [ann, bob])
        _ = EngineTestModel.insert("Licence", into: context, ["number": "L1", "owner": bob])
        try context.save()
        return ["Ann": ann.objectID, "Bob": bob.objectID, "Cy": cy.objectID, "Chess": chess.objectID]
    }

    static func owners(named names: String...) -> NSFetchRequest<NSFetchRequestResult> {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Owner")
        fetch.predicate = NSPredicate(format: "name IN %@", names)
        return fetch
    }

    @Test func cascadeDeletesToAnyDepthNullifyClearsToOneKeysAndJoinRowsGo() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        let ids = try context.performAndWait { try Self.fill(context) }
        let deleted: [NSManagedObjectID] = try context.performAndWait {
            let request = NSBatchDeleteRequest(fetchRequest: Self.owners(named: "Ann"))
            request.resultType = .resultTypeObjectIDs
            return try #require((try context.execute(request) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        }
        #expect(deleted.first == ids["Ann"])
        #expect(deleted.map { $0.entity.name ?? "" }.sorted() == ["Car", "Owner", "Wheel", "Wheel"])
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZOWNER") == [2])
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZCAR") == [0])
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZWHEEL") == [0])
        // Pets stay, without an owner, and their version went up.
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZPET WHERE ZOWNER IS NULL") == [2])
        #expect(try B.integers(folder, "SELECT DISTINCT Z_OPT FROM ZPET") == [2])
        // Only Bob's join row is left.
        let joins = try B.rows(
            folder,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')"
        )
        #expect(joins.count == 1)
        if case .text(let join) = joins.first?.first {
            #expect(try B.integers(folder, "SELECT COUNT(*) FROM \(join)") == [1])
        }
    }

    @Test func denyFailsTheRequestWhileADestinationRemainsAndNothingIsDeleted() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        _ = try context.performAndWait { try Self.fill(context) }
        try context.performAndWait { () throws in
            do {
                _ = try context.execute(NSBatchDeleteRequest(fetchRequest: Self.owners(named: "Ann", "Bob")))
                Issue.record("the request should fail")
            } catch let error as NSError {
                #expect(error.code == NSValidationRelationshipDeniedDeleteError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "licences")
            }
        }
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZOWNER") == [3])
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZCAR") == [1])
    }

    @Test func denyAllowsTheDeleteWhenTheDestinationIsDeletedToo() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            let country = EngineTestModel.insert("Country", into: context, ["code": "FR"])
            let owner = EngineTestModel.insert("Owner", into: context, ["name": "Ann", "country": country])
            try context.save()
            let request = NSBatchDeleteRequest(objectIDs: [country.objectID])
            #expect(throws: NSError.self) { try context.execute(request) }
            let both = NSBatchDeleteRequest(objectIDs: [owner.objectID])
            both.resultType = .resultTypeCount
            #expect((try context.execute(both) as? NSBatchDeleteResult)?.result as? Int == 1)
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Bool == true)
        }
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZCOUNTRY") == [0])
    }

    @Test func nullifyingARequiredToOneFailsTheRequest() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            let kennel = EngineTestModel.insert("Kennel", into: context, ["name": "K"])
            _ = EngineTestModel.insert("Dog", into: context, ["name": "D", "kennel": kennel])
            try context.save()
            do {
                _ = try context.execute(NSBatchDeleteRequest(objectIDs: [kennel.objectID]))
                Issue.record("the request should fail")
            } catch let error as NSError {
                #expect(error.localizedDescription.contains("mandatory OTO nullify inverse on Dog/kennel"))
            }
        }
        #expect(try B.integers(folder, "SELECT COUNT(*) FROM ZKENNEL") == [1])
    }

    @Test func objectIDsOfSeveralEntitiesAreRefused() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            let ids = try Self.fill(context)
            #expect(throws: NSError.self) { try context.execute(NSBatchDeleteRequest(objectIDs: [ids["Cy"]!, ids["Chess"]!])) }
            let request = NSBatchDeleteRequest(objectIDs: [ids["Cy"]!])
            request.resultType = .resultTypeCount
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 1)
            // Deleting it again deletes nothing.
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 0)
        }
    }

    @Test func mergingTheDeletedIDsRemovesTheObjectsFromALiveContext() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, writer) = try B.stack(folder)
        let ids = try writer.performAndWait { try Self.fill(writer) }
        let viewer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        viewer.persistentStoreCoordinator = coordinator
        let ann = try viewer.performAndWait {
            let ann = try viewer.existingObject(with: ids["Ann"]!)
            _ = ann.value(forKey: "name")
            return ann
        }
        let result = try writer.performAndWait {
            let request = NSBatchDeleteRequest(fetchRequest: Self.owners(named: "Ann"))
            request.resultType = .resultTypeObjectIDs
            return try #require((try writer.execute(request) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: result], into: [viewer])
        viewer.performAndWait {
            #expect(ann.isDeleted)
            #expect(viewer.registeredObject(for: ids["Ann"]!) == nil)
        }
    }
}
#endif

/// A batch delete's nullify rule reaches destinations of sub-entities, whose inverse is in a slot
/// of their own entity (a sub-entity numbers inherited properties among its own).
struct SubentityBatchDeleteTests {
    static func model() -> NSManagedObjectModel {
        let person = NSEntityDescription()
        person.name = "Person"
        let car = NSEntityDescription()
        car.name = "Car"
        let sportCar = NSEntityDescription()
        sportCar.name = "SportCar"
        let cars = EngineTestModel.relationship("cars", to: car, toMany: true)
        let owner = EngineTestModel.relationship("owner", to: person, toMany: false)
        cars.inverseRelationship = owner
        owner.inverseRelationship = cars
        person.properties = [EngineTestModel.attribute("name", .stringAttributeType), cars]
        car.properties = [EngineTestModel.attribute("plate", .stringAttributeType), owner]
        // `fast` and `horsepower` sort before `owner`: the sub-entity keeps it in another slot.
        sportCar.properties = [
            EngineTestModel.attribute("fast", .booleanAttributeType), EngineTestModel.attribute("horsepower", .integer64AttributeType),
        ]
        car.subentities = [sportCar]
        let model = NSManagedObjectModel()
        model.entities = [person, car, sportCar]
        return model
    }

    @Test func nullifyClearsTheOwnerOfCarsOfEveryKind() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(model: Self.model(), url: folder.store)
        try context.performAndWait { () throws in
            let ann = EngineTestModel.insert("Person", into: context, ["name": "Ann"])
            for (index, kind) in ["Car", "SportCar", "SportCar"].enumerated() {
                _ = EngineTestModel.insert(kind, into: context, ["plate": "P\(index)", "owner": ann])
            }
            try context.save()
            let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Person"))
            request.resultType = .resultTypeCount
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 1)
        }
        #expect(try BatchTestModel.integers(folder, "SELECT COUNT(*) FROM ZCAR WHERE ZOWNER IS NULL") == [3])
        #expect(try BatchTestModel.integers(folder, "SELECT DISTINCT Z_OPT FROM ZCAR") == [2])
    }
}

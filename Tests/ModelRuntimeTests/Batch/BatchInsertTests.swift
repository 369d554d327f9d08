#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// `NSBatchInsertRequest`: rows written in SQL with Core Data's keys, `Z_OPT`, defaults,
/// required values, upserts on uniqueness constraints, and the three result types.
struct BatchInsertTests {
    typealias B = BatchTestModel

    @Test func insertsRowsWithDefaultsOneKeyAllocationAndVersionOne() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            let request = NSBatchInsertRequest(
                entityName: "Owner", objects: [["name": "Ann", "age": 40], ["name": "Bob", "score": 2.5], ["name": "Cy"]])
            request.resultType = .count
            let result = try context.execute(request) as? NSBatchInsertResult
            #expect(result?.resultType == .count)
            #expect(result?.result as? Int == 3)
            #expect(context.insertedObjects.isEmpty && context.registeredObjects.isEmpty)
            let owners = try B.fetch(context, "Owner", sortedBy: "name")
            #expect(owners.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Cy"])
            #expect(owners.map { $0.value(forKey: "age") as? Int64 } == [40, 0, 0])
            #expect(owners.map { $0.value(forKey: "active") as? Bool } == [true, true, true])
            #expect(owners[1].value(forKey: "score") as? Double == 2.5)
            #expect(owners[0].value(forKey: "score") == nil)
        }
        #expect(try B.integers(folder, "SELECT Z_PK FROM ZOWNER ORDER BY Z_PK") == [1, 2, 3])
        #expect(try B.integers(folder, "SELECT DISTINCT Z_OPT FROM ZOWNER") == [1])
        #expect(try B.integers(folder, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Owner'") == [3])
        // A later save takes the next key.
        try context.performAndWait {
            let owner = EngineTestModel.insert("Owner", into: context, ["name": "Dee"])
            try context.save()
            #expect(owner.objectID.uriRepresentation().lastPathComponent == "p4")
        }
    }

    @Test func objectIDsResultListsTheRowsInInputOrder() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            let request = NSBatchInsertRequest(
                entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Pet"]!,
                objects: [
                    ["name": "Rex"], ["name": "Tom"],
                ])
            request.resultType = .objectIDs
            let ids = try #require((try context.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            #expect(ids.count == 2 && ids.allSatisfy { !$0.isTemporaryID })
            #expect(try ids.map { try context.existingObject(with: $0).value(forKey: "name") as? String } == ["Rex", "Tom"])
            let status = NSBatchInsertRequest(entityName: "Pet", objects: [["name": "Kit"]])
            #expect((try context.execute(status) as? NSBatchInsertResult)?.result as? Bool == true)
        }
    }

    @Test func aMissingRequiredValueFailsTheWholeRequestAndWritesNothing() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            let request = NSBatchInsertRequest(entityName: "Owner", objects: [["name": "Ann"], ["age": 3]])
            do {
                _ = try context.execute(request)
                Issue.record("the request should fail")
            } catch let error as NSError {
                #expect(error.code == NSValidationMissingMandatoryPropertyError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
            }
            #expect(try B.fetch(context, "Owner").isEmpty)
        }
        #expect(try B.integers(folder, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Owner'") == [0])
    }

    @Test func dictionaryAndManagedObjectHandlersInsertUntilTheyReturnTrue() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try B.stack(folder)
        let pet = coordinator.managedObjectModel.entitiesByName["Pet"]!
        try context.performAndWait { () throws in
            var index = 0
            let byDictionary = NSBatchInsertRequest(entity: pet) { (dictionary: NSMutableDictionary) -> Bool in
                guard index < 3 else { return true }
                dictionary["name"] = "d\(index)"
                index += 1
                return false
            }
            byDictionary.resultType = .count
            #expect((try context.execute(byDictionary) as? NSBatchInsertResult)?.result as? Int == 3)
            var count = 0
            let byObject = NSBatchInsertRequest(entityName: "Pet") { (object: NSManagedObject) -> Bool in
                guard count < 2 else { return true }
                object.setValue("o\(count)", forKey: "name")
                count += 1
                return false
            }
            byObject.resultType = .count
            #expect((try context.execute(byObject) as? NSBatchInsertResult)?.result as? Int == 2)
            #expect(
                try B.fetch(context, "Pet", sortedBy: "name").map { $0.value(forKey: "name") as? String } == ["d0", "d1", "d2", "o0", "o1"])
        }
    }

    @Test func aUniquenessConstraintMakesTheInsertAnUpsertThatBumpsTheVersion() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            _ = try context.execute(
                NSBatchInsertRequest(entityName: "Country", objects: [["code": "FR", "name": "France"], ["code": "DE"]]))
            let request = NSBatchInsertRequest(
                entityName: "Country",
                objects: [["code": "DE", "name": "Germany"], ["code": "IT", "name": "Italy"], ["code": "IT", "name": "Italia"]])
            request.resultType = .objectIDs
            let ids = try #require((try context.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            #expect(ids.map { $0.uriRepresentation().lastPathComponent } == ["p2", "p3", "p3"])
            let countries = try B.fetch(context, "Country", sortedBy: "code")
            #expect(countries.map { $0.value(forKey: "name") as? String } == ["Germany", "France", "Italia"])
        }
        #expect(try B.integers(folder, "SELECT Z_OPT FROM ZCOUNTRY ORDER BY Z_PK") == [1, 2, 2])
        #expect(try B.integers(folder, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Country'") == [3])
    }

    @Test func storeTrumpKeepsTheStoredRowOnAConstraintMatch() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder, policy: NSMergeByPropertyStoreTrumpMergePolicy)
        try context.performAndWait {
            _ = try context.execute(NSBatchInsertRequest(entityName: "Country", objects: [["code": "FR", "name": "France"]]))
            _ = try context.execute(NSBatchInsertRequest(entityName: "Country", objects: [["code": "FR", "name": "Frankreich"]]))
            #expect(try B.fetch(context, "Country").map { $0.value(forKey: "name") as? String } == ["France"])
        }
        #expect(try B.integers(folder, "SELECT Z_OPT FROM ZCOUNTRY") == [1])
    }

    @Test func toOneRelationshipsLinkByObjectIDOrUniqueKeyInTheSamePass() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try B.stack(folder)
        let owner = coordinator.managedObjectModel.entitiesByName["Owner"]!
        try context.performAndWait {
            let countries = NSBatchInsertRequest(entityName: "Country", objects: [["code": "FR"], ["code": "DE"]])
            countries.resultType = .objectIDs
            let ids = try #require((try context.execute(countries) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            let people: [(String, BatchInsertReference)] = [("Ann", .objectID(ids[1])), ("Bob", .uniqueKey(["code": "FR"]))]
            let request = NSBatchInsertRequest(entity: owner, keys: ["name", "country"], count: people.count) { index, row in
                row[0] = people[index].0
                row[1] = people[index].1
            }
            _ = try context.execute(request)
            let owners = try B.fetch(context, "Owner", sortedBy: "name")
            #expect(owners.map { ($0.value(forKey: "country") as? NSManagedObject)?.value(forKey: "code") as? String } == ["DE", "FR"])
            let france = try context.existingObject(with: ids[0])
            #expect((france.value(forKey: "owners") as? Set<NSManagedObject>)?.map { $0.value(forKey: "name") as? String } == ["Bob"])
        }
    }

    @Test func anUnknownReferenceFailsTheRequest() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            let request = NSBatchInsertRequest(
                entityName: "Owner",
                objects: [["name": "Ann"], ["name": "Bob", "country": BatchInsertReference.uniqueKey(["code": "XX"])]])
            do {
                _ = try context.execute(request)
                Issue.record("the request should fail")
            } catch let error as NSError {
                #expect(error.code == NSManagedObjectReferentialIntegrityError)
            }
            #expect(try B.fetch(context, "Owner").isEmpty)
        }
    }
}
#endif

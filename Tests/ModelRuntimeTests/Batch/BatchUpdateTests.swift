#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// `NSBatchUpdateRequest`: the predicate's rows get the values in SQL, `Z_OPT` goes up, and
/// merging the IDs refreshes live objects.
struct BatchUpdateTests {
    typealias B = BatchTestModel

    static func fill(_ context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let request = NSBatchInsertRequest(
            entityName: "Owner",
            objects: [["name": "Ann", "age": 30, "score": 1.5], ["name": "Bob", "age": 50, "score": 2.0], ["name": "Cy", "age": 70]])
        request.resultType = .objectIDs
        return try #require((try context.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
    }

    @Test func updatesThePredicatesRowsWithConstantsAndExpressionsAndBumpsTheVersion() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait {
            let ids = try Self.fill(context)
            let request = NSBatchUpdateRequest(entityName: "Owner")
            request.predicate = NSPredicate(format: "age >= %d", 50)
            request.propertiesToUpdate = [
                "active": false,
                "age": NSExpression(
                    forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "age"), NSExpression(forConstantValue: 1)]),
                "score": NSExpression(forConstantValue: 9.0),
            ]
            request.resultType = .updatedObjectIDsResultType
            let updated = try #require((try context.execute(request) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
            #expect(Set(updated) == Set(ids[1...]))
            let owners = try B.fetch(context, "Owner", sortedBy: "name")
            #expect(owners.map { $0.value(forKey: "age") as? Int64 } == [30, 51, 71])
            #expect(owners.map { $0.value(forKey: "active") as? Bool } == [true, false, false])
            #expect(owners.map { $0.value(forKey: "score") as? Double } == [1.5, 9.0, 9.0])
            let count = NSBatchUpdateRequest(entity: owners[0].entity)
            count.propertiesToUpdate = ["name": "X"]
            count.resultType = .updatedObjectsCountResultType
            #expect((try context.execute(count) as? NSBatchUpdateResult)?.result as? Int == 3)
            let status = NSBatchUpdateRequest(entityName: "Owner")
            status.propertiesToUpdate = ["age": 1]
            #expect((try context.execute(status) as? NSBatchUpdateResult)?.result as? Bool == true)
        }
        #expect(try B.integers(folder, "SELECT Z_OPT FROM ZOWNER ORDER BY Z_PK") == [3, 4, 4])
    }

    @Test func aStaleObjectConflictsOnSaveAfterABatchUpdateAsAfterAnotherSave() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        try context.performAndWait { () throws in
            let ids = try Self.fill(context)
            let ann = try context.existingObject(with: ids[0])
            _ = ann.value(forKey: "name")
            let request = NSBatchUpdateRequest(entityName: "Owner")
            request.propertiesToUpdate = ["age": 31]
            _ = try context.execute(request)
            ann.setValue(99.0, forKey: "score")
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.code == NSManagedObjectMergeError)
            }
        }
    }

    @Test func mergingTheUpdatedIDsRefreshesLiveObjects() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, writer) = try B.stack(folder)
        let ids = try writer.performAndWait { try Self.fill(writer) }
        let viewer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        viewer.persistentStoreCoordinator = coordinator
        let ann = try viewer.performAndWait {
            let ann = try viewer.existingObject(with: ids[0])
            #expect(ann.value(forKey: "age") as? Int64 == 30)
            return ann
        }
        let updated = try writer.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Owner")
            request.predicate = NSPredicate(format: "name == 'Ann'")
            request.propertiesToUpdate = ["age": 31]
            request.resultType = .updatedObjectIDsResultType
            return try #require((try writer.execute(request) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectIDsKey: updated], into: [viewer])
        try viewer.performAndWait {
            #expect(ann.value(forKey: "age") as? Int64 == 31)
            // The refreshed object has the row's new version: changing and saving it succeeds.
            ann.setValue(32, forKey: "age")
            try viewer.save()
        }
    }

    @Test func mergingInsertedIDsShowsTheRowsInLiveToManyRelationships() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, writer) = try B.stack(folder)
        let viewer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        viewer.persistentStoreCoordinator = coordinator
        let countryID = try writer.performAndWait {
            let country = EngineTestModel.insert("Country", into: writer, ["code": "FR"])
            try writer.save()
            return country.objectID
        }
        let country = try viewer.performAndWait {
            let country = try viewer.existingObject(with: countryID)
            #expect((country.value(forKey: "owners") as? Set<NSManagedObject>)?.isEmpty == true)
            return country
        }
        let inserted = try writer.performAndWait {
            let request = NSBatchInsertRequest(
                entityName: "Owner", objects: [["name": "Ann", "country": BatchInsertReference.objectID(countryID)]])
            request.resultType = .objectIDs
            return try #require((try writer.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectIDsKey: inserted], into: [viewer])
        viewer.performAndWait {
            let owners = country.value(forKey: "owners") as? Set<NSManagedObject>
            #expect(owners?.map(\.objectID) == inserted)
        }
    }

    @Test func relationshipsAndUnknownPropertiesAreRefused() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try B.stack(folder)
        context.performAndWait {
            let relationship = NSBatchUpdateRequest(entityName: "Owner")
            relationship.propertiesToUpdate = ["country": NSNull()]
            #expect(throws: NSError.self) { try context.execute(relationship) }
            let unknown = NSBatchUpdateRequest(entityName: "Owner")
            unknown.propertiesToUpdate = ["colour": 1]
            #expect(throws: NSError.self) { try context.execute(unknown) }
            let empty = NSBatchUpdateRequest(entityName: "Owner")
            #expect(throws: NSError.self) { try context.execute(empty) }
        }
    }
}
#endif

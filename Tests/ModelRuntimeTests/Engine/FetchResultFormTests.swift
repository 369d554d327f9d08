#if !canImport(CoreData)
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import ModelRuntime
import Testing

/// The forms fetch results are used in: dictionary rows read by subscript, bridged to Swift
/// dictionaries and typed by the request; objects typed by the request; hollow objects.
struct FetchResultFormTests {
    static func seeded() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Alps", "legs": 3, "distance": 12.5, "done": true])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Andes", "legs": 4])
            try context.save()
            context.reset()
        }
        return context
    }

    static func dictionaryRequest<T>(_ type: T.Type) -> NSFetchRequest<T> {
        let request = NSFetchRequest<T>(entityName: "Trip")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "legs", "distance", "note"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return request
    }

    @Test func dictionaryRowsReadBySubscriptWithTheAttributesSwiftTypes() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let rows = try context.fetch(Self.dictionaryRequest(NSDictionary.self))
            #expect(rows.count == 2)
            #expect(rows[0]["name"] as? String == "Alps")
            #expect(rows[0]["legs"] as? Int64 == 3)
            #expect((rows[0]["legs"] as? NSNumber)?.intValue == 3)
            #expect(rows[0]["distance"] as? Double == 12.5)
            #expect(rows[0].object(forKey: "name") as? String == "Alps")
            #expect(rows[0].value(forKey: "name") as? String == "Alps")
            // A nil value has no key, as in Core Data's rows.
            #expect(rows[0]["note"] == nil)
            #expect(rows[0].count == 3)
            #expect(Set(rows[0].allKeys.compactMap { $0 as? String }) == ["name", "legs", "distance"])
        }
    }

    @Test func dictionaryRowsGiveToOneRelationshipsAsObjectIDsOfTheRowsSubEntity() throws {
        // Stop gains a to-one `guide` to Person, whose sub-entity Driver shares its table.
        let model = EngineTestModel.make()
        let stop = model.entitiesByName["Stop"]!
        stop.properties += [EngineTestModel.relationship("guide", to: model.entitiesByName["Person"]!, toMany: false)]
        let (_, context) = try EngineTestModel.stack(model: model)
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Coast"])
            let person = EngineTestModel.insert("Person", into: context, ["name": "Ana"])
            let driver = EngineTestModel.insert("Driver", into: context, ["name": "Rui"])
            _ = EngineTestModel.insert("Stop", into: context, ["name": "a", "trip": trip, "guide": driver])
            _ = EngineTestModel.insert("Stop", into: context, ["name": "b", "trip": trip, "guide": person])
            _ = EngineTestModel.insert("Stop", into: context, ["name": "c"])
            try context.save()
            let request = NSFetchRequest<NSDictionary>(entityName: "Stop")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "trip", "guide"]
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let rows = try context.fetch(request)
            try #require(rows.count == 3)
            let trips = rows.map { $0["trip"] as? NSManagedObjectID }
            #expect(trips == [trip.objectID, trip.objectID, nil])
            #expect(trips[0]?.entity.name == "Trip")
            let guides = rows.map { $0["guide"] as? NSManagedObjectID }
            #expect(guides == [driver.objectID, person.objectID, nil])
            #expect(guides.map { $0?.entity.name } == ["Driver", "Person", nil])
            #expect(rows[2]["trip"] == nil && rows[2]["guide"] == nil)
            #expect(try guides[0].map { try context.existingObject(with: $0) } === driver)
        }
    }

    @Test func dictionaryRowsBridgeToSwiftDictionariesInEveryForm() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let results = try context.fetch(Self.dictionaryRequest(NSFetchRequestResult.self))
            let bridged = try #require(results as? [[String: Any]])
            #expect(bridged.map { $0["name"] as? String } == ["Alps", "Andes"])
            #expect(bridged[1]["legs"] as? Int64 == 4)
            #expect(bridged[1].count == 3)

            let typed = try context.fetch(Self.dictionaryRequest(NSDictionary.self))
            let rows = typed as! [[String: Any]]
            #expect(rows[0]["name"] as? String == "Alps")
            let row = try #require(typed[1] as? [String: Any])
            #expect(row["legs"] as? Int64 == 4)
            #expect(row.keys.sorted() == ["distance", "legs", "name"])

            let anyObjects = try context.fetch(Self.dictionaryRequest(AnyObject.self))
            #expect((anyObjects.first as? NSDictionary)?["name"] as? String == "Alps")
        }
    }

    @Test func dictionaryRowsCopyAndCompareAsFoundationDictionaries() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let row = try #require(try context.fetch(Self.dictionaryRequest(NSDictionary.self)).last)
            let copy = try #require(row.mutableCopy() as? NSMutableDictionary)
            copy["note"] = "added"
            #expect(copy.count == 4 && row.count == 3)
            #expect(row.isEqual(NSDictionary(dictionary: ["name": "Andes", "legs": Int64(4), "distance": 0.0])))
            #expect(!row.isEqual(NSDictionary(dictionary: ["name": "Andes", "legs": Int64(5), "distance": 0.0])))
        }
    }

    @Test func objectResultsAreTypedByTheRequestOrFailClearly() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(objects.count == 2)
            let results = try context.fetch(NSFetchRequest<NSFetchRequestResult>(entityName: "Trip"))
            #expect(results.compactMap { $0 as? NSManagedObject }.count == 2)
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Trip")
            ids.resultType = .managedObjectIDResultType
            #expect(try context.fetch(ids).allSatisfy { !$0.isTemporaryID })
            do {
                _ = try context.fetch(NSFetchRequest<NSManagedObjectID>(entityName: "Trip"))
                Issue.record("objects fetched as IDs")
            } catch let error as NSError {
                #expect(error.localizedDescription.contains("not a NSManagedObjectID"))
            }
        }
    }

    @Test func hollowObjectsHaveNoValueStorageUntilLoaded() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let id = try #require(try context.fetch(NSFetchRequest<NSManagedObjectID>(entityName: "Trip").idResults()).first)
            context.reset()
            let hollow = context.object(with: id)
            #expect(hollow.faultState == .hollow)
            #expect(hollow.cellsIfAny() == nil)
            #expect(hollow.valuesCopy.count == hollow.engine.slotCount && hollow.valuesCopy.allSatisfy { $0 == nil })
            // The object itself is all a hollow object allocates (88 bytes usable: a 96-byte block).
            let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
            #expect(usableSize(Unmanaged.passUnretained(hollow).toOpaque()) <= 88)
            #expect(hollow.value(forKey: "name") as? String != nil)
            #expect(hollow.cellsIfAny() != nil)
        }
    }

    @Test func batchedFetchObjectsMakeTheirIDOnlyWhenAsked() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.fetchBatchSize = 1
            let trips = try context.fetch(request)
            #expect(trips.allSatisfy { $0.idStorage == nil })
            #expect(trips[1].value(forKey: "name") as? String == "Andes")
            #expect(trips.allSatisfy { $0.idStorage == nil })
            let id = trips[1].objectID
            #expect(!id.isTemporaryID)
            #expect(context.object(with: id) === trips[1])
            #expect(context.registeredObject(for: trips[0].objectID) === trips[0])
            #expect(try context.existingObject(with: id) === trips[1])
        }
    }
}

extension NSFetchRequest where ResultType == NSManagedObjectID {
    /// The request with `.managedObjectIDResultType`.
    fileprivate func idResults() -> Self {
        resultType = .managedObjectIDResultType
        return self
    }
}
#endif

#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Fetch requests run as SQL: predicates, sorts, paging, result types and pending changes.
struct FetchRequestTests {
    static func seeded() throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let (coordinator, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for (index, name) in ["Alps", "andes", "Pyrenees", "Atlas", "Urals"].enumerated() {
                _ = EngineTestModel.insert(
                    "Trip", into: context, ["name": name, "legs": index + 1, "distance": Double(index) * 10, "done": index % 2 == 0])
            }
            try context.save()
            context.reset()
        }
        return (coordinator, context)
    }

    static func names(_ objects: [NSManagedObject]) -> [String] { objects.compactMap { $0.value(forKey: "name") as? String } }

    @Test func predicatesAndSortDescriptorsSelectAndOrderInTheStore() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name BEGINSWITH[c] %@ AND legs >= %d", "a", 2)
            request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: false)]
            #expect(Self.names(try context.fetch(request)) == ["Atlas", "andes"])
            request.predicate = NSPredicate(format: "name IN %@ OR done == NO", ["Urals", "Alps"])
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: "caseInsensitiveCompare:")]
            #expect(Self.names(try context.fetch(request)) == ["Alps", "andes", "Atlas", "Urals"])
            request.predicate = NSPredicate(format: "distance BETWEEN {10, 30} AND NOT name CONTAINS 'r'")
            #expect(Self.names(try context.fetch(request)) == ["andes", "Atlas"])
            request.predicate = NSPredicate(format: "note == nil AND name LIKE[c] '*S'")
            #expect(Self.names(try context.fetch(request)) == ["Alps", "andes", "Atlas", "Pyrenees", "Urals"])
            request.predicate = NSPredicate(format: "name MATCHES '[A-Z].*s'")
            #expect(Self.names(try context.fetch(request)) == ["Alps", "Atlas", "Pyrenees", "Urals"])
        }
    }

    @Test func limitOffsetAndCountApplyInTheStore() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: true)]
            request.fetchLimit = 2
            request.fetchOffset = 1
            #expect(Self.names(try context.fetch(request)) == ["andes", "Pyrenees"])
            #expect(try context.count(for: request) == 2)
            let all = NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")
            #expect(try context.count(for: all) == 5)
        }
    }

    @Test func resultTypesGiveIDsDictionariesAndCounts() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")
            request.predicate = NSPredicate(format: "legs == 2")
            #expect((try context.fetch(request).first as? NSManagedObject)?.value(forKey: "name") as? String == "andes")
            request.resultType = .managedObjectIDResultType
            let id = try #require(try context.fetch(request).first as? NSManagedObjectID)
            #expect(!id.isTemporaryID && id.entity.name == "Trip")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "legs"]
            let row = try #require(try context.fetch(request).first as? NSDictionary)
            #expect(row["name"] as? String == "andes" && row["legs"] as? Int64 == 2)
            request.resultType = .countResultType
            #expect((try context.fetch(request).first as? NSNumber)?.intValue == 1)
            let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Trip")
            dictionaries.resultType = .dictionaryResultType
            #expect(try context.fetch(dictionaries).count == 5)
        }
    }

    @Test func unsavedInsertsAndDeletesAreIncludedUnlessExcluded() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "legs > 3")
            request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: true)]
            let fetched = try context.fetch(request)
            #expect(Self.names(fetched) == ["Atlas", "Urals"])
            context.delete(fetched[0])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "New", "legs": 9])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Short", "legs": 1])
            #expect(Self.names(try context.fetch(request)) == ["Urals", "New"])
            #expect(try context.count(for: request) == 2)
            request.includesPendingChanges = false
            #expect(Self.names(try context.fetch(request)) == ["Atlas", "Urals"])
        }
    }

    @Test func aPredicateTheStoreCannotRunIsAClearError() throws {
        let (_, context) = try Self.seeded()
        context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate { _, _ in true }
            do {
                _ = try context.fetch(request)
                Issue.record("the fetch should fail")
            } catch let error as NSError {
                #expect(error.code == NSPersistentStoreUnsupportedRequestTypeError)
                #expect(error.localizedDescription.contains("block"))
            }
            let unknown = NSFetchRequest<NSManagedObject>(entityName: "Nope")
            #expect(throws: NSError.self) { try context.fetch(unknown) }
        }
    }

    @Test func predicatesComparingToOneRelationshipsUseTheKey() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let other = EngineTestModel.insert("Trip", into: context, ["name": "U"])
            _ = EngineTestModel.insert("Stop", into: context, ["trip": trip, "name": "a"])
            _ = EngineTestModel.insert("Stop", into: context, ["trip": other, "name": "b"])
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Stop")
            request.predicate = NSPredicate(format: "trip == %@", trip)
            #expect(Self.names(try context.fetch(request)) == ["a"])
            request.predicate = NSPredicate(format: "trip == %@", other.objectID)
            #expect(Self.names(try context.fetch(request)) == ["b"])
            request.predicate = NSPredicate(format: "trip.name == 'U'")
            #expect(Self.names(try context.fetch(request)) == ["b"])
            let tripRequest = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            tripRequest.predicate = NSPredicate(format: "self == %@", trip)
            #expect(try context.fetch(tripRequest).first === trip)
            tripRequest.predicate = NSPredicate(format: "ANY stops.name == 'b'")
            #expect(try context.fetch(tripRequest).first === other)
            tripRequest.predicate = NSPredicate(format: "stops.@count == 1")
            #expect(try context.fetch(tripRequest).count == 2)
        }
    }
}
#endif

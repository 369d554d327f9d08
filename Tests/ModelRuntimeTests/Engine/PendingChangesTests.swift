#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Fetches and counts see unsaved changes as Core Data's do: a context's own updates are
/// re-evaluated, and a child context sees its ancestors' unsaved inserts, deletes and updates.
struct PendingChangesTests {
    static func names(_ objects: [NSManagedObject]) -> [String] {
        objects.compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    static func request(_ format: String? = nil) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.predicate = format.map { NSPredicate(format: $0) }
        return request
    }

    /// A context with trips a, b, c (legs 1, 2, 3) saved.
    static func savedTrips() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for (name, legs) in [("a", 1), ("b", 2), ("c", 3)] {
                _ = EngineTestModel.insert("Trip", into: context, ["name": name, "legs": legs])
            }
            try context.save()
        }
        return context
    }

    @Test func countReevaluatesUnsavedUpdates() throws {
        let context = try Self.savedTrips()
        try context.performAndWait { () throws in
            let trips = try context.fetch(Self.request())
            let b = try #require(trips.first { $0.value(forKey: "name") as? String == "b" })
            b.setValue(10, forKey: "legs")
            #expect(try context.count(for: Self.request("legs > 5")) == 1)
            #expect(try context.count(for: Self.request("legs < 3")) == 1)
            #expect(try context.count(for: Self.request()) == 3)
            // A changed object that is then deleted counts as gone; an insert counts when it matches.
            let c = try #require(trips.first { $0.value(forKey: "name") as? String == "c" })
            c.setValue(20, forKey: "legs")
            context.delete(c)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "d", "legs": 7])
            #expect(try context.count(for: Self.request("legs > 5")) == 2)
            #expect(Self.names(try context.fetch(Self.request("legs > 5"))) == ["b", "d"])
            let limited = Self.request("legs > 0")
            limited.fetchLimit = 2
            #expect(try context.count(for: limited) == 2)
            let noPending = Self.request("legs > 5")
            noPending.includesPendingChanges = false
            #expect(try context.count(for: noPending) == 0)
        }
    }

    @Test func aChildFetchSeesItsParentsUnsavedInsertsDeletesAndUpdates() throws {
        let parent = try Self.savedTrips()
        try parent.performAndWait { () throws in
            let trips = try parent.fetch(Self.request())
            for trip in trips {
                switch trip.value(forKey: "name") as? String {
                case "a": parent.delete(trip)
                case "b": trip.setValue("bee", forKey: "name")
                default: break
                }
            }
            _ = EngineTestModel.insert("Trip", into: parent, ["name": "new", "legs": 9])
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait { () throws in
            #expect(Self.names(try child.fetch(Self.request())) == ["bee", "c", "new"])
            #expect(Self.names(try child.fetch(Self.request("name BEGINSWITH 'b'"))) == ["bee"])
            #expect(Self.names(try child.fetch(Self.request("legs > 2"))) == ["c", "new"])
            #expect(try child.count(for: Self.request()) == 3)
            #expect(try child.count(for: Self.request("legs > 2")) == 2)
            let sorted = Self.request()
            sorted.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            sorted.fetchLimit = 2
            #expect(try child.fetch(sorted).compactMap { $0.value(forKey: "name") as? String } == ["new", "c"])
            // The objects are the child's own, with the parent's values.
            let new = try #require(try child.fetch(Self.request("name == 'new'")).first)
            #expect(new.managedObjectContext === child && new.objectID.isTemporaryID)
        }

        let grandchild = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        grandchild.parent = child
        try child.performAndWait { () throws in
            let c = try #require(try child.fetch(Self.request("name == 'c'")).first)
            child.delete(c)
        }
        try grandchild.performAndWait { () throws in
            #expect(Self.names(try grandchild.fetch(Self.request())) == ["bee", "new"])
            #expect(try grandchild.count(for: Self.request()) == 2)
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// The context's registry: one object per ID, holding unchanged objects weakly as Core Data does
/// (`retainsRegisteredObjects` false) and changed ones strongly until they are saved or discarded.
struct RegistryLifetimeTests {
    static func seeded(_ count: Int) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for index in 0..<count { _ = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)", "legs": index]) }
            try context.save()
            context.reset()
        }
        return context
    }

    static func request(batchSize: Int = 0) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: true)]
        request.fetchBatchSize = batchSize
        return request
    }

    @Test func unchangedObjectsAreFreedWhenTheApplicationDropsThem() throws {
        let context = try Self.seeded(3)
        try context.performAndWait { () throws in
            #expect(context.retainsRegisteredObjects == false)
            weak var dropped: NSManagedObject?
            var id: NSManagedObjectID?
            do {
                let trips = try context.fetch(Self.request())
                #expect(context.registeredObjects.count == 3)
                dropped = trips[1]
                id = trips[1].objectID
            }
            #expect(dropped == nil)
            #expect(context.registeredObjects.isEmpty)
            let again = context.object(with: try #require(id))
            #expect(again.value(forKey: "name") as? String == "trip 1")
            #expect(context.registeredObject(for: try #require(id)) === again)
        }
    }

    @Test func changedInsertedAndDeletedObjectsStayUntilSaved() throws {
        let context = try Self.seeded(3)
        try context.performAndWait { () throws in
            weak var updated: NSManagedObject?
            weak var deleted: NSManagedObject?
            weak var inserted: NSManagedObject?
            weak var untouched: NSManagedObject?
            do {
                let trips = try context.fetch(Self.request())
                trips[0].setValue("renamed", forKey: "name")
                context.delete(trips[1])
                updated = trips[0]
                deleted = trips[1]
                untouched = trips[2]
                inserted = EngineTestModel.insert("Trip", into: context, ["name": "new", "legs": 9])
            }
            #expect(untouched == nil)
            #expect(updated?.value(forKey: "name") as? String == "renamed")
            #expect(deleted?.isDeleted == true && inserted?.isInserted == true)
            #expect(context.registeredObjects.count == 3)
            try context.save()
            // Saved, the objects have no changes left for the context to hold them by.
            #expect(updated == nil && deleted == nil && inserted == nil)
            #expect(context.registeredObjects.isEmpty)
            let names = try context.fetch(Self.request()).compactMap { $0.value(forKey: "name") as? String }
            #expect(names == ["renamed", "trip 2", "new"])
        }
    }

    @Test func retainsRegisteredObjectsKeepsEveryObjectUntilTurnedOff() throws {
        let context = try Self.seeded(4)
        try context.performAndWait { () throws in
            context.retainsRegisteredObjects = true
            weak var probe: NSManagedObject?
            do { probe = try context.fetch(Self.request()).last }
            #expect(probe?.value(forKey: "name") as? String == "trip 3")
            #expect(context.registeredObjects.count == 4)
            context.retainsRegisteredObjects = false
            #expect(probe == nil && context.registeredObjects.isEmpty)
            context.retainsRegisteredObjects = true
            do { probe = try context.fetch(Self.request()).first }
            context.reset()
            #expect(probe == nil)
        }
    }

    @Test func aDroppedBatchedResultIsFreed() throws {
        let context = try Self.seeded(60)
        try context.performAndWait { () throws in
            weak var first: NSManagedObject?
            weak var last: NSManagedObject?
            do {
                let trips = try context.fetch(Self.request(batchSize: 10))
                for trip in trips { _ = trip.value(forKey: "legs") }
                first = trips.first
                last = trips.last
                #expect(context.registeredObjects.count == 60)
            }
            #expect(first == nil && last == nil)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test func theTableAgreesWithADictionaryThroughInsertsRemovalsAndGrowth() throws {
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model)
        let entity = try #require(model.entitiesByName["Stop"])
        let registry = ObjectRegistry()
        var expected: [ObjectKey: NSManagedObject] = [:]
        var generator = SystemRandomNumberGenerator()
        context.performAndWait {
            for step in 0..<6_000 {
                // Few tables and clustered keys, so probe sequences run into each other.
                let key = ObjectKey(
                    storeNumber: UInt32.random(in: 1...2, using: &generator), root: Int.random(in: 1...3, using: &generator),
                    primaryKey: Int64.random(in: 0..<700, using: &generator) * (step % 2 == 0 ? 1 : 64))
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    #expect(registry.removeValue(forKey: key) === expected.removeValue(forKey: key))
                } else {
                    let object = NSManagedObject(entity: entity, insertInto: nil)
                    registry[key] = object
                    expected[key] = object
                }
                if step % 500 == 0 {
                    #expect(registry.count == expected.count)
                    #expect(expected.allSatisfy { registry[$0.key] === $0.value })
                }
            }
            #expect(registry.count == expected.count)
            #expect(expected.allSatisfy { registry[$0.key] === $0.value })
            #expect(Set(registry.values.map(ObjectIdentifier.init)) == Set(expected.values.map(ObjectIdentifier.init)))
        }
    }

    @Test func lookupsStayRightWhileObjectsComeAndGo() throws {
        let context = try Self.seeded(400)
        try context.performAndWait { () throws in
            var trips = try context.fetch(Self.request())
            let ids = trips.map(\.objectID)
            // Drop every third object, in an order that leaves holes all over the table.
            var kept: [Int: NSManagedObject] = [:]
            for (index, trip) in trips.enumerated() where index % 3 != 0 { kept[index] = trip }
            trips = []
            #expect(context.registeredObjects.count == kept.count)
            for (index, id) in ids.enumerated() {
                if let object = kept[index] {
                    #expect(context.registeredObject(for: id) === object)
                } else {
                    #expect(context.registeredObject(for: id) == nil)
                }
            }
            let refetched = try context.fetch(Self.request())
            for (index, object) in kept { #expect(refetched[index] === object) }
            #expect(refetched.map { $0.value(forKey: "legs") as? Int64 } == (0..<400).map { Int64($0) })
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// A batched fetch registers its hollow objects by position rather than in the registry's
/// table; every other way of reaching an object must still find exactly those objects.
struct BatchedFetchRegistryTests {
    /// `count` trips (`legs` 0…count−1), each with one stop.
    static func seeded(_ count: Int) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let (coordinator, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for index in 0..<count {
                let trip = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)", "legs": index])
                _ = EngineTestModel.insert("Stop", into: context, ["name": "stop \(index)", "order": index, "trip": trip])
            }
            try context.save()
            context.reset()
        }
        return (coordinator, context)
    }

    static func request(_ entity: String = "Trip", batchSize: Int = 0, ascending: Bool = true) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = [NSSortDescriptor(key: entity == "Trip" ? "legs" : "order", ascending: ascending)]
        request.fetchBatchSize = batchSize
        return request
    }

    @Test func laterFetchesIDsAndToOneFaultsFindTheBatchedFetchsObjects() throws {
        let (_, context) = try Self.seeded(40)
        try context.performAndWait { () throws in
            let trips = try context.fetch(Self.request(batchSize: 7))
            #expect(trips.allSatisfy { $0.faultState == .hollow })
            let plain = try context.fetch(Self.request())
            #expect(plain.count == 40)
            #expect(zip(plain, trips).allSatisfy { $0 === $1 })
            let id = trips[23].objectID
            #expect(context.object(with: id) === trips[23])
            #expect(try context.existingObject(with: id) === trips[23])
            #expect(context.registeredObject(for: id) === trips[23])
            let stops = try context.fetch(Self.request("Stop"))
            for (index, stop) in stops.enumerated() { #expect(stop.value(forKey: "trip") as? NSManagedObject === trips[index]) }
            let registered = Set(context.registeredObjects.map(ObjectIdentifier.init))
            #expect(trips.allSatisfy { registered.contains(ObjectIdentifier($0)) })
            #expect(context.registeredObjects.count == 80)
            #expect(trips.map { $0.value(forKey: "legs") as? Int64 } == (0..<40).map { Int64($0) })
        }
    }

    @Test func twoBatchedFetchesShareTheirObjectsAndEitherLoadsThem() throws {
        let (_, context) = try Self.seeded(30)
        try context.performAndWait { () throws in
            var first: [NSManagedObject]? = try context.fetch(Self.request(batchSize: 4))
            weak let firstBatches = first?[0].batches
            let second = try context.fetch(Self.request(batchSize: 6, ascending: false))
            #expect(zip(first!, second.reversed()).allSatisfy { $0 === $1 })
            #expect(second[0].batches === second[5].batches)
            #expect(second[0].batches !== firstBatches)
            first = nil
            // Every object moved to the second fetch, so the first one's bookkeeping is gone.
            #expect(firstBatches == nil)
            #expect(context.registeredObjects.count == 30)
            #expect(second.map { $0.value(forKey: "legs") as? Int64 } == (0..<30).reversed().map { Int64($0) })
            #expect(second[0].batches?.statementsRun == 6)
            #expect(context.object(with: second[29].objectID) === second[29])
        }
    }

    @Test func objectsOfADroppedBatchedFetchLeaveTheRegistryOneByOne() throws {
        let (_, context) = try Self.seeded(25)
        try context.performAndWait { () throws in
            weak var batches: FetchBatches?
            var kept: NSManagedObject?
            var id: NSManagedObjectID?
            var dropped: NSManagedObjectID?
            do {
                let trips = try context.fetch(Self.request(batchSize: 5))
                batches = trips[0].batches
                kept = trips[12]
                id = trips[12].objectID
                dropped = trips[3].objectID
                _ = trips[3].value(forKey: "name")
            }
            #expect(batches != nil)
            #expect(context.registeredObjects.count == 1)
            #expect(context.registeredObject(for: try #require(dropped)) == nil)
            #expect(context.registeredObject(for: try #require(id)) === kept)
            let again = try context.fetch(Self.request(batchSize: 5))
            #expect(again[12] === kept)
            #expect(kept?.value(forKey: "name") as? String == "trip 12")
            kept = nil
            #expect(context.registeredObjects.count == 25)
            _ = again
        }
    }

    @Test func resetAndRetainingRegisteredObjectsCoverABatchedFetch() throws {
        let (_, context) = try Self.seeded(20)
        try context.performAndWait { () throws in
            let trips = try context.fetch(Self.request(batchSize: 5))
            let id = trips[4].objectID
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            #expect(context.registeredObject(for: id) == nil)
            let fresh = context.object(with: id)
            #expect(fresh !== trips[4])
            #expect(fresh.value(forKey: "legs") as? Int64 == 4)
        }
        try context.performAndWait { () throws in
            context.reset()
            weak var probe: NSManagedObject?
            do {
                let trips = try context.fetch(Self.request(batchSize: 5))
                probe = trips[9]
                context.retainsRegisteredObjects = true
            }
            #expect(probe != nil)
            #expect(context.registeredObjects.count == 20)
            #expect(probe?.value(forKey: "legs") as? Int64 == 9)
            context.retainsRegisteredObjects = false
            #expect(probe == nil)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test func aContextRetainingItsObjectsKeepsABatchedFetchsObjectsFromTheStart() throws {
        let (_, context) = try Self.seeded(20)
        try context.performAndWait { () throws in
            context.retainsRegisteredObjects = true
            weak var probe: NSManagedObject?
            var id: NSManagedObjectID?
            do {
                let trips = try context.fetch(Self.request(batchSize: 5))
                probe = trips[7]
                id = trips[7].objectID
            }
            #expect(probe != nil)
            #expect(context.registeredObjects.count == 20)
            #expect(context.object(with: try #require(id)) === probe)
            #expect(probe?.value(forKey: "legs") as? Int64 == 7)
            context.retainsRegisteredObjects = false
            #expect(probe == nil)
        }
    }

    @Test func mergedUpdatesAndDeletionsReachTheBatchedFetchsObjects() throws {
        let (coordinator, context) = try Self.seeded(12)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try context.performAndWait { () throws in
            let trips = try context.fetch(Self.request(batchSize: 4))
            #expect(trips[2].value(forKey: "name") as? String == "trip 2")
            let (updated, deleted) = try other.performAndWait { () throws in
                let theirs = try other.fetch(Self.request())
                theirs[2].setValue("renamed", forKey: "name")
                other.delete(theirs[3])
                try other.save()
                return (theirs[2].objectID, theirs[3].objectID)
            }
            #expect(updated == trips[2].objectID)
            context.mergeChanges(
                fromContextDidSave: Notification(
                    name: .NSManagedObjectContextDidSave, object: other,
                    userInfo: [NSUpdatedObjectsKey: [updated], NSDeletedObjectsKey: [deleted]]))
            #expect(trips[2].value(forKey: "name") as? String == "renamed")
            #expect(trips[3].isDeleted)
            #expect(context.registeredObject(for: deleted) == nil)
            #expect(context.registeredObjects.count == 11)
            context.refresh(trips[2], mergeChanges: false)
            #expect(trips[2].isFault)
            #expect(trips[2].value(forKey: "name") as? String == "renamed")
        }
    }
    final class Holder: @unchecked Sendable {
        var objects: [NSManagedObject]?
    }

    @Test func objectsOfABatchedFetchMayBeFreedOnAnotherThread() throws {
        let (_, context) = try Self.seeded(50)
        let holder = Holder()
        try context.performAndWait { () throws in
            holder.objects = try context.fetch(Self.request(batchSize: 10))
            #expect(holder.objects?[15].value(forKey: "name") as? String == "trip 15")
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            holder.objects = nil
            done.signal()
        }.start()
        done.wait()
        try context.performAndWait { () throws in
            #expect(context.registeredObjects.isEmpty)
            let trips = try context.fetch(Self.request(batchSize: 10))
            #expect(trips.map { $0.value(forKey: "legs") as? Int64 } == (0..<50).map { Int64($0) })
        }
    }
}
#endif

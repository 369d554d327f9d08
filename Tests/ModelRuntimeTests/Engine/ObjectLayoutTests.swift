#if !canImport(CoreData)
#if canImport(Glibc)
import Glibc
#endif
@testable import ModelRuntime
import Testing

/// A managed object is three words of stored properties (48 bytes as allocated); a hollow object
/// of a batched fetch has no state of its own, and a released batch's unchanged objects drop
/// theirs again while keeping their identity, context and values.
struct ObjectLayoutTests {
    #if canImport(Glibc)
    /// glibc's `malloc_usable_size` (not in the Glibc module's headers), looked up by name.
    private static let mallocUsableSize: (@convention(c) (UnsafeMutableRawPointer?) -> Int)? = {
        guard let symbol = dlsym(nil, "malloc_usable_size") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
    }()

    /// The fewest bytes malloc gave any of `objects`: 40 for objects in 48-byte chunks (64-byte
    /// ones give 56). The fewest, since malloc may hand out a slightly larger free chunk whole.
    private static func allocatedBytes(_ objects: [NSManagedObject]) throws -> Int {
        let usableSize = try #require(mallocUsableSize)
        return try #require(objects.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min())
    }

    @Test func aManagedObjectIsAllocatedInA48ByteChunk() throws {
        // Enough objects that malloc runs out of free larger chunks to hand out whole.
        let context = try BatchedFetchTests.seeded(512)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.fetchBatchSize = 8
            let hollow = try context.fetch(request)
            #expect(try (24...40).contains(Self.allocatedBytes(hollow)))
            let inserted = (0..<512).map { EngineTestModel.insert("Trip", into: context, ["name": "new \($0)"]) }
            #expect(try (24...40).contains(Self.allocatedBytes(inserted)))
        }
    }
    #endif

    @Test func aBatchedFetchsHollowObjectsHaveNoStateUntilUsed() throws {
        let context = try BatchedFetchTests.seeded(20)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.fetchBatchSize = 5
            let trips = try context.fetch(request)
            #expect(trips.allSatisfy { !$0.hasState })
            #expect(trips.allSatisfy { $0.managedObjectContext === context })
            _ = trips[0].value(forKey: "name")
            #expect(trips[0].hasState)
            #expect(!trips[19].hasState)
            // An ID asked for is kept, in a state of its own.
            #expect(!trips[19].objectID.isTemporaryID)
            #expect(trips[19].hasState)
            #expect(trips[19].isFault)
            #expect(trips[19].value(forKey: "name") != nil)
        }
    }

    @Test func aReleasedBatchDropsTheStateOfUnchangedObjectsAndReloadsTheSameRows() throws {
        let context = try BatchedFetchTests.seeded(40)
        try context.performAndWait { () throws in
            let request = BatchedFetchRegistryTests.request(batchSize: 10)
            let trips = try context.fetch(request)
            let idBefore = trips[1].objectID
            #expect(trips[1].value(forKey: "name") as? String == "trip 1")
            trips[0].setValue("changed", forKey: "name")
            // Loading the fourth batch releases the first.
            _ = trips[35].value(forKey: "name")
            #expect(trips[1].isFault)
            #expect(!trips[1].hasState)
            #expect(trips[0].hasState)
            #expect(!trips[0].isFault)
            #expect(trips[0].changedValues()["name"] as? String == "changed")
            #expect(trips[1].objectID == idBefore)
            #expect(trips[1].managedObjectContext === context)
            #expect(context.registeredObject(for: idBefore) === trips[1])
            #expect(context.object(with: idBefore) === trips[1])
            #expect(trips[1].value(forKey: "name") as? String == "trip 1")
            #expect(trips[1].value(forKey: "legs") as? Int64 == 1)
            #expect(!trips[1].hasChanges)
            #expect(trips[0].value(forKey: "name") as? String == "changed")
            #expect(context.updatedObjects.count == 1)
            try context.save()
            #expect(trips[0].committedValues(forKeys: ["name"])["name"] as? String == "changed")
        }
    }

    @Test func anObjectsStateIsFreedWhenItsBatchIsReleasedAndWithTheObject() throws {
        let context = try BatchedFetchTests.seeded(30)
        try context.performAndWait { () throws in
            let request = BatchedFetchRegistryTests.request(batchSize: 10)
            var trips = try context.fetch(request)
            _ = trips[0].value(forKey: "name")
            weak let released = trips[1].state
            _ = trips[25].value(forKey: "name")
            #expect(released == nil)
            weak let loaded = trips[25].state
            #expect(loaded != nil)
            trips.removeAll()
            #expect(loaded == nil)
        }
    }

    @Test func anObjectLeftWithoutItsContextKeepsItsStateWhenItsBatchIsReleased() throws {
        let context = try BatchedFetchTests.seeded(30)
        try context.performAndWait { () throws in
            let request = BatchedFetchRegistryTests.request(batchSize: 10)
            let trips = try context.fetch(request)
            _ = trips[0].value(forKey: "name")
            trips[2].context = nil
            _ = trips[25].value(forKey: "name")
            #expect(trips[1].isFault && !trips[1].hasState)
            #expect(trips[2].managedObjectContext == nil)
            #expect(trips[2].hasState)
        }
    }
}
#endif

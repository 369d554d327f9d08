#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// A fetch without a batch size registers its first rows in the registry's table and the rest by
/// position in its list of keys; uniquing, lookups by ID and key, freeing, reset and
/// `retainsRegisteredObjects` must behave the same for either kind of registration.
struct LargeFetchRegistryTests {
    /// More rows than a fetch registers in the table.
    static let rows = ObjectRegistry.tableRowsPerFetch * 3

    @Test func laterFetchesIDsAndToOnesFindALargeFetchsObjects() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        try context.performAndWait { () throws in
            let trips = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(trips.count == Self.rows)
            #expect(trips.last?.batches?.registrySlots != nil)
            let again = try context.fetch(BatchedFetchRegistryTests.request(ascending: false))
            #expect(zip(trips, again.reversed()).allSatisfy { $0 === $1 })
            for index in [0, 63, 64, 100, Self.rows - 1] {
                let id = trips[index].objectID
                #expect(!id.isTemporaryID)
                #expect(context.object(with: id) === trips[index])
                #expect(context.registeredObject(for: id) === trips[index])
                #expect(try context.existingObject(with: id) === trips[index])
            }
            let stops = try context.fetch(BatchedFetchRegistryTests.request("Stop"))
            for (index, stop) in stops.enumerated() { #expect(stop.value(forKey: "trip") as? NSManagedObject === trips[index]) }
            #expect(context.registeredObjects.count == 2 * Self.rows)
            #expect(Set(context.registeredObjects.map(ObjectIdentifier.init)).count == 2 * Self.rows)
        }
    }

    @Test func aLargeFetchUsesTheObjectsToOnesMadeBeforeIt() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        try context.performAndWait { () throws in
            let stops = try context.fetch(BatchedFetchRegistryTests.request("Stop"))
            let destinations = stops.map { $0.value(forKey: "trip") as? NSManagedObject }
            #expect(destinations.allSatisfy { $0?.isFault == true })
            let trips = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(zip(trips, destinations).allSatisfy { $0 === $1 })
            #expect(trips.map { $0.value(forKey: "legs") as? Int64 } == (0..<Self.rows).map { Int64($0) })
        }
    }

    /// Nodes whose parent is a row of the same fetch, before or after them in the result.
    @Test func toOnesIntoTheRowsOfTheSameLargeFetchAreUnique() throws {
        let (_, context) = try EngineTestModel.stack(model: Self.treeModel())
        let count = Self.rows
        try context.performAndWait { () throws in
            var nodes: [NSManagedObject] = []
            for number in 0..<count {
                let node = EngineTestModel.insert("Node", into: context, ["number": number])
                nodes.append(node)
            }
            // Node n's parent is node (n * 7 + 3) mod count: earlier and later rows alike.
            for number in 0..<count { nodes[number].setValue(nodes[(number * 7 + 3) % count], forKey: "parent") }
            try context.save()
            context.reset()
        }
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Node")
            request.sortDescriptors = [NSSortDescriptor(key: "number", ascending: true)]
            let nodes = try context.fetch(request)
            #expect(nodes.count == count)
            for number in 0..<count {
                #expect(nodes[number].value(forKey: "parent") as? NSManagedObject === nodes[(number * 7 + 3) % count])
            }
            #expect(context.registeredObjects.count == count)
        }
    }

    @Test func objectsOfADroppedLargeFetchLeaveTheRegistry() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        try context.performAndWait { () throws in
            weak var keys: FetchBatches?
            weak var dropped: NSManagedObject?
            var kept: [NSManagedObject] = []
            do {
                let trips = try context.fetch(BatchedFetchRegistryTests.request())
                keys = trips[0].batches
                dropped = trips[150]
                kept = [trips[10], trips[100]]
            }
            #expect(dropped == nil)
            #expect(keys != nil)
            #expect(context.registeredObjects.count == 2)
            do {
                let trips = try context.fetch(BatchedFetchRegistryTests.request())
                #expect(trips[10] === kept[0])
                #expect(trips[100] === kept[1])
                #expect(trips[150].value(forKey: "legs") as? Int64 == 150)
                #expect(context.registeredObjects.count == Self.rows)
            }
            #expect(context.registeredObjects.count == 2)
            kept = []
            #expect(keys == nil)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test func moreLargeFetchesAliveThanRegisteredByPositionKeepOneObjectPerRow() throws {
        let fetches = ObjectRegistry.maximumPages + 8
        let size = ObjectRegistry.tableRowsPerFetch + 6
        let (_, context) = try BatchedFetchRegistryTests.seeded(fetches * size)
        try context.performAndWait { () throws in
            // Each fetch has rows of its own, so each registers its later rows by position; the
            // oldest ones move to the table as more come.
            var results: [[NSManagedObject]] = []
            for part in 0..<fetches {
                let request = BatchedFetchRegistryTests.request()
                request.predicate = NSPredicate(format: "legs >= %d AND legs < %d", part * size, (part + 1) * size)
                results.append(try context.fetch(request))
            }
            #expect(context.registeredObjects.count == fetches * size)
            #expect(context.graph.registry.pageCount == ObjectRegistry.maximumPages)
            let ids = results.map { $0.map(\.objectID) }
            let all = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(all.count == fetches * size)
            for (part, result) in results.enumerated() {
                #expect(result.count == size)
                #expect(result.enumerated().allSatisfy { all[part * size + $0.offset] === $0.element })
                #expect(ids[part].enumerated().allSatisfy { context.object(with: $0.element) === result[$0.offset] })
            }
            #expect(Set(context.registeredObjects.map(ObjectIdentifier.init)).count == fetches * size)
        }
    }

    @Test func resetAndRetainingRegisteredObjectsCoverALargeFetch() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        try context.performAndWait { () throws in
            let trips = try context.fetch(BatchedFetchRegistryTests.request())
            let id = trips[150].objectID
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            #expect(context.registeredObject(for: id) == nil)
            let fresh = context.object(with: id)
            #expect(fresh !== trips[150])
            #expect(fresh.value(forKey: "legs") as? Int64 == 150)
        }
        try context.performAndWait { () throws in
            context.reset()
            weak var probe: NSManagedObject?
            do {
                let trips = try context.fetch(BatchedFetchRegistryTests.request())
                probe = trips[140]
                context.retainsRegisteredObjects = true
            }
            #expect(probe != nil)
            #expect(context.registeredObjects.count == Self.rows)
            #expect(probe?.value(forKey: "legs") as? Int64 == 140)
            let again = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(again[140] === probe)
            context.retainsRegisteredObjects = false
            #expect(probe != nil)
        }
        try context.performAndWait { () throws in
            context.retainsRegisteredObjects = true
            weak var probe: NSManagedObject?
            do { probe = try context.fetch(BatchedFetchRegistryTests.request())[170] }
            #expect(probe != nil)
            context.retainsRegisteredObjects = false
            #expect(probe == nil)
        }
    }

    @Test func deletingAndSavingALargeFetchsObjects() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        try context.performAndWait { () throws in
            let trips = try context.fetch(BatchedFetchRegistryTests.request())
            let id = trips[120].objectID
            context.delete(trips[120])
            trips[130].setValue("renamed", forKey: "name")
            try context.save()
            #expect(context.registeredObject(for: id) == nil)
            let again = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(again.count == Self.rows - 1)
            #expect(again[129] === trips[130])
            #expect(again[129].value(forKey: "name") as? String == "renamed")
        }
    }

    @Test func objectsOfALargeFetchMayBeFreedOnAnotherThread() throws {
        let (_, context) = try BatchedFetchRegistryTests.seeded(Self.rows)
        let holder = BatchedFetchRegistryTests.Holder()
        try context.performAndWait { () throws in
            holder.objects = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(holder.objects?[150].value(forKey: "name") as? String == "trip 150")
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            holder.objects = nil
            done.signal()
        }.start()
        done.wait()
        try context.performAndWait { () throws in
            #expect(context.registeredObjects.isEmpty)
            let trips = try context.fetch(BatchedFetchRegistryTests.request())
            #expect(trips.map { $0.value(forKey: "legs") as? Int64 } == (0..<Self.rows).map { Int64($0) })
        }
    }

    /// `Node` (`number`) with a to-one `parent` and its inverse `children`.
    static func treeModel() -> NSManagedObjectModel {
        let node = NSEntityDescription()
        node.name = "Node"
        node.managedObjectClassName = "NSManagedObject"
        let parent = EngineTestModel.relationship("parent", to: node, toMany: false)
        let children = EngineTestModel.relationship("children", to: node, toMany: true)
        parent.inverseRelationship = children
        children.inverseRelationship = parent
        node.properties = [EngineTestModel.attribute("number", .integer64AttributeType), parent, children]
        let model = NSManagedObjectModel()
        model.entities = [node]
        return model
    }
}
#endif

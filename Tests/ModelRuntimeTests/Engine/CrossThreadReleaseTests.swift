#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Objects, and their last references, released on other threads while their context works on its
/// queue (docs/runtime/Safety.md, "The registry and fetches' position lists"). A context's objects
/// may be handed to and dropped by any thread, as in Core Data; an object freed there leaves its
/// context's registry (and its fetch's position list) from that thread, while the context fetches,
/// looks objects up, saves and resets on its own queue. Items spin in their `deinit`
/// (``SlowlyFreedItem``) to widen the window between an object's last release and its leaving the
/// registry. What is asserted holds after any interleaving: every object the context hands out is
/// whole and is the one registered for its ID, and the store ends with the versions the context's
/// saves wrote.
@Suite struct CrossThreadReleaseTests {
    /// Three threads, each holding the only references to every third fetched object.
    static func releasers(_ objects: [NSManagedObject], threads: StressThreads) {
        for part in 0..<3 {
            let held = Handed(stride(from: part, to: objects.count, by: 3).map { objects[$0] })
            threads.start("releaser \(part)") {
                // One at a time, so the releases interleave with the context's work.
                while !held.value.isEmpty { held.value.removeLast() }
            }
        }
    }

    @Test(arguments: [0, 16])
    func objectsReleasedOnOtherThreadsWhileTheirContextFetchesSavesAndResets(batchSize: Int) throws {
        let folder = EngineTestModel.Folder()
        let model = RaceModel.make()
        let context = RaceModel.context(try RaceModel.seed(model, at: folder.store))
        var expected = [Int64](repeating: 0, count: RaceModel.items)
        let rounds = try StressRounds.run(maximum: 24) { round in
            let threads = StressThreads()
            let ids: [NSManagedObjectID] = try context.performAndWait { () throws in
                let items = try context.fetch(RaceModel.request(batchSize: batchSize))
                // Values, to-ones and a few to-many sets loaded, so freeing an object releases
                // strings, references to other objects and relationship sets on its thread.
                for item in items where RaceModel.number(item) % 4 == Int64(round % 4) {
                    _ = (item.value(forKey: "group") as? NSManagedObject)?.value(forKey: "name")
                }
                let ids = items.map(\.objectID)
                Self.releasers(items, threads: threads)
                return ids
            }
            // Meanwhile, on the queue: fetches (which find the objects still alive and replace
            // those freed), lookups by ID, a save and, every third round, a reset.
            try context.performAndWait { () throws in
                let half = NSFetchRequest<NSManagedObject>(entityName: "Item")
                half.predicate = NSPredicate(format: "number < %d", RaceModel.items / 2)
                half.fetchBatchSize = batchSize
                for item in try context.fetch(half) { #expect(RaceModel.isWhole(item)) }
                for (index, id) in ids.enumerated() where index % 3 == round % 3 {
                    if let object = context.registeredObject(for: id) { #expect(object.objectID == id) }
                }
                let items = try context.fetch(RaceModel.request(batchSize: batchSize))
                #expect(items.count == RaceModel.items)
                for item in items {
                    #expect(RaceModel.isWhole(item))
                    let number = Int(RaceModel.number(item))
                    #expect(RaceModel.version(item) == expected[number])
                    if number % 5 == round % 5 {
                        expected[number] += 1
                        RaceModel.write(item, version: expected[number])
                    }
                }
                try context.save()
                #expect(items.allSatisfy { context.object(with: $0.objectID) === $0 })
                if round % 3 == 2 { context.reset() }
            }
            threads.wait()
            // Every object of the first fetch is freed now, whichever thread let it go last.
            try context.performAndWait { () throws in
                let registered = context.registeredObjects.compactMap { $0.entity.name == "Item" ? $0 : nil }
                #expect(registered.allSatisfy { RaceModel.isWhole($0) && RaceModel.version($0) == expected[Int(RaceModel.number($0))] })
                let object = try context.existingObject(with: ids[round % ids.count])
                #expect(RaceModel.isWhole(object))
            }
        }
        #expect(rounds > 0)
        context.performAndWait { context.reset() }
        #expect(try RaceModel.storedVersions(model, at: folder.store) == expected)
    }

    /// The context's own reset and a fetch replacing the objects of a previous fetch release the
    /// last references on the queue while other threads release the rest of the same fetch's
    /// objects, including objects of a batched fetch never read (no state of their own).
    @Test func objectsOfOneFetchFreedOnTheQueueAndOnOtherThreadsAtOnce() throws {
        let folder = EngineTestModel.Folder()
        let model = RaceModel.make()
        let context = RaceModel.context(try RaceModel.seed(model, at: folder.store))
        let rounds = try StressRounds.run(maximum: 40) { round in
            let threads = StressThreads()
            try context.performAndWait { () throws in
                let batchSize = [0, 10, 100][round % 3]
                let items = try context.fetch(RaceModel.request(batchSize: batchSize))
                // Half read (loading their batches), half left hollow.
                for item in items where RaceModel.number(item) % 2 == 0 { #expect(RaceModel.isWhole(item)) }
                // The other threads take every object; the queue keeps a third of them a while.
                Self.releasers(items, threads: threads)
                let kept = items.filter { RaceModel.number($0) % 3 == 0 }
                context.reset()
                #expect(context.registeredObjects.isEmpty)
                let again = try context.fetch(RaceModel.request(batchSize: batchSize))
                #expect(again.count == RaceModel.items && again.allSatisfy(RaceModel.isWhole))
                // Objects of before the reset are no longer the context's.
                #expect(kept.allSatisfy { object in !again.contains { $0 === object } })
            }
            threads.wait()
        }
        #expect(rounds > 0)
    }
}
#endif

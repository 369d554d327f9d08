#if !canImport(CoreData)
import Foundation
import Synchronization
import Testing

@testable import ModelRuntime

/// An object whose `deinit` takes a while before the managed object's own (which takes it out of
/// its context's registry): the time between its last release and its leaving the registry.
final class SlowlyFreedItem: NSManagedObject {
    deinit {
        let end = DispatchTime.now().uptimeNanoseconds + 20_000
        while DispatchTime.now().uptimeNanoseconds < end {}
    }
}

/// Lookups in a context's registry while its objects are freed on other threads. The registry
/// holds its objects unretained (as Core Data's does by default); an object whose last
/// reference went on another thread is still listed until its `deinit` reaches the registry,
/// and a lookup in that window must not hand it out: an object retained while its `deinit`
/// runs is freed with the reference still held (the Swift runtime stops the process: "deallocated
/// with non-zero retain count"). Lookups by ID, `registeredObjects` and `retainsRegisteredObjects`
/// are each tried. Bounded: a fixed number of rounds, stopped early after a few
/// seconds.
@Suite struct RegistryRaceTests {
    /// One entity, `Item` (`number`), of `itemClass`.
    static func model(itemClass: NSManagedObject.Type = SlowlyFreedItem.self) -> NSManagedObjectModel {
        let item = NSEntityDescription()
        item.name = "Item"
        item.managedObjectClassName = String(reflecting: itemClass)
        item.properties = [EngineTestModel.attribute("number", .integer64AttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    /// What the freeing thread takes: the only references to a fetch's objects.
    final class Handoff: @unchecked Sendable {
        var objects: [NSManagedObject]
        init(_ objects: [NSManagedObject]) { self.objects = objects }
    }

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    @Test(arguments: [0, 25])
    func lookupsWhileObjectsAreFreedOnAnotherThread(batchSize: Int) throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(model: Self.model(), url: folder.store)
        let rows = 300
        try context.performAndWait { () throws in
            for number in 0..<rows { _ = EngineTestModel.insert("Item", into: context, ["number": Int64(number)]) }
            try context.save()
            context.reset()
        }
        let deadline = Date().addingTimeInterval(4)
        var rounds = 0
        var found = 0
        while rounds < 40, Date() < deadline {
            rounds += 1
            let (handoff, ids): (Handoff, [NSManagedObjectID]) = try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.fetchBatchSize = batchSize
                let objects = try context.fetch(request)
                return (Handoff(objects), objects.map(\.objectID))
            }
            let freed = Flag()
            let freeing = Thread {
                handoff.objects = []
                freed.value.store(true, ordering: .releasing)
            }
            freeing.start()
            // Lookups on the context's queue until every object is freed.
            context.performAndWait {
                repeat {
                    for id in ids {
                        if let object = context.registeredObject(for: id) {
                            found += 1
                            #expect(object.objectID == id)
                        }
                    }
                    _ = context.registeredObjects.count
                    // Holding every registered object strongly, and letting go again.
                    context.retainsRegisteredObjects = true
                    context.retainsRegisteredObjects = false
                } while !freed.value.load(ordering: .acquiring)
                // Whatever is left is a live object or an object made anew, with its own values.
                for id in ids.prefix(20) {
                    let object = context.object(with: id)
                    #expect((object.value(forKey: "number") as? Int64).map { $0 >= 0 && $0 < Int64(rows) } == true)
                }
            }
            while !freed.value.load(ordering: .acquiring) { usleep(100) }
            context.performAndWait { context.reset() }
        }
        #expect(rounds > 0)
        _ = found
    }
}
#endif

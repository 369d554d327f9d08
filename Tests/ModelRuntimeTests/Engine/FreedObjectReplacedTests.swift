#if !canImport(CoreData)
import Dispatch
import Foundation
import ModelRuntime
import Synchronization
import Testing

/// An item whose `deinit` can be held open: the one object named by ``held`` signals
/// ``entered`` and waits for ``proceed`` before the runtime's own `deinit` (which takes it out of
/// its context's registry) runs.
final class HeldFreedItem: NSManagedObject {
    nonisolated(unsafe) static var held: ObjectIdentifier?
    static let entered = DispatchSemaphore(value: 0)
    static let proceed = DispatchSemaphore(value: 0)

    deinit {
        guard Self.held == ObjectIdentifier(self) else { return }
        Self.entered.signal()
        _ = Self.proceed.wait(timeout: .now() + 10)
    }
}

/// A row whose object is being freed on another thread, still listed in its fetch until its
/// `deinit` finishes, is fetched again on the context's queue meanwhile: the new object the fetch
/// makes is the row's only object, which lookups by ID find (Core Data's uniquing: one object per
/// row in a context). The freeing thread is held inside the `deinit`, so the window is certain.
@Suite(.serialized) struct FreedObjectReplacedTests {
    final class Handoff: @unchecked Sendable {
        var object: NSManagedObject?
        init(_ object: NSManagedObject) { self.object = object }
    }

    @Test(arguments: [0, 16])
    func aRowFetchedAgainWhileItsObjectIsFreedElsewhereHasOneObject(batchSize: Int) throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(model: RegistryRaceTests.model(itemClass: HeldFreedItem.self), url: folder.store)
        // More rows than a fetch without a batch size enters in the table, so both forms list
        // the row by position in their fetch.
        let rows = 100
        let target = 80
        try context.performAndWait { () throws in
            for number in 0..<rows { _ = EngineTestModel.insert("Item", into: context, ["number": Int64(number)]) }
            try context.save()
            context.reset()
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "number", ascending: true)]
        request.fetchBatchSize = batchSize
        let (handoff, id): (Handoff, NSManagedObjectID) = try context.performAndWait {
            let first = try context.fetch(request)
            let object = first[target]
            #expect(object.value(forKey: "number") as? Int64 == Int64(target))
            HeldFreedItem.held = ObjectIdentifier(object)
            return (Handoff(object), object.objectID)
        }
        defer { HeldFreedItem.held = nil }
        let freeing = Thread { handoff.object = nil }
        freeing.start()
        try #require(HeldFreedItem.entered.wait(timeout: .now() + 10) == .success, "the object's deinit did not start")
        try context.performAndWait { () throws in
            let again = try context.fetch(request)
            let replacement = again[target]
            #expect(replacement.value(forKey: "number") as? Int64 == Int64(target))
            #expect(context.object(with: id) === replacement)
            #expect(context.registeredObject(for: id) === replacement)
            #expect(try context.existingObject(with: id) === replacement)
            HeldFreedItem.proceed.signal()
            // The freed object's deinit leaves the replacement registered.
            while !freeing.isFinished { usleep(1000) }
            #expect(context.object(with: id) === replacement)
            #expect(context.registeredObject(for: id) === replacement)
        }
    }
}
#endif

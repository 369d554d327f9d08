#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `replacePersistentStore(at:…withPersistentStoreFrom:…)` and `migratePersistentStore(_:to:…)`:
/// stores copied through SQLite, write-ahead log included, never half-copied.
struct StoreFileTests {
    private let model = EngineTestModel.make()

    private func coordinator(_ url: URL) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        try EngineTestModel.stack(model: model, url: url)
    }

    private func insertTrips(_ names: [String], into context: NSManagedObjectContext) throws {
        try context.performAndWait {
            for name in names { _ = EngineTestModel.insert("Trip", into: context, ["name": name]) }
            try context.save()
        }
    }

    private func tripNames(at url: URL) throws -> [String] {
        let (_, context) = try coordinator(url)
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
    }

    @Test func replacingCopiesTheSourceWithItsWriteAheadLogIntoANewStore() throws {
        let folder = EngineTestModel.Folder()
        let source = folder.url.appendingPathComponent("Source.sqlite")
        let copy = folder.url.appendingPathComponent("Copy.sqlite")
        // The source stays open, so its last saves are still in its write-ahead log.
        let (sourceCoordinator, context) = try coordinator(source)
        try insertTrips(["A", "B", "C"], into: context)
        try sourceCoordinator.replacePersistentStore(
            at: copy, destinationOptions: nil, withPersistentStoreFrom: source, sourceOptions: nil, ofType: NSSQLiteStoreType)
        #expect(try tripNames(at: copy) == ["A", "B", "C"])
        let sourceMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: source)
        let copyMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: copy)
        #expect(copyMetadata[NSStoreUUIDKey] as? String == sourceMetadata[NSStoreUUIDKey] as? String)
        // The source is untouched and still in use.
        try insertTrips(["D"], into: context)
        #expect(try tripNames(at: source) == ["A", "B", "C", "D"])
    }

    @Test func replacingAnExistingStoreReplacesAllOfIt() throws {
        let folder = EngineTestModel.Folder()
        let source = folder.url.appendingPathComponent("Source.sqlite")
        let destination = folder.url.appendingPathComponent("Destination.sqlite")
        let (_, sourceContext) = try coordinator(source)
        try insertTrips(["New"], into: sourceContext)
        do {
            let (destinationCoordinator, destinationContext) = try coordinator(destination)
            try insertTrips(["Old 1", "Old 2"], into: destinationContext)
            // Restoring: the destination leaves its coordinator first.
            for store in destinationCoordinator.persistentStores { try destinationCoordinator.remove(store) }
            try destinationCoordinator.replacePersistentStore(
                at: destination, withPersistentStoreFrom: source, type: .sqlite)
        }
        #expect(try tripNames(at: destination) == ["New"])
    }

    @Test func aStoreInUseOrASourceThatIsNoStoreIsRefusedAndNothingChanges() throws {
        let folder = EngineTestModel.Folder()
        let source = folder.url.appendingPathComponent("Source.sqlite")
        let destination = folder.url.appendingPathComponent("Destination.sqlite")
        let (_, sourceContext) = try coordinator(source)
        try insertTrips(["S"], into: sourceContext)
        let (destinationCoordinator, destinationContext) = try coordinator(destination)
        try insertTrips(["D"], into: destinationContext)
        #expect {
            try destinationCoordinator.replacePersistentStore(
                at: destination, withPersistentStoreFrom: source, ofType: NSSQLiteStoreType)
        } throws: { ($0 as NSError).code == NSPersistentStoreOperationError }
        let notAStore = folder.url.appendingPathComponent("Notes.txt")
        try Data("not a store".utf8).write(to: notAStore)
        let other = folder.url.appendingPathComponent("Other.sqlite")
        let (otherCoordinator, otherContext) = try coordinator(other)
        try insertTrips(["O"], into: otherContext)
        for store in otherCoordinator.persistentStores { try otherCoordinator.remove(store) }
        #expect(throws: (any Error).self) {
            try otherCoordinator.replacePersistentStore(at: other, withPersistentStoreFrom: notAStore, ofType: NSSQLiteStoreType)
        }
        #expect(throws: (any Error).self) {
            try otherCoordinator.replacePersistentStore(at: other, withPersistentStoreFrom: source, ofType: NSInMemoryStoreType)
        }
        #expect(try tripNames(at: destination) == ["D"])
        #expect(try tripNames(at: other) == ["O"])
    }

    @Test func migratingMovesTheStoreAndTheCoordinatorGoesOnWithTheCopy() throws {
        let folder = EngineTestModel.Folder()
        let original = folder.url.appendingPathComponent("Original.sqlite")
        let moved = folder.url.appendingPathComponent("Moved/Trips.sqlite")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (coordinator, context) = try coordinator(original)
        try insertTrips(["A", "B"], into: context)
        let store = try #require(coordinator.persistentStores.first)
        let identifier = store.identifier
        let newStore = try coordinator.migratePersistentStore(store, to: moved, options: nil, withType: NSSQLiteStoreType)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === newStore)
        #expect(newStore.url?.standardizedFileURL == moved.standardizedFileURL)
        #expect(newStore.identifier == identifier)
        let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        fresh.persistentStoreCoordinator = coordinator
        try insertTrips(["C"], into: fresh)
        #expect(try tripNames(at: moved) == ["A", "B", "C"])
        #expect(try tripNames(at: original) == ["A", "B"])
    }

    @Test func anInMemoryStoreCanBeMovedToAFile() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(model: model)
        try insertTrips(["Memory"], into: context)
        let store = try #require(coordinator.persistentStores.first)
        let file = folder.url.appendingPathComponent("FromMemory.sqlite")
        try coordinator.migratePersistentStore(store, to: file, withType: NSSQLiteStoreType)
        #expect(try tripNames(at: file) == ["Memory"])
        #expect(throws: (any Error).self) {
            try coordinator.migratePersistentStore(coordinator.persistentStores[0], to: file, withType: NSInMemoryStoreType)
        }
    }
}
#endif

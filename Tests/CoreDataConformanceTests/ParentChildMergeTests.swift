import Foundation
import Testing

/// A private child of a main-queue parent that merges its parent's saves
/// (`automaticallyMergesChangesFromParent`). Evidence: Apple's documentation of
/// `automaticallyMergesChangesFromParent` (the context merges changes saved to its parent) and
/// of `performAndWait(_:)` (runs the block on the context's queue, reentrantly).
struct ParentChildMergeTests {
    static func model() -> NSManagedObjectModel {
        ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
    }

    /// The child merges the save on its queue, reading the parent, while the main queue waits
    /// for the child: neither waits for the other forever.
    @MainActor @Test func aChildReadsWhatItsMainQueueParentSaved() throws {
        let folder = TemporaryFolder()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.url.appendingPathComponent("Notes.sqlite"), options: nil)
        let parent = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        parent.persistentStoreCoordinator = coordinator
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: parent)
        note.setValue("first", forKey: "text")
        try parent.save()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = true
        let id = note.objectID
        var read: [String?] = []
        child.performAndWait { read.append(child.object(with: id).value(forKey: "text") as? String) }
        try parent.performAndWait { () throws in
            note.setValue("second", forKey: "text")
            try parent.save()
            // The child's merge starts meanwhile and needs the parent, whose queue this holds.
            Thread.sleep(forTimeInterval: 0.05)
        }
        child.performAndWait { read.append(child.object(with: id).value(forKey: "text") as? String) }
        #expect(read == ["first", "second"])
    }
}

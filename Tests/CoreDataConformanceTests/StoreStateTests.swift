import Foundation
import Testing

/// Store metadata and several stores of one coordinator. Evidence: Apple's documentation of
/// `NSPersistentStore.metadata` (metadata set on a store is saved with the store's next save) and
/// of configurations (each store holds the entities of its configuration; a batch insert goes to
/// the store that holds its entity).
struct StoreStateTests {
    static func model() -> NSManagedObjectModel {
        let note = ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])
        let tag = ModelBuilder.entity("Tag", [ModelBuilder.attribute("name", .stringAttributeType)])
        let model = ModelBuilder.model([note, tag])
        model.setEntities([note], forConfigurationName: "Notes")
        model.setEntities([tag], forConfigurationName: "Tags")
        return model
    }

    @Test func metadataSetOnAStoreIsSavedWithTheNextSave() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Notes.sqlite")
        let model = Self.model()
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            var metadata = try #require(store.metadata)
            metadata["AppVersion"] = "2.1"
            store.metadata = metadata
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait { () throws in
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("a", forKey: "text")
                try context.save()
            }
            try coordinator.remove(store)
        }
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(read["AppVersion"] as? String == "2.1")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        #expect(store.metadata["AppVersion"] as? String == "2.1")
    }

    @Test func aBatchInsertGoesToTheStoreOfItsEntitysConfiguration() throws {
        let folder = TemporaryFolder()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let notes = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: "Notes", at: folder.url.appendingPathComponent("Notes.sqlite"), options: nil)
        let tags = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: "Tags", at: folder.url.appendingPathComponent("Tags.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait { () throws in
            let insertTags = NSBatchInsertRequest(entityName: "Tag", objects: [["name": "a"], ["name": "b"]])
            insertTags.resultType = .objectIDs
            let tagIDs = try #require((try context.execute(insertTags) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            #expect(tagIDs.count == 2)
            #expect(tagIDs.allSatisfy { $0.persistentStore === tags })
            let insertNotes = NSBatchInsertRequest(entityName: "Note", objects: [["text": "n"]])
            insertNotes.resultType = .objectIDs
            let noteIDs = try #require((try context.execute(insertNotes) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            #expect(noteIDs.map { $0.persistentStore === notes } == [true])
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 2)
            // Limited to both stores, the request still finds the one holding its entity.
            let limited = NSBatchInsertRequest(entityName: "Tag", objects: [["name": "c"]])
            limited.affectedStores = [notes, tags]
            _ = try context.execute(limited)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 3)
        }
    }
}

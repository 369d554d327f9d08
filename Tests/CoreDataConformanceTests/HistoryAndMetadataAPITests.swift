import Foundation
import Testing

/// History requests filtered by a fetch request set on them, the entities of history's records,
/// and a store's metadata written without adding the store. Evidence: the iOS 17.4 SDK's
/// `NSPersistentHistoryChangeRequest.h` (a settable `fetchRequest`), `NSPersistentHistoryTransaction.h`
/// and `NSPersistentHistoryChange.h` (`+entityDescriptionWithContext:`, `+fetchRequest`),
/// `NSPersistentStoreCoordinator.h` (`+setMetadata:forPersistentStoreOfType:URL:options:error:`),
/// and Apple's sample "Consuming relevant store changes", which sets a transaction fetch request
/// with a predicate on a request made by `fetchHistory(after:)`.
struct HistoryAndMetadataAPITests {
    static func model() -> NSManagedObjectModel {
        ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
    }

    /// A coordinator with one history-tracking SQLite store in `folder`.
    static func trackingStack(in folder: TemporaryFolder) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.url.appendingPathComponent("H.sqlite"),
            options: [NSPersistentHistoryTrackingKey: true as NSNumber])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    @Test func aFetchRequestSetOnATokenRequestFiltersItsTransactions() throws {
        let folder = TemporaryFolder()
        let (_, context) = try Self.trackingStack(in: folder)
        try context.performAndWait { () throws in
            for author in ["app", "widget", "app"] {
                context.transactionAuthor = author
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(author, forKey: "text")
                try context.save()
            }
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            #expect(request.fetchRequest == nil)
            let filter = try #require(NSPersistentHistoryTransaction.fetchRequest)
            filter.predicate = NSPredicate(format: "%K != %@", "author", "app")
            request.fetchRequest = filter
            #expect(request.fetchRequest === filter)
            let result = try #require(try context.execute(request) as? NSPersistentHistoryResult)
            let transactions = try #require(result.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.map(\.author) == ["widget"])
        }
    }

    @Test func historyEntitiesNameTheirRecordsAndFilterChanges() throws {
        let folder = TemporaryFolder()
        let (_, context) = try Self.trackingStack(in: folder)
        try context.performAndWait { () throws in
            let transactionEntity = try #require(NSPersistentHistoryTransaction.entityDescription(with: context))
            #expect(transactionEntity.attributesByName["author"] != nil)
            #expect(transactionEntity.attributesByName["timestamp"] != nil)
            let changeEntity = try #require(NSPersistentHistoryChange.entityDescription(with: context))
            #expect(changeEntity.attributesByName["changeType"] != nil)
            #expect(transactionEntity.name != changeEntity.name)

            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            try context.save()
            context.delete(note)
            try context.save()
            // A fetch request over changes made with the entity, as Core Data code builds one.
            let changes = NSFetchRequest<NSFetchRequestResult>()
            changes.entity = changeEntity
            changes.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.delete.rawValue)
            let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: changes)
            request.resultType = .changesOnly
            let result = try #require(try context.execute(request) as? NSPersistentHistoryResult)
            let found = try #require(result.result as? [NSPersistentHistoryChange])
            #expect(found.map(\.changeType) == [.delete])
        }
    }

    @Test func metadataWrittenWithoutAddingTheStoreReadsBackAndKeepsTheStoreUsable() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("M.sqlite")
        do {
            let (coordinator, context) = try makeStack(Self.model(), in: folder, name: "M.sqlite")
            try context.performAndWait { () throws in
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("kept", forKey: "text")
                try context.save()
            }
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let uuid = try #require(metadata[NSStoreUUIDKey] as? String)
        metadata["AppSyncCursor"] = "42"
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
        let reread = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(reread["AppSyncCursor"] as? String == "42")
        #expect(reread[NSStoreUUIDKey] as? String == uuid)
        #expect(reread[NSStoreModelVersionHashesKey] != nil)
        // The store still opens with its model and holds its rows.
        let (_, context) = try makeStack(Self.model(), in: folder, name: "M.sqlite")
        try context.performAndWait { () throws in
            let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
            #expect(notes.map { $0.value(forKey: "text") as? String } == ["kept"])
        }
    }

    @Test func writingMetadataOfAFileThatIsNotAStoreFailsAndLeavesItUnchanged() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("notes.txt")
        let bytes = Data("not a store, just text\n".utf8)
        try bytes.write(to: url)
        #expect(throws: (any Error).self) {
            try NSPersistentStoreCoordinator.setMetadata(["A": "B"], forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
        }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(throws: (any Error).self) {
            try NSPersistentStoreCoordinator.setMetadata(
                ["A": "B"], forPersistentStoreOfType: NSSQLiteStoreType, at: folder.url.appendingPathComponent("missing.sqlite"),
                options: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("missing.sqlite").path))
    }
}

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// Batch inserts, updates and deletes on a tracked store record one history transaction each,
/// which other contexts (and their fetched-results controllers) merge like a save's.
struct BatchHistoryTests {
    static func transactions(_ context: NSManagedObjectContext, after token: NSPersistentHistoryToken? = nil) throws
        -> [NSPersistentHistoryTransaction]
    {
        let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))
        return try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
    }

    /// Three saved trips (a: 1 leg, b: 2, c: 3), "a" with a stop and a tag; the context named
    /// "batch" with author "importer".
    static func seeded(_ folder: EngineTestModel.Folder, options: [AnyHashable: Any] = HistoryTestSupport.trackingOptions) throws -> (
        NSPersistentStoreCoordinator, NSManagedObjectContext
    ) {
        let (coordinator, context) = try HistoryTestSupport.stack(
            model: HistoryTestSupport.model(), url: folder.store, options: options, name: "batch")
        try context.performAndWait {
            for (name, legs) in [("a", 1), ("b", 2), ("c", 3)] {
                _ = EngineTestModel.insert("Trip", into: context, ["name": name, "legs": legs, "code": UUID()])
            }
            try context.save()
            let a = try #require(
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first { $0.value(forKey: "name") as? String == "a" })
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "Chur"])
            stop.setValue(a, forKey: "trip")
            let tag = EngineTestModel.insert("Tag", into: context, ["name": "snow"])
            tag.setValue(Set([a]), forKey: "trips")
            try context.save()
            context.transactionAuthor = "importer"
        }
        return (coordinator, context)
    }

    @Test func batchInsertRecordsOneTransactionWithAnInsertPerNewRowAndAnUpdatePerUpsert() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.seeded(folder)
        try context.performAndWait {
            let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
            let insert = NSBatchInsertRequest(entityName: "Trip", objects: [["name": "x"], ["name": "y"], ["name": "z"]])
            insert.resultType = .objectIDs
            let ids = try #require((try context.execute(insert) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            let inserted = try Self.transactions(context, after: token)
            #expect(inserted.count == 1)
            #expect(inserted.first?.author == "importer" && inserted.first?.contextName == "batch")
            #expect(inserted.first?.changes?.map(\.changeType) == [.insert, .insert, .insert])
            #expect(inserted.first?.changes?.map(\.changedObjectID) == ids)
            #expect(inserted.first?.changes?.allSatisfy { $0.updatedProperties == nil } == true)
            // Tag names are unique: "snow" updates the stored tag, "rain" is new.
            let upsert = NSBatchInsertRequest(entityName: "Tag", objects: [["name": "snow", "uses": 5], ["name": "rain"]])
            try context.execute(upsert)
            let upserted = try #require(try Self.transactions(context, after: inserted.last?.token).first)
            #expect(upserted.changes?.map(\.changeType) == [.insert, .update])
            let update = try #require(upserted.changes?.last)
            #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["name", "uses"])
            // A batch that writes no row records no transaction.
            try context.execute(NSBatchInsertRequest(entityName: "Trip", objects: []))
            #expect(try Self.transactions(context, after: upserted.token).isEmpty)
        }
        let keys = try HistoryTestSupport.rows(folder.store, "SELECT Z_PK FROM ACHANGE ORDER BY Z_PK").map { $0[0].integerValue ?? 0 }
        #expect(keys == Array(1...Int64(keys.count)))
        let max = try HistoryTestSupport.rows(folder.store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001")
        #expect(max.first?.first?.integerValue == Int64(keys.count))
    }

    @Test func batchUpdateRecordsTheUpdatedPropertiesOfEachSelectedRow() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.seeded(folder)
        try context.performAndWait {
            let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
            let update = NSBatchUpdateRequest(entityName: "Trip")
            update.predicate = NSPredicate(format: "legs >= 2")
            // The predicate's own attribute changes: the rows are recorded before the update.
            update.propertiesToUpdate = [
                "note": "late",
                "legs": NSExpression(
                    forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "legs"), NSExpression(forConstantValue: 10)]),
            ]
            update.resultType = .updatedObjectIDsResultType
            let ids = try #require((try context.execute(update) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
            let recorded = try Self.transactions(context, after: token)
            #expect(recorded.count == 1)
            let changes = try #require(recorded.first?.changes)
            #expect(changes.map(\.changeType) == [.update, .update])
            #expect(Set(changes.map(\.changedObjectID)) == Set(ids))
            #expect(changes.allSatisfy { $0.updatedProperties?.map(\.name).sorted() == ["legs", "note"] })
            #expect(recorded.first?.author == "importer")
            // No row selected: no transaction.
            update.predicate = NSPredicate(format: "legs > 1000")
            try context.execute(update)
            #expect(try Self.transactions(context, after: recorded.first?.token).isEmpty)
        }
    }

    @Test func batchDeleteRecordsDeletesWithTombstonesAndUpdatesOfNullifiedDestinations() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try Self.seeded(folder)
        try context.performAndWait {
            let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
            let a = try #require(
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first { $0.value(forKey: "name") as? String == "a" })
            let code = a.value(forKey: "code") as? UUID
            let delete = NSBatchDeleteRequest(objectIDs: [a.objectID])
            try context.execute(delete)
            let recorded = try Self.transactions(context, after: token)
            #expect(recorded.count == 1)
            let changes = try #require(recorded.first?.changes)
            // The tag loses a trip (nullify); the trip and its stop (cascade) are deleted. Updates
            // come first, then deletes, each by entity number (Stop before Trip).
            #expect(changes.map(\.changeType) == [.update, .delete, .delete])
            #expect(changes.map { $0.changedObjectID.entity.name ?? "" } == ["Tag", "Stop", "Trip"])
            #expect(changes[0].updatedProperties?.map(\.name) == ["trips"])
            #expect(changes[1].tombstone == nil || changes[1].tombstone?.isEmpty == true)
            #expect(changes[2].tombstone?["name"] as? String == "a")
            #expect(changes[2].tombstone?["code"] as? UUID == code)
            #expect(changes[2].changedObjectID == a.objectID)
        }
    }

    @Test func untrackedStoreRecordsNoBatchHistory() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try Self.seeded(folder, options: [:])
        try context.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Trip")
            update.propertiesToUpdate = ["note": "x"]
            try context.execute(update)
            try context.execute(NSBatchInsertRequest(entityName: "Trip", objects: [["name": "x"]]))
        }
        #expect(try HistoryTestSupport.rows(folder.store, "SELECT name FROM sqlite_master WHERE name = 'ACHANGE'").isEmpty)
    }

    @Test func batchChangesMergedFromHistoryUpdateALiveContextAndItsController() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, batch) = try Self.seeded(folder)
        let view = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        view.persistentStoreCoordinator = coordinator
        try view.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = FetchedResultsRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
            let names = Dictionary(
                uniqueKeysWithValues: (controller.fetchedObjects ?? []).map { ($0.objectID, $0.value(forKey: "name") as? String ?? "?") })
            try batch.performAndWait {
                let update = NSBatchUpdateRequest(entityName: "Trip")
                update.predicate = NSPredicate(format: "name == 'b'")
                update.propertiesToUpdate = ["note": "merged"]
                try batch.execute(update)
                let selected = NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")
                selected.predicate = NSPredicate(format: "name == 'c'")
                try batch.execute(NSBatchDeleteRequest(fetchRequest: selected))
                try batch.execute(NSBatchInsertRequest(entityName: "Trip", objects: [["name": "d"]]))
            }
            let history = try Self.transactions(view, after: token)
            #expect(history.count == 3)
            for transaction in history { view.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(FetchedResultsControllerTests.names(controller.fetchedObjects) == ["a", "b", "d"])
            let b = try #require(controller.fetchedObjects?.first { $0.value(forKey: "name") as? String == "b" })
            #expect(b.value(forKey: "note") as? String == "merged")
            let reported = recorder.objectChanges.map {
                "\($0.type) \(names[$0.object.objectID] ?? $0.object.value(forKey: "name") as? String ?? "?")"
            }
            #expect(reported.contains("update b") && reported.contains("delete c") && reported.contains("insert d"))
        }
    }
}
#endif

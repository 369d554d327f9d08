#if !canImport(CoreData)
import ModelRuntime
import Testing

/// `NSSQLitePragmasOption` is run on the store's connection when the store is added.
struct StorePragmaTests {
    @Test func aStoreWithoutPragmasUsesWALWithNormalSynchronous() throws {
        let folder = EngineTestModel.Folder()
        let container = try PersistentContainerTests.loaded(NSPersistentStoreDescription(url: folder.store))
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.sqlitePragma("journal_mode") == "wal")
        #expect(store.sqlitePragma("synchronous") == "1")
    }

    @Test func pragmasOfTheDescriptionAreAppliedAndReadBack() throws {
        let folder = EngineTestModel.Folder()
        let description = NSPersistentStoreDescription(url: folder.store)
        description.setValue("FULL" as NSString, forPragmaNamed: "synchronous")
        description.setValue("DELETE" as NSString, forPragmaNamed: "journal_mode")
        description.setValue(NSNumber(value: 2000), forPragmaNamed: "cache_size")
        #expect(description.sqlitePragmas.count == 3)
        #expect(description.sqlitePragmas["synchronous"] as? String == "FULL")
        let container = try PersistentContainerTests.loaded(description)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.sqlitePragma("synchronous") == "2")
        #expect(store.sqlitePragma("journal_mode") == "delete")
        #expect(store.sqlitePragma("cache_size") == "2000")
        // The store works in rollback-journal mode too.
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "durable"])
            try context.save()
        }
        #expect(!FileManager.default.fileExists(atPath: folder.store.path + "-wal"))
        description.setValue(nil, forPragmaNamed: "cache_size")
        #expect(description.sqlitePragmas.count == 2)
    }

    @Test func theCoordinatorAppliesPragmasPassedAsOptions() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        let store = try coordinator.addPersistentStore(
            ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: [NSSQLitePragmasOption: ["synchronous": "OFF"]])
        #expect(store.sqlitePragma("synchronous") == "0")
    }

    @Test(arguments: ["a statement in the name", "an empty name", "a date as value", "no dictionary"])
    func aMalformedPragmaIsAnErrorAndAddsNoStore(problem: String) throws {
        let pragmas: Any =
            switch problem {
            case "a statement in the name": ["synchronous; DROP TABLE Z_METADATA": "FULL"]
            case "an empty name": ["": "FULL"]
            case "a date as value": ["synchronous": Date()] as [String: Any]
            default: "synchronous=FULL"
            }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(
                ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: [NSSQLitePragmasOption: pragmas])
        }
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func aValueIsQuotedSoItCannotAddAStatement() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        let store = try coordinator.addPersistentStore(
            ofType: NSInMemoryStoreType, configurationName: nil, at: nil,
            options: [NSSQLitePragmasOption: ["user_version": "7; DROP TABLE Z_METADATA"]])
        // SQLite reads the quoted text's leading number; the rest is never run.
        #expect(store.sqlitePragma("user_version") == "7")
        #expect(!store.metadata.isEmpty)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "still works"])
            try context.save()
        }
    }
}
#endif

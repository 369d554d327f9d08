#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// `addPersistentStore` migrates a store written by an earlier version when the options ask for
/// it (lightweight, through every version in turn; or through an `NSStagedMigrationManager`'s
/// stages with their handlers), and otherwise fails with Core Data's error codes leaving the
/// store's files as they were.
struct MigrationOnLoadTests {
    static let coredata = FixtureStoreTests.coredata
    static var migrate: [AnyHashable: Any] {
        [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
    }

    static func bytes(_ url: URL) -> [Data?] { ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: url.path + $0) } }

    static func count(_ entity: String, in context: NSManagedObjectContext) throws -> Int {
        try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).count
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Writes `<Name>.momd` for a model modelgen loads (all its versions) into `folder`.
    static func compile(_ modelPath: String, into folder: URL) throws -> URL {
        let model = try #require(Pipeline.load(coredata.appendingPathComponent(modelPath).path).model)
        for file in CompiledModel.files(for: model) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return folder.appendingPathComponent("\(model.name).momd")
    }

    /// Apple's compiled SampleModel: a V1 store (with an un-checkpointed `-wal`) opened with
    /// version 3 of Xcode's `.momd` migrates through version 2, keeping all rows.
    @Test func aStoreOfAnEarlierVersionMigratesThroughTheMomdsVersions() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel_V1.sqlite"), into: folder.url)
        let model = try #require(
            NSManagedObjectModel(
                contentsOf: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel3.mom")))
        let uuid =
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)[NSStoreUUIDKey] as? String
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let added = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: Self.migrate)
        #expect(added.metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(added.metadata[NSStoreModelVersionIdentifiersKey] as? [String] == ["3"])
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: added.metadata))
        let context = Self.context(coordinator)
        try context.performAndWait {
            #expect(try Self.count("Car", in: context) == 125)
            #expect(try Self.count("LuxuryCar", in: context) == 5)
            #expect(try Self.count("Person", in: context) == 20)
            let owned = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")).filter { $0.value(forKey: "owner") != nil }
            #expect(!owned.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))
    }

    /// A store description migrates by default (`shouldMigrateStoreAutomatically` and
    /// `shouldInferMappingModelAutomatically` are true), and not when they are turned off.
    @Test func aStoreDescriptionsMigrationFlagsAreHonoured() throws {
        let folder = EngineTestModel.Folder()
        let model = try #require(
            NSManagedObjectModel(
                contentsOf: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel3.mom")))
        for migrates in [false, true] {
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("\(migrates)"), withIntermediateDirectories: true)
            let store = try FixtureStoreTests.copy(
                Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel_V2.sqlite"),
                into: folder.url.appendingPathComponent("\(migrates)"))
            let description = NSPersistentStoreDescription(url: store)
            description.shouldMigrateStoreAutomatically = migrates
            var failure: (any Error)?
            NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(with: description) { failure = $1 }
            #expect((failure as NSError?)?.code == (migrates ? nil : NSPersistentStoreIncompatibleVersionHashError))
        }
    }

    /// The same app code as on Apple platforms: a container whose description points at an
    /// earlier version's store migrates it in `loadPersistentStores`.
    @Test func aContainerMigratesItsStoreWhenLoading() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite"), into: folder.url)
        let model = try #require(
            NSManagedObjectModel(
                contentsOf: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd/SampleModel3_v3.mom")))
        let container = NSPersistentContainer(name: "SampleModel3", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: store)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let context = container.newBackgroundContext()
        let users = try context.performAndWait { try Self.count("User", in: context) }
        #expect(users > 0)
    }

    /// A model loaded from a lone `.mom` has no sibling versions: the source model is the one the
    /// store recorded in `Z_MODELCACHE`.
    @Test func theStoresModelCacheIsTheSourceModelWhenNoVersionIsBundled() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel_V1.sqlite"), into: folder.url)
        let lone = folder.url.appendingPathComponent("SampleModel3.mom")
        try FileManager.default.copyItem(
            at: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel3.mom"), to: lone)
        let model = try #require(NSManagedObjectModel(contentsOf: lone))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: Self.migrate)
        let context = Self.context(coordinator)
        let cars = try context.performAndWait { try Self.count("Car", in: context) }
        #expect(cars == 125)
    }

    @Test func withoutTheOptionsTheStoreIsIncompatibleAndUntouched() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel_V1.sqlite"), into: folder.url)
        let model = try #require(
            NSManagedObjectModel(
                contentsOf: Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel3.mom")))
        let before = Self.bytes(store)
        for (options, code) in [
            (nil, NSPersistentStoreIncompatibleVersionHashError),
            ([NSMigratePersistentStoresAutomaticallyOption: true] as [AnyHashable: Any], NSMigrationMissingMappingModelError),
        ] {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let error = try #require(throws: NSError.self) {
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: options)
            }
            #expect(error.code == code)
            #expect(Self.bytes(store) == before)
        }
    }

    /// wibosco's step 2 → 3 cannot be inferred (a new required relationship): lightweight
    /// migration fails with `NSInferredMappingModelError` and leaves the store as it was; a store
    /// whose model is nowhere fails with `NSMigrationMissingSourceModelError`.
    @Test func anUninferableStepOrAMissingSourceModelFailsWithCoreDatasCodes() throws {
        let folder = EngineTestModel.Folder()
        let momd = try Self.compile("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", into: folder.url)
        let model = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("CoreDataMigration_Example 4.mom")))
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite"), into: folder.url)
        let before = Self.bytes(store)
        let error = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: Self.migrate)
        }
        #expect(error.code == NSInferredMappingModelError)
        #expect(Self.bytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))

        let orphan = folder.url.appendingPathComponent("orphan.sqlite")
        let other = ModelVersion(
            name: "Other", entities: [Entity(name: "Thing", attributes: [Attribute(name: "n", type: .integer64, isOptional: true)])])
        try StoreSchema.create(at: orphan.path, version: other).execute("DELETE FROM Z_MODELCACHE")
        let missing = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: orphan, options: Self.migrate)
        }
        #expect(missing.code == NSMigrationMissingSourceModelError)
    }

    /// The staged migration wibosco needs: lightweight 1 → 2, a custom stage 2 → 3 whose
    /// handlers carry each post's `hexColor` into a new `Color` object (read with the version 2
    /// model before the step, written with the version 3 model after it), lightweight 3 → 4.
    @Test func aStagedMigrationRunsItsCustomStagesHandlersWithContextsOnEachModel() throws {
        let folder = EngineTestModel.Folder()
        let momd = try Self.compile("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", into: folder.url)
        func model(_ name: String) throws -> NSManagedObjectModel {
            try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("\(name).mom")))
        }
        let (v1, v2, v3, v4) = (
            try model("CoreDataMigration_Example"), try model("CoreDataMigration_Example 2"), try model("CoreDataMigration_Example 3"),
            try model("CoreDataMigration_Example 4")
        )
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite"), into: folder.url)
        let original = try StoreConnection(path: store.path, mode: .readOnly).rows("SELECT ZPOSTID, ZHEXCOLOR FROM ZPOST")
        let expected = Dictionary(uniqueKeysWithValues: original.map { ($0[0].textValue ?? "", $0[1].textValue ?? "") })

        let custom = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        var colors: [String: String] = [:]
        var calls: [String] = []
        custom.willMigrateHandler = { manager, _ in
            calls.append("will")
            let context = try #require(manager.migrationContext)
            try context.performAndWait {
                for post in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")) {
                    colors[post.value(forKey: "postID") as? String ?? ""] = post.value(forKey: "hexColor") as? String
                }
            }
        }
        custom.didMigrateHandler = { manager, _ in
            calls.append("did")
            // As on Apple platforms: the manager's container has the stage's next model.
            let container = try #require(manager.container)
            #expect(container.managedObjectModel.versionChecksum == v3.versionChecksum)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for post in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")) {
                    let color = NSEntityDescription.insertNewObject(forEntityName: "Color", into: context)
                    color.setValue(colors[post.value(forKey: "postID") as? String ?? ""], forKey: "hex")
                    post.setValue(color, forKey: "color")
                }
                try context.save()
            }
        }
        let manager = NSStagedMigrationManager([
            NSLightweightMigrationStage([v1.versionChecksum, v2.versionChecksum]), custom,
            NSLightweightMigrationStage([v3.versionChecksum, v4.versionChecksum]),
        ])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v4)
        var options = Self.migrate
        options[NSPersistentStoreStagedMigrationManagerOptionKey] = manager
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: options)
        #expect(calls == ["will", "did"])
        #expect(manager.migrationContext == nil && manager.container == nil)
        let context = Self.context(coordinator)
        try context.performAndWait {
            let posts = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post"))
            #expect(posts.count == expected.count)
            for post in posts {
                let color = post.value(forKey: "color") as? NSManagedObject
                #expect(color?.value(forKey: "hex") as? String == expected[post.value(forKey: "postID") as? String ?? ""])
                #expect(post.value(forKey: "hide") as? Bool == false)
            }
        }
    }

    /// A lightweight stage names its versions by checksum only: they are found among the
    /// versions of the `.momd` the model was loaded from. Model references resolve from a
    /// `.mom` file, from a bundle's `.momd` by name and by entity hashes.
    @Test func lightweightStagesFindTheirVersionsAndReferencesResolve() throws {
        let folder = EngineTestModel.Folder()
        let momd = try Self.compile("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", into: folder.url)
        let names = [
            "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3", "CoreDataMigration_Example 4",
        ]
        let models = try names.map { try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("\($0).mom"))) }
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_3.sqlite"), into: folder.url)
        var options = Self.migrate
        options[NSPersistentStoreStagedMigrationManagerOptionKey] = NSStagedMigrationManager([
            NSLightweightMigrationStage(models.map(\.versionChecksum))
        ])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: models[3])
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: options)
        let context = Self.context(coordinator)
        let posts = try context.performAndWait { try Self.count("Post", in: context) }
        #expect(posts > 0)

        let checksum = models[2].versionChecksum
        let byFile = NSManagedObjectModelReference(fileURL: momd.appendingPathComponent("\(names[2]).mom"), versionChecksum: checksum)
        #expect(byFile.resolvedModel.versionChecksum == checksum)
        let bundle = try #require(Bundle(path: folder.url.path))
        let byName = NSManagedObjectModelReference(name: "CoreDataMigration_Example", in: bundle, versionChecksum: checksum)
        #expect(byName.resolvedModel.versionChecksum == checksum)
        let byHashes = NSManagedObjectModelReference(
            entityVersionHashes: models[2].entityVersionHashesByName, in: bundle, versionChecksum: checksum)
        #expect(byHashes.resolvedModel.versionChecksum == checksum)
        #expect(byHashes.resolvedModel.entitiesByName.keys.sorted() == ["Color", "Post"])
    }

    /// A handler that throws fails the load with its error and leaves the store untouched.
    @Test func aThrowingHandlerLeavesTheStoreUntouched() throws {
        let folder = EngineTestModel.Folder()
        let momd = try Self.compile("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", into: folder.url)
        let v3 = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("CoreDataMigration_Example 3.mom")))
        let v2 = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("CoreDataMigration_Example 2.mom")))
        let store = try FixtureStoreTests.copy(
            Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite"), into: folder.url)
        let before = Self.bytes(store)
        let custom = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.didMigrateHandler = { _, _ in throw NSError(domain: "MigrationOnLoadTests", code: 7) }
        var options = Self.migrate
        options[NSPersistentStoreStagedMigrationManagerOptionKey] = NSStagedMigrationManager([custom])
        let error = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator(managedObjectModel: v3).addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: options)
        }
        #expect(error.domain == "MigrationOnLoadTests" && error.code == 7)
        #expect(Self.bytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))
    }
}
#endif

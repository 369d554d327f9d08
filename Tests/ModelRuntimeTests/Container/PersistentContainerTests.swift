#if !canImport(CoreData)
import ModelRuntime
import Testing

/// `NSPersistentContainer`: descriptions, loading stores, the contexts it makes, and finding its
/// model.
struct PersistentContainerTests {
    /// A container whose only store is described by `description`, loaded; fails the test on a
    /// load error.
    static func loaded(_ description: NSPersistentStoreDescription, name: String = "Trips") throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: name, managedObjectModel: EngineTestModel.make())
        container.persistentStoreDescriptions = [description]
        var errors: [(any Error)?] = []
        container.loadPersistentStores { _, error in errors.append(error) }
        #expect(errors.count == 1)
        if let error = errors.first ?? nil { throw error }
        return container
    }

    static func tripCount(_ context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait { try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) }
    }

    @Test func theDefaultDescriptionIsOneSQLiteStoreNamedAfterTheContainerWithCoreDatasDefaults() throws {
        let container = NSPersistentContainer(name: "Trips", managedObjectModel: EngineTestModel.make())
        #expect(container.name == "Trips")
        let description = try #require(container.persistentStoreDescriptions.first)
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(description.type == NSSQLiteStoreType)
        #expect(description.url == NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("Trips.sqlite"))
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        #expect(!description.isReadOnly)
        #expect(container.persistentStoreCoordinator.managedObjectModel === container.managedObjectModel)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func theDefaultDirectoryIsTheXDGDataDirectoryWithAFolderForTheProgram() {
        let set = DefaultDirectory.url(environment: ["XDG_DATA_HOME": "/data/xdg", "HOME": "/home/u"], programName: "trips-demo")
        #expect(set.path == "/data/xdg/trips-demo")
        let unset = DefaultDirectory.url(environment: ["HOME": "/home/u"], programName: "trips-demo")
        #expect(unset.path == "/home/u/.local/share/trips-demo")
        // The specification ignores a relative XDG_DATA_HOME.
        let relative = DefaultDirectory.url(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"], programName: "tool")
        #expect(relative.path == "/home/u/.local/share/tool")
        #expect(NSPersistentContainer.defaultDirectoryURL() == DefaultDirectory.url())
    }

    @Test func aFileStoreIsCreatedInAFolderTheLoadCreatesAndKeepsItsObjects() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.url.appendingPathComponent("nested/deeper/Trips.sqlite")
        do {
            let container = try Self.loaded(NSPersistentStoreDescription(url: url))
            #expect(FileManager.default.fileExists(atPath: url.path))
            #expect(container.persistentStoreCoordinator.persistentStores.first?.url == url)
            let context = container.newBackgroundContext()
            #expect(context.concurrencyType == .privateQueueConcurrencyType)
            #expect(context.persistentStoreCoordinator === container.persistentStoreCoordinator)
            try context.performAndWait {
                _ = EngineTestModel.insert("Trip", into: context, ["name": "kept"])
                try context.save()
            }
        }
        let reopened = try Self.loaded(NSPersistentStoreDescription(url: url))
        #expect(try Self.tripCount(reopened.newBackgroundContext()) == 1)
    }

    @Test(arguments: [true, false])
    func inMemoryStoresAndTheDevNullURLKeepNothingOnDisk(useDevNull: Bool) throws {
        let description = NSPersistentStoreDescription()
        if useDevNull {
            description.url = URL(fileURLWithPath: "/dev/null")
        } else {
            description.type = NSInMemoryStoreType
        }
        let container = try Self.loaded(description)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.type == (useDevNull ? NSSQLiteStoreType : NSInMemoryStoreType))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "memory"])
            try context.save()
        }
        #expect(try Self.tripCount(container.newBackgroundContext()) == 1)
        // A second container's in-memory store is a new, empty one.
        #expect(try Self.tripCount(try Self.loaded(description).newBackgroundContext()) == 0)
    }

    @Test func loadingAgainAddsOnlyTheDescriptionsNotAddedYet() throws {
        let container = try Self.loaded(NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        var calls = 0
        container.loadPersistentStores { _, _ in calls += 1 }
        #expect(calls == 0)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        let second = NSPersistentStoreDescription()
        second.type = NSInMemoryStoreType
        container.persistentStoreDescriptions += [second]
        var loaded: [NSPersistentStoreDescription] = []
        container.loadPersistentStores { description, error in
            #expect(error == nil)
            loaded.append(description)
        }
        #expect(loaded.count == 1 && loaded.first === second)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 2)
    }

    @Test func aDescriptionAddedAsynchronouslyCallsItsHandlerLater() async throws {
        let container = NSPersistentContainer(name: "Trips", managedObjectModel: EngineTestModel.make())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        description.shouldAddStoreAsynchronously = true
        container.persistentStoreDescriptions = [description]
        let error: NSError? = await withCheckedContinuation { continuation in
            container.loadPersistentStores { _, error in continuation.resume(returning: error.map { $0 as NSError }) }
        }
        #expect(error == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    @Test func aStoreThatCannotBeOpenedIsReportedToTheHandlerAndTriedAgainByTheNextLoad() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.url.appendingPathComponent("not-a-store.sqlite")
        try Data("not SQLite".utf8).write(to: url)
        let container = NSPersistentContainer(name: "Trips", managedObjectModel: EngineTestModel.make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error.map { $0 as NSError } }
        let error = try #require(reported)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
        // A description that failed is tried again by the next call.
        try FileManager.default.removeItem(at: url)
        var calls = 0
        container.loadPersistentStores { _, error in
            calls += 1
            #expect(error == nil)
        }
        #expect(calls == 1)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    // MARK: Background work

    @Test func performBackgroundTaskRunsTheBlockWithANewPrivateContext() async throws {
        let container = try Self.loaded(NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        let saved: Bool = await withCheckedContinuation { continuation in
            container.performBackgroundTask { context in
                _ = EngineTestModel.insert("Trip", into: context, ["name": "closure"])
                continuation.resume(returning: (try? context.save()) != nil && context.concurrencyType == .privateQueueConcurrencyType)
            }
        }
        #expect(saved)
        let names = try await container.performBackgroundTask { context in
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["closure"])
        let label = await container.performBackgroundTask { _ in "no try needed" }
        #expect(label == "no try needed")
        await #expect(throws: NSError.self) {
            try await container.performBackgroundTask { context in
                _ = EngineTestModel.insert("Trip", into: context)  // no name: fails validation
                try context.save()
            }
        }
    }

    @MainActor
    @Test func theViewContextIsOnTheMainQueueAndMergesBackgroundSavesWhenAsked() async throws {
        let container = try Self.loaded(NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        let view = container.viewContext
        #expect(view === container.viewContext)
        #expect(view.concurrencyType == .mainQueueConcurrencyType)
        #expect(view.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(!view.automaticallyMergesChangesFromParent)
        #expect((view.mergePolicy as? NSMergePolicy) === (NSErrorMergePolicy as? NSMergePolicy))

        let background = container.newBackgroundContext()
        let tripID = try background.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: background, ["name": "before"])
            try background.save()
            return trip.objectID
        }
        view.automaticallyMergesChangesFromParent = true
        let shown = try view.existingObject(with: tripID)
        #expect(shown.value(forKey: "name") as? String == "before")
        try background.performAndWait {
            try background.existingObject(with: tripID).setValue("after", forKey: "name")
            _ = EngineTestModel.insert("Trip", into: background, ["name": "inserted"])
            try background.save()
        }
        // The merge was queued on the main queue when the background context saved: let it run.
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(shown.value(forKey: "name") as? String == "after")
        #expect(try view.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) == 2)
    }

    // MARK: Finding the model

    /// A copy of a momc-compiled fixture model under `name`.
    static func copyFixtureModel(named name: String, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ModelLoadingTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd"),
            to: folder.appendingPathComponent("\(name).momd"))
    }

    @Test func theModelIsFoundInASwiftPMResourceBundleBesideTheProgram() throws {
        let folder = EngineTestModel.Folder()
        try Self.copyFixtureModel(named: "Library", into: folder.url.appendingPathComponent("App_Library.resources"))
        try Self.copyFixtureModel(named: "Other", into: folder.url.appendingPathComponent("App_Other.resources"))
        let found = ContainerModelLookup.find(named: "Library", mainBundle: folder.url)
        #expect(found.url?.path == folder.url.appendingPathComponent("App_Library.resources/Library.momd").path)
        #expect(ContainerModelLookup.find(named: "Missing", mainBundle: folder.url).url == nil)
    }

    @Test func initWithNameLoadsTheModelFromTheProgramsResourceBundles() throws {
        // Laid out as SwiftPM lays out a target's resources beside the test bundle.
        let name = "ContainerTest\(UInt32.random(in: 0...UInt32.max))"
        let resources = Bundle.main.bundleURL.appendingPathComponent("modelgen-\(name)_Models.resources")
        defer { try? FileManager.default.removeItem(at: resources) }
        try Self.copyFixtureModel(named: name, into: resources)
        let container = NSPersistentContainer(name: name)
        let fixture = try #require(
            NSManagedObjectModel(
                contentsOf: ModelLoadingTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd")))
        #expect(!container.managedObjectModel.entities.isEmpty)
        #expect(container.managedObjectModel.entityVersionHashesByName == fixture.entityVersionHashesByName)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var reported: (any Error)?? = .none
        container.loadPersistentStores { _, error in reported = error }
        #expect(reported != nil && reported! == nil)
    }

    @Test func aMissingModelIsAnErrorNamingItWhenStoresAreLoaded() throws {
        let name = "NoSuchModel\(UInt32.random(in: 0...UInt32.max))"
        let container = NSPersistentContainer(name: name)
        #expect(container.managedObjectModel.entities.isEmpty)
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error.map { $0 as NSError } }
        let error = try #require(reported)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("Failed to load model named \(name)"))
        #expect(error.localizedDescription.contains("\(name).momd"))
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func containersAndCoordinatorsAreSendableAsInCoreData() async throws {
        let container = try Self.loaded(NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        // Both cross into a task: this compiles only because they are Sendable.
        let stores = await Task.detached { container.persistentStoreCoordinator.persistentStores.count }.value
        #expect(stores == 1)
        let coordinator = container.persistentStoreCoordinator
        let model = await Task.detached { coordinator.managedObjectModel.entities.count }.value
        #expect(model == 5)
    }
}
#endif

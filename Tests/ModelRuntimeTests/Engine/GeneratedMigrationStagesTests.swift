#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// The staged migration modelgen generates in `<Model>Model`, at work: the Itinerary model
/// (`GeneratedItinerary/`, a link to its golden folder in `ModelCompilerTests`) has four versions
/// and a custom step from version 2 to 3 that gives every place a required slug.
struct GeneratedMigrationStagesTests {
    static let modelPath = GeneratedClassesTests.root.appendingPathComponent("Tests/ModelCompilerTests/Golden/Models/Itinerary.modeld")

    /// A folder holding the compiled `Itinerary.momd`, opened as a bundle.
    static func bundle(in folder: URL) throws -> Bundle {
        let model = try #require(Pipeline.load(modelPath.path).model)
        for file in CompiledModel.files(for: model) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return try #require(Bundle(path: folder.path))
    }

    /// The app's side of the custom step, recording what it saw.
    final class SlugHandlers: ItineraryModel.MigrationHandlers {
        var calls: [String] = []
        var names: [String] = []

        func willMigrateItinerary2ToItinerary3(_ manager: NSStagedMigrationManager) throws {
            let container = try #require(manager.container)
            calls.append("will \(container.managedObjectModel.versionChecksum == ItineraryModel.Version.itinerary2.checksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                names = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Place")).compactMap {
                    $0.value(forKey: "name") as? String
                }
            }
        }

        func didMigrateItinerary2ToItinerary3(_ manager: NSStagedMigrationManager) throws {
            let container = try #require(manager.container)
            calls.append("did \(container.managedObjectModel.versionChecksum == ItineraryModel.Version.itinerary3.checksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for place in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Place")) {
                    let name = place.value(forKey: "name") as? String ?? ""
                    place.setValue(name.lowercased().replacingOccurrences(of: " ", with: "-"), forKey: "slug")
                }
                try context.save()
            }
        }
    }

    @Test func theStagesNameEveryVersionOnceAroundTheCustomStep() throws {
        let folder = EngineTestModel.Folder()
        let bundle = try Self.bundle(in: folder.url)
        let stages = ItineraryModel.migrationStages(in: bundle, handlers: SlugHandlers())
        try #require(stages.count == 3)
        let first = try #require(stages[0] as? NSLightweightMigrationStage)
        let custom = try #require(stages[1] as? NSCustomMigrationStage)
        let last = try #require(stages[2] as? NSLightweightMigrationStage)
        typealias Version = ItineraryModel.Version
        // No checksum in two stages (Core Data refuses duplicates): version 1 → 2 is the lightweight
        // migration from one stage to the next.
        #expect(first.versionChecksums == [Version.itinerary1.checksum])
        #expect(last.versionChecksums == [Version.itinerary4.checksum])
        #expect(custom.label == "Itinerary 2 → Itinerary 3")
        // The references resolve to the compiled versions in the bundle, with their checksums.
        #expect(custom.currentModel.resolvedModel.versionChecksum == Version.itinerary2.checksum)
        #expect(custom.nextModel.resolvedModel.versionChecksum == Version.itinerary3.checksum)
        #expect(custom.willMigrateHandler != nil && custom.didMigrateHandler != nil)
        // A model without custom steps: one lightweight stage through every version.
        let trips = TripsModel.migrationStages(in: bundle)
        #expect(trips.count == 1)
        #expect(
            (trips.first as? NSLightweightMigrationStage)?.versionChecksums == TripsModel.Version.allCases.map(\.checksum))
    }

    @Test func aFirstVersionStoreMigratesThroughTheGeneratedStagesCallingTheHandlers() throws {
        let folder = EngineTestModel.Folder()
        let bundle = try Self.bundle(in: folder.url)
        let store = folder.url.appendingPathComponent("Itinerary.sqlite")
        let momd = try #require(bundle.url(forResource: ItineraryModel.name, withExtension: "momd"))
        let first = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("Itinerary 1.mom")))
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: first)
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                for name in ["Lisbon", "Sintra Palace"] {
                    NSEntityDescription.insertNewObject(forEntityName: "Place", into: context).setValue(name, forKey: "name")
                }
                try context.save()
            }
        }

        let handlers = SlugHandlers()
        let model = try #require(ItineraryModel.managedObjectModel(in: bundle))
        let container = ItineraryModel.makeContainer(managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: store)
        ItineraryModel.enableStagedMigration(on: description, in: bundle, handlers: handlers)
        #expect(description.options[NSPersistentStoreStagedMigrationManagerOptionKey] is NSStagedMigrationManager)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }

        #expect(handlers.calls == ["will true", "did true"])
        #expect(handlers.names.sorted() == ["Lisbon", "Sintra Palace"])
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // The typed accessors resolve their slots for the current version's entity, although
            // the migration stages used older versions of `Place` in this process first.
            let places = try context.fetch(Place.fetchRequest())
            #expect(places.map(\.slug).sorted() == ["lisbon", "sintra-palace"])
            #expect(places.map(\.name).sorted() == ["Lisbon", "Sintra Palace"])
            #expect(places.allSatisfy { $0.rating == nil && $0.notes == nil })
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store, options: nil)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }
}
#endif

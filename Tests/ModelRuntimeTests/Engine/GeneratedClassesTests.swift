#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// The classes modelgen generates for the Trips sample at work over a SQLite store. They are
/// compiled from `GeneratedTrips/`, a link to the Trips golden folder of `ModelCompilerTests`
/// (`MODELGEN_UPDATE_GOLDEN=1 swift test` rewrites it), and checked here to be what the
/// generator writes today.
struct GeneratedClassesTests {
    static let root = Fixtures.packageRoot
    static let modelPath = Fixtures.tripsModel.path
    static let generatedFolder = root.appendingPathComponent("Tests/ModelRuntimeTests/GeneratedTrips")

    static func model() throws -> NSManagedObjectModel {
        let model = try #require(Pipeline.load(modelPath).model)
        let version = try #require(model.currentVersion)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Trips.mom")
        try Data(CompiledModel.mom(for: version)).write(to: url)
        return try #require(NSManagedObjectModel(contentsOf: url))
    }

    @Test func checkedInClassesAreWhatTheGeneratorWrites() throws {
        let model = try #require(Pipeline.load(Self.modelPath).model)
        var options = SwiftGenerator.Options()
        options.sourceName = "Trips.modeld"
        for file in try SwiftGenerator.generate(model, options: options) {
            let checkedIn = try String(contentsOf: Self.generatedFolder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(
                checkedIn == file.contents,
                "regenerate the golden files with: MODELGEN_UPDATE_GOLDEN=1 swift test")
        }
    }

    @Test func generatedClassesInsertSaveAndFetch() throws {
        let storeFolder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: storeFolder) }
        let container = TripsModel.makeContainer(managedObjectModel: try Self.model())
        #expect(container.name == "Trips")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeFolder.appendingPathComponent("Trips.sqlite"))]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let tag = Tag(context: context)
            tag.name = "coast"
            for (offset, name) in ["Algarve", "Brittany"].enumerated() {
                let trip = Trip(context: context)
                trip.id = UUID()
                trip.name = name
                trip.startDate = Date(timeIntervalSince1970: Double(offset) * 86_400)
                trip.rating = Int16(3 + offset)
                trip.status = .active
                trip.endDate = nil
                trip.addToTags(tag)
                for stopName in ["first", "second"] {
                    let stop = Stop(context: context)
                    stop.name = "\(name) \(stopName)"
                    stop.location = Location(latitude: 1.5, longitude: -2, placeName: stopName)
                    trip.addToStops(stop)
                }
                trip.insertIntoStops(
                    {
                        let stop = Stop(context: context)
                        stop.name = "\(name) start"
                        return stop
                    }(), at: 0)
            }
            #expect(tag.trips.count == 2)
            let inserted = try #require(tag.trips.first { $0.name == "Brittany" })
            #expect(inserted.stops.array.compactMap { ($0 as? Stop)?.name } == ["Brittany start", "Brittany first", "Brittany second"])
            #expect((inserted.stops.lastObject as? Stop)?.location == Location(latitude: 1.5, longitude: -2, placeName: "second"))
            try context.save()
            context.reset()

            let request: NSFetchRequest<Trip> = Trip.fetchRequest()
            request.predicate = NSPredicate(format: "rating >= %@", NSNumber(value: 4))
            let found = try context.fetch(request)
            #expect(found.map(\.name) == ["Brittany"])
            let trip = try #require(found.first)
            #expect(trip.rating == 4 && trip.status == .active && trip.statusRawValue == "active" && trip.endDate == nil)
            let stops = trip.stops.array.compactMap { $0 as? Stop }
            #expect(Set(stops.map(\.name)) == ["Brittany start", "Brittany first", "Brittany second"])
            #expect(stops.allSatisfy { $0.trip === trip })
            #expect(stops.first { $0.name == "Brittany second" }?.location == Location(latitude: 1.5, longitude: -2, placeName: "second"))
            #expect(stops.map(\.name) == ["Brittany start", "Brittany first", "Brittany second"])
            #expect(trip.tags.map(\.name) == ["coast"])
            #expect(trip.tags.first?.color == "#FFAA00")

            let sorted: NSFetchRequest<Trip> = Trip.fetchRequest()
            sorted.sortDescriptors = [NSSortDescriptor(keyPath: \Trip.startDate, ascending: false)]
            #expect(try context.fetch(sorted).map(\.name) == ["Brittany", "Algarve"])
        }
    }

    @Test func keyPathsOfGeneratedClassesNameTheirProperties() {
        #expect(NSSortDescriptor(keyPath: \Trip.name, ascending: true).key == "name")
        #expect(NSSortDescriptor(keyPath: \Stop.location, ascending: true).key == "location")
        #expect(Trip.keyPathString(for: \Stop.name) == nil)
    }
}
#endif

import Foundation
import ModelRuntime
import Trips

// The stack: a persistent container for the model the build plugin compiled into the Trips
// module. By default its store is `Trips.sqlite` in `NSPersistentContainer.defaultDirectoryURL()`;
// this program keeps it in a temporary folder instead.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trips-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let container = TripsModel.makeContainer()
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.appendingPathComponent("Trips.sqlite"))]
container.loadPersistentStores { description, error in
    if let error {
        fatalError("cannot load \(description.url?.path ?? "the store"): \(error)")
    }
}

// A save: objects of the generated classes, inserted on a background context's queue.
let context = container.newBackgroundContext()
try context.performAndWait { () throws in
    let lisbon = Trip(context: context)
    lisbon.id = UUID()
    lisbon.name = "Lisbon weekend"
    lisbon.startDate = Date(timeIntervalSince1970: 1_800_000_000)
    lisbon.rating = 5
    for name in ["Alfama", "Belém"] {
        let stop = Stop(context: context)
        stop.name = name
        lisbon.addToStops(stop)
    }

    let porto = Trip(context: context)
    porto.id = UUID()
    porto.name = "Porto"
    porto.startDate = Date(timeIntervalSince1970: 1_802_592_000)
    porto.rating = 3

    try context.save()
}

// A fetch: a typed request with Foundation's #Predicate and SortDescriptor.
try context.performAndWait { () throws in
    let request = try Trip.fetchRequest(#Predicate { $0.rating >= 4 }, sortBy: [SortDescriptor(\.startDate)])
    for trip in try context.fetch(request) {
        let stops = trip.stops.array.compactMap { ($0 as? Stop)?.name }
        print("\(trip.name): rating \(trip.rating), \(trip.status), stops \(stops)")
    }
}

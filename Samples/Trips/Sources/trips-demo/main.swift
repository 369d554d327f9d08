// Creates a Trips store with a persistent container and works with it through the generated
// classes: inserts on a background context, saves, fetches with a predicate string and sort
// descriptors and with a #Predicate and SortDescriptors, and shows a validation error and a
// uniqueness-constraint upsert.
import Foundation
import ModelRuntime
import Trips

#if canImport(CoreData)
print("trips-demo shows the generated classes over ModelRuntime on platforms without Core Data.")
#else
// Foundation on Linux declares these classes too; the module's aliases pick ModelRuntime's (the
// generated model file declares the same ones for the Trips module).
typealias NSPredicate = ModelRuntime.NSPredicate
typealias NSSortDescriptor = ModelRuntime.NSSortDescriptor

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trips-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// The model the build plugin compiled into this package's resources, in a container whose
// store lives in the temporary folder (by default it would be in
// `NSPersistentContainer.defaultDirectoryURL()`).
let container = TripsModel.makeContainer()
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.appendingPathComponent("Trips.sqlite"))]
container.loadPersistentStores { description, error in
    if let error {
        FileHandle.standardError.write(Data("error: cannot load \(description.url?.path ?? "the store"): \(error)\n".utf8))
        exit(1)
    }
}
let context = container.newBackgroundContext()
let day: TimeInterval = 24 * 60 * 60
let start = Date(timeIntervalSince1970: 1_800_000_000)

try context.performAndWait { () throws in
    let city = Tag(context: context)
    city.name = "city"
    city.color = "#3366FF"
    let coast = Tag(context: context)
    coast.name = "coast"
    coast.color = "#00AAFF"
    let plans: [(name: String, rating: Int16, status: TripStatus, stops: [String], tags: [Tag])] = [
        ("Lisbon weekend", 5, .done, ["Alfama", "Belém"], [city]),
        ("Algarve", 4, .planned, ["Lagos", "Sagres", "Faro"], [coast]),
        ("Porto", 3, .planned, ["Ribeira"], [city, coast]),
    ]
    for (offset, plan) in plans.enumerated() {
        let trip = Trip(context: context)
        trip.id = UUID()
        trip.name = plan.name
        trip.startDate = start.addingTimeInterval(Double(offset) * 30 * day)
        trip.rating = plan.rating
        trip.status = plan.status
        for name in plan.stops {
            let stop = Stop(context: context)
            stop.name = name
            trip.addToStops(stop)
        }
        trip.tags = Set(plan.tags)
    }
    try context.save()
    print("saved \(plans.count) trips")
}

try context.performAndWait { () throws in
    let request: NSFetchRequest<Trip> = Trip.fetchRequest()
    request.predicate = NSPredicate(format: "rating >= %@ AND status != %@", NSNumber(value: 4), "active")
    request.sortDescriptors = [NSSortDescriptor(keyPath: \Trip.rating, ascending: false)]
    print("trips rated 4 or more, best first:")
    for trip in try context.fetch(request) {
        let stops = trip.stops.array.compactMap { ($0 as? Stop)?.name }
        let tags = trip.tags.map(\.name).sorted()
        print("  \(trip.name): rating \(trip.rating), \(trip.status), stops \(stops), tags \(tags)")
    }

    let byDate: NSFetchRequest<Trip> = Trip.fetchRequest()
    byDate.sortDescriptors = [NSSortDescriptor(key: Trip.Keys.startDate, ascending: true)]
    print("all trips by start date: \(try context.fetch(byDate).map(\.name))")
}

try context.performAndWait { () throws in
    // The same kind of query with Foundation's #Predicate and SortDescriptor: the code is the
    // same on Apple platforms, where Foundation converts them for Core Data.
    let minimum: Int16 = 3
    let request = try Trip.fetchRequest(
        #Predicate { $0.rating >= minimum && $0.tags.contains { $0.name == "city" } },
        sortBy: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.name)])
    print("#Predicate \(request.predicate?.predicateFormat ?? "")")
    print("city trips rated 3 or more, best first: \(try context.fetch(request).map(\.name))")
}

context.performAndWait {
    // A trip without its required start date.
    let undated = Trip(context: context)
    undated.id = UUID()
    undated.name = "Someday"
    do {
        try context.save()
        print("unexpected: a trip without a start date was saved")
        exit(1)
    } catch let error as NSError {
        let expected = error.code == NSValidationMissingMandatoryPropertyError ? "NSValidationMissingMandatoryPropertyError" : "unexpected"
        print("validation error: \(error.domain) \(error.code) (\(expected)), key \(error.userInfo[NSValidationKeyErrorKey] ?? "none")")
    }
    context.delete(undated)
}

try context.performAndWait { () throws in
    context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    let again = Tag(context: context)
    again.name = "city"
    again.color = "#FF0000"
    try context.save()
    let request: NSFetchRequest<Tag> = Tag.fetchRequest()
    request.sortDescriptors = [NSSortDescriptor(keyPath: \Tag.name, ascending: true)]
    let tags = try context.fetch(request)
    print("after inserting a second 'city' tag: \(tags.map { "\($0.name) \($0.color)" })")
    guard tags.count == 2 else {
        print("unexpected: the uniqueness constraint on Tag.name did not merge the tags")
        exit(1)
    }
}
#endif

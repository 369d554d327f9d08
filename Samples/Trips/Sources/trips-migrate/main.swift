// Migrates a store written with the first version of the Trips model to the current one, on
// load, as an app does after an update: writes a `Trips 1` store with that version of the
// compiled model (the `.momd` the plugin built holds every version), then opens it with a
// persistent container on the current model, whose store description migrates automatically,
// and checks the migrated data through the generated classes. Exits non-zero when anything is
// not as expected.
import Foundation
import ModelRuntime
import Trips

#if canImport(CoreData)
print("trips-migrate shows migration on load over ModelRuntime on platforms without Core Data.")
#else
typealias NSSortDescriptor = ModelRuntime.NSSortDescriptor

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

func load(_ container: NSPersistentContainer, at url: URL) {
    let description = NSPersistentStoreDescription(url: url)
    description.shouldAddStoreAsynchronously = false
    container.persistentStoreDescriptions = [description]
    container.loadPersistentStores { _, error in
        if let error { fail("cannot load \(url.path): \(error)") }
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trips-migrate-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let storeURL = folder.appendingPathComponent("Trips.sqlite")

// 1. A store written by the app's first release: the `Trips 1` version of the compiled model.
//    Its objects are plain NSManagedObjects (the generated classes are the current version's).
let momd = try TripsStore.compiledModel().url
guard let firstModel = NSManagedObjectModel(contentsOf: momd.appendingPathComponent("Trips 1.mom")) else {
    fail("the compiled Trips.momd has no 'Trips 1.mom'")
}
for entity in firstModel.entities { entity.managedObjectClassName = "NSManagedObject" }
let start = Date(timeIntervalSince1970: 1_800_000_000)
let plans: [(name: String, rating: Int16, stops: [String], tags: [String])] = [
    ("Lisbon weekend", 5, ["Alfama", "Belém"], ["city"]),
    ("Algarve", 4, ["Lagos", "Sagres", "Faro"], ["coast"]),
    ("Porto", 3, ["Ribeira"], ["city", "coast"]),
]
do {
    let old = NSPersistentContainer(name: "Trips", managedObjectModel: firstModel)
    load(old, at: storeURL)
    let context = old.newBackgroundContext()
    try context.performAndWait { () throws in
        var tags: [String: NSManagedObject] = [:]
        for name in ["city", "coast"] {
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue(name, forKey: "name")
            tags[name] = tag
        }
        for (offset, plan) in plans.enumerated() {
            let trip = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
            trip.setValue(UUID(), forKey: "id")
            trip.setValue(plan.name, forKey: "name")
            trip.setValue(start.addingTimeInterval(Double(offset) * 30 * 86_400), forKey: "startDate")
            trip.setValue(NSNumber(value: plan.rating), forKey: "rating")
            let stops = NSMutableOrderedSet()
            for name in plan.stops {
                let stop = NSEntityDescription.insertNewObject(forEntityName: "Stop", into: context)
                stop.setValue(name, forKey: "name")
                stop.setValue("notes on \(name)", forKey: "notes")
                stops.add(stop)
            }
            trip.setValue(stops, forKey: "stops")
            trip.setValue(NSSet(array: plan.tags.compactMap { tags[$0] }), forKey: "tags")
        }
        try context.save()
    }
    for store in old.persistentStoreCoordinator.persistentStores { try old.persistentStoreCoordinator.remove(store) }
    print("wrote a 'Trips 1' store: \(plans.count) trips, \(plans.map(\.stops.count).reduce(0, +)) stops, 2 tags")
}

// 2. The current app opens it: the container's store description migrates it on load.
let container = TripsModel.makeContainer()
load(container, at: storeURL)
print("opened it with '\(TripsModel.currentVersion.rawValue)': migrated on load")

// 3. The migrated data: every value kept, the new attributes at their defaults, the new derived
//    stop count computed.
let context = container.newBackgroundContext()
var problems: [String] = []
try context.performAndWait { () throws in
    let request: NSFetchRequest<Trip> = Trip.fetchRequest()
    request.sortDescriptors = [NSSortDescriptor(key: Trip.Keys.startDate, ascending: true)]
    let trips = try context.fetch(request)
    if trips.count != plans.count { problems.append("\(trips.count) trips instead of \(plans.count)") }
    for (trip, plan) in zip(trips, plans) {
        let stops = trip.stops.array.compactMap { $0 as? Stop }
        let tags = trip.tags.map(\.name).sorted()
        print(
            "  \(trip.name): rating \(trip.rating), status \(trip.status), stopCount \(trip.stopCount), stops \(stops.map(\.name)), tags \(tags)"
        )
        if trip.name != plan.name || trip.rating != plan.rating { problems.append("\(plan.name): name or rating changed") }
        if stops.map(\.name) != plan.stops { problems.append("\(plan.name): stops \(stops.map(\.name)), expected \(plan.stops)") }
        if stops.contains(where: { $0.notes != "notes on \($0.name)" || $0.location != nil }) {
            problems.append("\(plan.name): a stop's notes were lost or its new location is set")
        }
        if tags != plan.tags { problems.append("\(plan.name): tags \(tags), expected \(plan.tags)") }
        // The raw stored value: `status` itself reads a missing value as `.planned` too.
        if trip.statusRawValue != "planned" {
            problems.append("\(plan.name): new status \(trip.statusRawValue ?? "nil"), expected its default planned")
        }
        if trip.stopCount != Int64(plan.stops.count) { problems.append("\(plan.name): stopCount \(trip.stopCount)") }
    }
    let tags = try context.fetch(Tag.fetchRequest())
    let colors = tags.map { ($0.value(forKey: Tag.Keys.color) as? String) ?? "nil" }
    print("  tags: \(zip(tags.map(\.name), colors).map { "\($0) \($1)" }.sorted())")
    if tags.count != 2 || colors.contains(where: { $0 != "#FFAA00" }) { problems.append("tags do not have the default colour") }
}
if !problems.isEmpty { fail("the migrated store is not as expected:\n  " + problems.joined(separator: "\n  ")) }
print("migrated 'Trips 1' → '\(TripsModel.currentVersion.rawValue)': every value kept, new attributes defaulted")
#endif

#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Trips, stops and tags of the generated Trips classes in an in-memory SQLite store, for
/// `#Predicate` fetches. Every check compares a fetch with Foundation's own evaluation of the
/// same `Predicate` over every object, so the translation is held to Swift's meaning.
struct TripsPredicateFixture {
    let container: NSPersistentContainer
    let context: NSManagedObjectContext

    init() throws {
        container = TripsModel.makeContainer(managedObjectModel: try GeneratedClassesTests.model())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let coast = tag("coast", "#0000FF")
            let sun = tag("sun", "#FFAA00")
            let city = tag("city", "#AAAAAA")
            trip(
                "Algarve", rating: 4, favorite: true, status: .active, day: 10, endDay: 17, tags: [coast, sun],
                stops: [("Faro", "beach"), ("Lagos", nil)])
            trip(
                "Brittany", rating: 2, favorite: false, status: .planned, day: 40, endDay: nil, tags: [coast], stops: [("Rennes", "Crêpes")]
            )
            trip("Cairo", rating: 5, favorite: false, status: .done, day: 5, endDay: 9, tags: [], stops: [])
            trip("équateur", rating: 0, favorite: true, status: .planned, day: 70, endDay: nil, tags: [city, sun], stops: [("Quito", "")])
            trip("Oslo 10", rating: 3, favorite: false, status: .active, day: 20, endDay: 25, tags: [city], stops: [("Bergen", "Fjords")])
            trip("Oslo 9", rating: 1, favorite: false, status: .done, day: 30, endDay: nil, tags: [city], stops: [])
            try context.save()
            context.reset()
        }
    }

    @discardableResult
    private func tag(_ name: String, _ color: String) -> Tag {
        let tag = Tag(context: context)
        tag.name = name
        tag.color = color
        return tag
    }

    private func trip(
        _ name: String, rating: Int16, favorite: Bool, status: TripStatus, day: Double, endDay: Double?, tags: [Tag],
        stops: [(String, String?)]
    ) {
        let trip = Trip(context: context)
        trip.id = UUID()
        trip.name = name
        trip.rating = rating
        trip.isFavorite = favorite
        trip.status = status
        trip.startDate = Self.day(day)
        trip.endDate = endDay.map(Self.day)
        for tag in tags { trip.addToTags(tag) }
        for (stopName, notes) in stops {
            let stop = Stop(context: context)
            stop.name = stopName
            stop.notes = notes
            trip.addToStops(stop)
        }
    }

    static func day(_ number: Double) -> Date { Date(timeIntervalSinceReferenceDate: number * 86_400) }

    /// Every object of `T`'s entity, fetched without a predicate.
    func all<T: NSManagedObject>(_ type: T.Type, entity: String) throws -> [T] {
        try context.fetch(NSFetchRequest<T>(entityName: entity))
    }

    /// The translated predicate's format and the names the fetch returns (sorted), after
    /// checking that the fetch and the in-memory evaluation of the translation agree with
    /// Foundation's evaluation of the `Predicate` itself.
    func check<T: NSManagedObject>(
        _ predicate: Predicate<T>, entity: String, name: (T) -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (format: String, names: [String]) {
        try context.performAndWait { () throws in
            let translated = try NSPredicate(translating: predicate)
            let request = NSFetchRequest<T>(entityName: entity)
            request.predicate = translated
            let fetched = try context.fetch(request).map(name).sorted()
            let objects = try all(T.self, entity: entity)
            let expected = try objects.filter { try predicate.evaluate($0) }.map(name).sorted()
            let inMemory = objects.filter { translated.evaluate(with: $0) }.map(name).sorted()
            #expect(fetched == expected, "fetch of \(translated.predicateFormat)", sourceLocation: sourceLocation)
            #expect(inMemory == expected, "in-memory evaluation of \(translated.predicateFormat)", sourceLocation: sourceLocation)
            return (translated.predicateFormat, fetched)
        }
    }

    func trips(_ predicate: Predicate<Trip>, sourceLocation: SourceLocation = #_sourceLocation) throws -> (format: String, names: [String])
    {
        try check(predicate, entity: "Trip", name: \.name, sourceLocation: sourceLocation)
    }

    func stops(_ predicate: Predicate<Stop>, sourceLocation: SourceLocation = #_sourceLocation) throws -> (format: String, names: [String])
    {
        try check(predicate, entity: "Stop", name: \.name, sourceLocation: sourceLocation)
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The typed batch-insert helpers generated for the Trips sample (`GeneratedTrips/`): rows of
/// `BatchInsertValues` go in without dictionaries in user code, enums and composites stored as
/// Core Data stores them, and to-one relationships linked by unique key or object ID.
struct GeneratedBatchInsertTests {
    @Test func typedRowsInsertAndLinkToOneRelationships() throws {
        let folder = EngineTestModel.Folder()
        let container = TripsModel.makeContainer(managedObjectModel: try GeneratedClassesTests.model())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.store)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let ids = [UUID(), UUID()]
            let trips = Trip.batchInsertRequest([
                Trip.BatchInsertValues(
                    id: ids[0], name: "Algarve", startDate: Date(timeIntervalSince1970: 0), isFavorite: true, rating: 4, status: .active),
                Trip.BatchInsertValues(
                    id: ids[1], name: "Brittany", startDate: Date(timeIntervalSince1970: 86_400),
                    endDate: Date(timeIntervalSince1970: 90_000),
                    isFavorite: false, rating: 2, status: .planned),
            ])
            trips.resultType = .objectIDs
            let tripIDs = try #require((try context.execute(trips) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
            var first = Stop.BatchInsertValues(name: "Faro", location: Location(latitude: 37, longitude: -7.9, placeName: "Faro"))
            first.trip = .uniqueKey(["id": ids[0]])
            var second = Stop.BatchInsertValues(name: "Rennes")
            second.trip = .objectID(tripIDs[1])
            _ = try context.execute(Stop.batchInsertRequest([first, second]))

            // The classes are made known before relationships make objects of their entities.
            _ = (Trip.entity(), Stop.entity())
            let stops = try context.fetch(Stop.fetchRequest()).sorted { $0.name < $1.name }
            let fetched = try context.fetch(Trip.fetchRequest()).sorted { $0.name < $1.name }
            #expect(fetched.map(\.name) == ["Algarve", "Brittany"])
            #expect(fetched.map(\.status) == [.active, .planned])
            #expect(fetched.map(\.rating) == [4, 2])
            #expect(fetched[1].endDate == Date(timeIntervalSince1970: 90_000))
            #expect(fetched.map { $0.stops.count } == [1, 1])
            #expect(stops.map(\.name) == ["Faro", "Rennes"])
            #expect(fetched[0].stops.firstObject as AnyObject === stops[0])
            let faro = stops[0]
            #expect(faro.trip === fetched[0] && stops[1].trip === fetched[1])
            #expect(faro.location == Location(latitude: 37, longitude: -7.9, placeName: "Faro"))
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Classes written the way generated code is since slots are resolved per entity: `Driver` is a
/// sub-entity of `Person` whose own attribute `licence` sorts before the inherited `name`, so the
/// two entities keep `name` in different slots.
class SlotPerson: NSManagedObject {
    private enum Slots {
        private static let table = SlotTable(["name", "trip"])
        static let name = table[0]
        static let trip = table[1]
    }

    var name: String? {
        get { value(atSlot: Slots.name) as? String }
        set { setValue(newValue, atSlot: Slots.name) }
    }
    var trip: NSManagedObject? {
        get { value(atSlot: Slots.trip) as? NSManagedObject }
        set { setValue(newValue, atSlot: Slots.trip) }
    }
}

final class SlotDriver: SlotPerson {}

struct SlotTableTests {
    /// Opens an in-memory store for the Itinerary model version `version` of `bundle`.
    static func itineraryContext(_ version: String, in bundle: Bundle) throws -> NSManagedObjectContext {
        let momd = try #require(bundle.url(forResource: ItineraryModel.name, withExtension: "momd"))
        let model = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("\(version).mom")))
        return try EngineTestModel.stack(model: model).1
    }

    @Test func typedAccessorsReadTheirOwnSlotsInObjectsOfTwoModelVersionsAtOnce() throws {
        // Version 3 keeps Place's slug in slot 2; version 4 adds `rating`, which sorts before it.
        let folder = EngineTestModel.Folder()
        let bundle = try GeneratedMigrationStagesTests.bundle(in: folder.url)
        let third = try Self.itineraryContext("Itinerary 3", in: bundle)
        let fourth = try Self.itineraryContext("Itinerary 4", in: bundle)
        for round in 0..<2 {
            // Either version first: neither may fix the slots the other reads.
            let (first, second) = round == 0 ? (third, fourth) : (fourth, third)
            for context in [first, second] {
                try context.performAndWait { () throws in
                    let place = Place(context: context)
                    place.name = "Sintra \(round)"
                    place.slug = "sintra-\(round)"
                    place.notes = "palace"
                    if context === fourth { place.rating = 5 }
                    #expect(place.value(forKey: "slug") as? String == "sintra-\(round)")
                    #expect(place.value(forKey: "name") as? String == "Sintra \(round)")
                    #expect(place.value(forKey: "notes") as? String == "palace")
                    try context.save()
                }
            }
        }
        for context in [third, fourth] {
            try context.performAndWait { () throws in
                context.reset()
                let places = try context.fetch(Place.fetchRequest()).sorted { $0.name < $1.name }
                #expect(places.map(\.name) == ["Sintra 0", "Sintra 1"])
                #expect(places.map(\.slug) == ["sintra-0", "sintra-1"])
                #expect(places.allSatisfy { $0.notes == "palace" })
                if context === fourth { #expect(places.allSatisfy { $0.rating == 5 }) }
            }
        }
    }

    @Test func inheritedAccessorsReadTheSubEntitysSlots() throws {
        let model = EngineTestModel.make()
        model.entitiesByName["Person"]!.managedObjectClassName = "SlotPerson"
        model.entitiesByName["Driver"]!.managedObjectClassName = "SlotDriver"
        let (_, context) = try EngineTestModel.stack(model: model)
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Coast"])
            let person = SlotPerson(context: context)
            person.name = "Ana"
            let driver = SlotDriver(context: context)
            driver.setValue("B-123", forKey: "licence")
            driver.name = "Rui"
            driver.trip = trip
            #expect(person.value(forKey: "name") as? String == "Ana")
            #expect(driver.value(forKey: "name") as? String == "Rui")
            #expect(driver.value(forKey: "licence") as? String == "B-123")
            #expect(driver.value(forKey: "trip") as? NSManagedObject === trip)
            try context.save()
            context.reset()
            let drivers = try context.fetch(NSFetchRequest<SlotDriver>(entityName: "Driver"))
            #expect(drivers.map(\.name) == ["Rui"])
            #expect(drivers.first?.trip?.value(forKey: "name") as? String == "Coast")
            let people = try context.fetch(NSFetchRequest<SlotPerson>(entityName: "Person")).compactMap(\.name).sorted()
            #expect(people == ["Ana", "Rui"])
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `value(atSlot:as:)` reads stored values of the common attribute types without a dynamic
/// cast; its results must stay those of `value(atSlot:) as? T` for every type asked for.
struct TypedSlotReadTests {
    @Test func typedReadsGiveTheStoredValuesOfEveryAttributeType() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let code = UUID()
            let start = Date(timeIntervalSinceReferenceDate: 12_345.5)
            let trip = EngineTestModel.insert(
                "Trip", into: context,
                [
                    "name": "Typed read", "start": start, "distance": 12.25, "legs": Int64(7), "done": true, "code": code,
                    "photo": Data([1, 2, 3]),
                ])
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "First", "order": Int16(3), "trip": trip])
            let tag = EngineTestModel.insert("Tag", into: context, ["name": "t", "uses": Int32(9)])
            func check(_ object: NSManagedObject) {
                func slot(_ key: String) -> Int { object.slot(forKey: key)! }
                if object.entity.name == "Trip" {
                    #expect(object.value(atSlot: slot("name"), as: String.self) == "Typed read")
                    #expect(object.value(atSlot: slot("start"), as: Date.self) == start)
                    #expect(object.value(atSlot: slot("distance"), as: Double.self) == 12.25)
                    #expect(object.value(atSlot: slot("legs"), as: Int64.self) == 7)
                    #expect(object.value(atSlot: slot("done"), as: Bool.self) == true)
                    #expect(object.value(atSlot: slot("code"), as: UUID.self) == code)
                    #expect(object.value(atSlot: slot("photo"), as: Data.self) == Data([1, 2, 3]))
                    #expect(object.value(atSlot: slot("note"), as: String.self) == nil)
                } else if object.entity.name == "Stop" {
                    #expect(object.value(atSlot: slot("order"), as: Int16.self) == 3)
                    let destination = object.value(atSlot: slot("trip"), as: NSManagedObject.self)
                    #expect(destination?.value(forKey: "name") as? String == "Typed read")
                } else {
                    #expect(object.value(atSlot: slot("uses"), as: Int32.self) == 9)
                }
            }
            for object in [trip, stop, tag] { check(object) }
            try context.save()
            context.reset()
            for entity in ["Trip", "Stop", "Tag"] {
                let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity))
                #expect(fetched.count == 1)
                fetched.forEach(check)
            }
        }
    }

    @Test func typedReadsOfAnotherTypeAgreeWithACast() throws {
        let (_, context) = try EngineTestModel.stack()
        context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Other", "legs": Int64(4), "distance": 2.0])
            let legs = trip.slot(forKey: "legs")!
            let name = trip.slot(forKey: "name")!
            let distance = trip.slot(forKey: "distance")!
            #expect(trip.value(atSlot: legs, as: String.self) == nil)
            #expect(trip.value(atSlot: name, as: Int64.self) == nil)
            #expect(trip.value(atSlot: legs, as: Int.self) == (trip.value(atSlot: legs) as? Int))
            #expect(trip.value(atSlot: distance, as: Float.self) == (trip.value(atSlot: distance) as? Float))
            #expect(trip.value(atSlot: name, as: NSManagedObject.self) == nil)
            #expect(trip.value(atSlot: legs, as: Any.self) as? Int64 == 4)
            #expect(trip.value(atSlot: name, as: (any CustomStringConvertible).self)?.description == "Other")
        }
    }

    /// One save's rows are written table by table in key order; every row of every table (and
    /// of a sub-entity sharing its parent's table) must arrive with its own values.
    @Test func aSaveOfInterleavedEntitiesWritesEveryRow() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait { () throws in
            for index in 0..<60 {
                switch index % 3 {
                case 0: _ = EngineTestModel.insert("Trip", into: context, ["name": "Trip \(index)", "legs": Int64(index)])
                case 1: _ = EngineTestModel.insert("Person", into: context, ["name": "Person \(index)"])
                default: _ = EngineTestModel.insert("Driver", into: context, ["name": "Driver \(index)", "licence": "L\(index)"])
                }
            }
            try context.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait { () throws in
            let trips = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(trips.count == 20)
            #expect(trips.allSatisfy { ($0.value(forKey: "name") as? String) == "Trip \(($0.value(forKey: "legs") as? Int64) ?? -1)" })
            let people = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            #expect(people.count == 40)
            let drivers = people.filter { $0.entity.name == "Driver" }
            #expect(drivers.count == 20)
            #expect(
                drivers.allSatisfy {
                    ($0.value(forKey: "name") as? String)?.dropFirst(7) == ($0.value(forKey: "licence") as? String)?.dropFirst()
                })
            // Keys follow insertion order within each table.
            let names = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).sorted {
                ($0.objectID.uriRepresentation().lastPathComponent.dropFirst().description as NSString).integerValue
                    < ($1.objectID.uriRepresentation().lastPathComponent.dropFirst().description as NSString).integerValue
            }.compactMap { $0.value(forKey: "name") as? String }
            let indexes = names.compactMap { Int($0.split(separator: " ").last ?? "") }
            #expect(indexes == indexes.sorted())
        }
    }
}
#endif

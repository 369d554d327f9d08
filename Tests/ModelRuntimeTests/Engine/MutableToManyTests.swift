#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)` give Core Data's types,
/// live: changes through them change the relationship and its inverse, and reads show changes
/// made elsewhere.
struct MutableToManyTests {
    static func name(_ value: Any?) -> String { (value as? NSManagedObject)?.value(forKey: "name") as? String ?? "?" }

    @Test func aMutableSetChangesTheRelationshipAndItsInverse() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let tags = ["a", "b", "c"].map { EngineTestModel.insert("Tag", into: context, ["name": $0]) }
            let set: NSMutableSet = trip.mutableSetValue(forKey: "tags")
            set.add(tags[0])
            set.addObjects(from: [tags[1], tags[2]])
            #expect(set.count == 3 && set.contains(tags[1]))
            #expect(Set(set.allObjects.map(Self.name)) == ["a", "b", "c"])
            #expect((tags[1].value(forKey: "trips") as? Set<NSManagedObject>)?.contains(trip) == true)
            set.remove(tags[1])
            #expect((tags[1].value(forKey: "trips") as? Set<NSManagedObject>)?.isEmpty == true)
            #expect(((trip.value(forKey: "tags") as? Set<NSManagedObject>) ?? []).count == 2)
            // A change made from the other side shows through the same set.
            tags[1].mutableSetValue(forKey: "trips").add(trip)
            #expect(set.count == 3)
            var seen: [String] = []
            for member in set { seen.append(Self.name(member)) }
            #expect(seen.sorted() == ["a", "b", "c"])
            set.minus([tags[0] as AnyHashable])
            #expect(set.count == 2 && set.member(tags[0]) == nil)
            set.removeAllObjects()
            #expect(set.count == 0)
            #expect((tags[2].value(forKey: "trips") as? Set<NSManagedObject>)?.isEmpty == true)
            #expect(trip.isUpdated || trip.isInserted)
        }
    }

    @Test func aMutableOrderedSetChangesTheOrderAndTheInverseAndIsSaved() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let stops = ["a", "b", "c", "d"].map { EngineTestModel.insert("Stop", into: context, ["name": $0]) }
            let ordered: NSMutableOrderedSet = trip.mutableOrderedSetValue(forKey: "stops")
            ordered.add(stops[0])
            ordered.addObjects(from: [stops[2], stops[3]])
            ordered.insert(stops[1], at: 1)
            #expect(ordered.array.map(Self.name) == ["a", "b", "c", "d"])
            #expect(stops[1].value(forKey: "trip") as? NSManagedObject === trip)
            ordered.exchangeObject(at: 0, withObjectAt: 3)
            #expect(ordered.array.map(Self.name) == ["d", "b", "c", "a"])
            ordered.moveObjects(at: IndexSet(integer: 3), to: 0)
            #expect(ordered.array.map(Self.name) == ["a", "d", "b", "c"])
            ordered.removeObject(at: 1)
            #expect(stops[3].value(forKey: "trip") == nil)
            #expect(Self.name(ordered.firstObject) == "a" && Self.name(ordered.lastObject) == "c")
            ordered.replaceObject(at: 2, with: stops[3])
            #expect(ordered.array.map(Self.name) == ["a", "b", "d"])
            #expect(stops[2].value(forKey: "trip") == nil && stops[3].value(forKey: "trip") as? NSManagedObject === trip)
            // A change made from the other side shows through the same set.
            stops[2].setValue(trip, forKey: "trip")
            #expect(ordered.count == 4 && ordered.index(of: stops[2]) == 3)
            ordered.sort { Self.name($1) < Self.name($0) ? .orderedDescending : .orderedAscending }
            #expect(ordered.array.map(Self.name) == ["a", "b", "c", "d"])
            ordered.remove(stops[0])
            #expect(ordered.array.map(Self.name) == ["b", "c", "d"])
            try context.save()
        }
        #expect(try OrderedRelationshipTests.reloaded(folder, model: model, entity: "Trip", key: "stops") == ["b", "c", "d"])
    }
}
#endif

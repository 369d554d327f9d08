#if !canImport(CoreData)
import Foundation
import Testing

@testable import ModelRuntime

/// Attribute values of the common types are kept unboxed in cells of their own size
/// (`ValueLayout`); a value of another type stored in such an attribute — which
/// `setPrimitiveValue(_:forKey:)` accepts — is kept as it was given. Every read gives back what
/// was written, through saves, rollbacks and refreshes.
struct TypedCellTests {
    /// One value per typed attribute of the test model's trips, of the attribute's own type.
    static var ownValues: [String: Any] {
        [
            "name": "a name longer than fifteen bytes", "start": Date(timeIntervalSinceReferenceDate: 99.5), "distance": 3.25,
            "legs": Int64(-12), "done": true, "note": "short",
        ]
    }

    /// Values of other types for the same attributes (none of which converts to the attribute's).
    static var otherValues: [String: Any] {
        [
            "name": ["an", "array"], "start": "not a date", "distance": "not a number", "legs": Data([1, 2]), "done": "yes",
            "note": UUID(uuidString: "5F1C7E0A-3B1D-4E6A-9C55-0123456789AB")!,
        ]
    }

    @Test func valuesOfTheAttributesTypesReadBackThroughEveryRead() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, Self.ownValues)
            for (key, value) in Self.ownValues {
                #expect(SlotValues.equal(trip.value(forKey: key), value), "\(key)")
                #expect(SlotValues.equal(trip.primitiveValue(forKey: key), value), "\(key)")
            }
            #expect(trip.value(atSlot: trip.slot(forKey: "legs")!, as: Int64.self) == -12)
            #expect(trip.value(atSlot: trip.slot(forKey: "name")!, as: String.self) == "a name longer than fifteen bytes")
            try context.save()
            context.refreshAllObjects()
            for (key, value) in Self.ownValues { #expect(SlotValues.equal(trip.value(forKey: key), value), "\(key)") }
            #expect(trip.changedValues().isEmpty)
        }
    }

    @Test func valuesOfAnotherTypeAreKeptAsGivenUntilRolledBack() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, Self.ownValues)
            try context.save()
            for (key, value) in Self.otherValues {
                trip.setPrimitiveValue(value, forKey: key)
                #expect(SlotValues.equal(trip.primitiveValue(forKey: key), value), "\(key)")
                #expect(SlotValues.equal(trip.value(forKey: key), value), "\(key)")
                #expect(SlotValues.equal(trip.committedValues(forKeys: [key])[key], Self.ownValues[key]), "\(key)")
            }
            #expect(trip.value(atSlot: trip.slot(forKey: "legs")!, as: Int64.self) == nil)
            #expect(trip.value(atSlot: trip.slot(forKey: "legs")!, as: Data.self) == Data([1, 2]))
            #expect(trip.value(atSlot: trip.slot(forKey: "start")!, as: String.self) == "not a date")
            #expect(Set(trip.changedValues().keys) == Set(Self.otherValues.keys))
            context.rollback()
            for (key, value) in Self.ownValues { #expect(SlotValues.equal(trip.value(forKey: key), value), "\(key)") }
            #expect(trip.changedValues().isEmpty)
        }
    }

    @Test func nilReplacesAValueOfEitherKind() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trip = EngineTestModel.insert("Trip", into: context, Self.ownValues)
            for key in ["start", "distance", "legs", "done", "note"] {
                trip.setValue(nil, forKey: key)
                #expect(trip.value(forKey: key) == nil, "\(key)")
                trip.setPrimitiveValue(Self.otherValues[key], forKey: key)
                trip.setPrimitiveValue(nil, forKey: key)
                #expect(trip.primitiveValue(forKey: key) == nil, "\(key)")
            }
            trip.setValue("kept", forKey: "name")
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(fetched.value(forKey: "name") as? String == "kept")
            for key in ["start", "distance", "legs", "done", "note"] { #expect(fetched.value(forKey: key) == nil, "\(key)") }
        }
    }

    @Test func aValueOfAnotherTypeIsReleasedWhenReplacedOrFreed() throws {
        final class Marker {}
        weak var replaced: Marker?
        weak var freed: Marker?
        let model = EngineTestModel.make()
        let entity = try #require(model.entitiesByName["Trip"])
        do {
            let object = NSManagedObject(entity: entity, insertInto: nil)
            do {
                let first = Marker()
                let second = Marker()
                replaced = first
                freed = second
                object.setPrimitiveValue(first, forKey: "legs")
                object.setPrimitiveValue(second, forKey: "distance")
            }
            #expect(object.primitiveValue(forKey: "legs") as? Marker === replaced)
            object.setPrimitiveValue(Int64(4), forKey: "legs")
            #expect(replaced == nil)
            #expect(object.primitiveValue(forKey: "legs") as? Int64 == 4)
            #expect(freed != nil)
        }
        #expect(freed == nil)
    }

    @Test func typedAttributesTakeCellsOfTheirOwnSize() throws {
        let model = EngineTestModel.make()
        let trip = try #require(EngineModel.of(model).entity(named: "Trip"))
        let layout = trip.valueLayout
        let kinds = (0..<layout.count).map { layout.cells[$0].kind }
        #expect(kinds.filter { $0 == .string }.count == 2)
        #expect(kinds.filter { $0 == .any }.count == 6)  // code, price, photo and three relationships
        // Tags (one word for up to eight slots, two here), then 8 bytes per scalar, 16 per
        // string, 32 per other value: less than half of an `Any?` per slot.
        let expected = 2 + 4 * 1 + 2 * 2 + 6 * 4
        #expect(layout.wordCount == expected)
        #expect(layout.wordCount * 8 < layout.count * MemoryLayout<Any?>.stride)
        // Entities with the same kinds of slots share one layout.
        #expect(ValueLayout.of(kinds) === layout)
        for slot in 0..<layout.count {
            #expect(layout.cells[slot].offset % 8 == 0)
            if slot > 0 { #expect(layout.cells[slot].offset > layout.cells[slot - 1].offset) }
        }
    }
}
#endif

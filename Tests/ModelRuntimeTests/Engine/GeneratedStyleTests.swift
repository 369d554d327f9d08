#if !canImport(CoreData)
import ModelRuntime
import Testing

/// A subclass written the way generated code is: typed properties over slot accessors, a typed
/// `fetchRequest()`, `init(context:)`.
final class EngineTrip: NSManagedObject {
    static let nameSlot = EngineTrip.slot(forKey: "name")
    static let legsSlot = EngineTrip.slot(forKey: "legs")
    static let stopsSlot = EngineTrip.slot(forKey: "stops")

    var name: String? {
        get { value(atSlot: Self.nameSlot, as: String.self) }
        set { setValue(newValue, atSlot: Self.nameSlot) }
    }
    var legs: Int64 {
        get { value(atSlot: Self.legsSlot, as: Int64.self) ?? 0 }
        set { setValue(newValue, atSlot: Self.legsSlot) }
    }
    var stopObjects: [NSManagedObject] { objects(atSlot: Self.stopsSlot) }

    class func fetchRequest() -> NSFetchRequest<EngineTrip> { NSFetchRequest<EngineTrip>(entityName: "Trip") }
}

/// Classes named without their module, as generated code names them in the model; only
/// `ClassLookupTrip` is ever used by name, so `ClassLookupStop` must be found through its module.
final class ClassLookupTrip: NSManagedObject {}
final class ClassLookupStop: NSManagedObject {}

struct GeneratedStyleTests {
    static func model() -> NSManagedObjectModel {
        let model = EngineTestModel.make()
        model.entitiesByName["Trip"]!.managedObjectClassName = "EngineTrip"
        return model
    }

    @Test func subclassesReadAndWriteBySlotAndFetchTyped() throws {
        let (_, context) = try EngineTestModel.stack(model: Self.model())
        try context.performAndWait { () throws in
            let trip = EngineTrip(context: context)
            trip.name = "Typed"
            trip.legs = 4
            _ = EngineTestModel.insert("Stop", into: context, ["trip": trip])
            #expect(trip.value(forKey: "name") as? String == "Typed")
            #expect(trip.stopObjects.count == 1)
            try context.save()
            context.reset()
            let typed: [EngineTrip] = try context.fetch(EngineTrip.fetchRequest())
            #expect(typed.first?.name == "Typed" && typed.first?.legs == 4)
            let any = try context.fetch(NSFetchRequest<NSFetchRequestResult>(entityName: "Trip"))
            #expect(any.first is EngineTrip)
            let plain = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            #expect(plain.first === typed.first)
            let untyped: NSFetchRequest<NSFetchRequestResult> = EngineTrip.fetchRequest()
            #expect(untyped.entityName == "Trip")
        }
    }

    @Test func destinationsGetTheirClassFromTheModuleOfAClassAlreadyUsed() throws {
        let model = EngineTestModel.make()
        model.entitiesByName["Trip"]!.managedObjectClassName = "ClassLookupTrip"
        model.entitiesByName["Stop"]!.managedObjectClassName = "ClassLookupStop"
        let (_, context) = try EngineTestModel.stack(model: model)
        try context.performAndWait { () throws in
            let trip = ClassLookupTrip(context: context)
            trip.setValue("Lookup", forKey: "name")
            _ = EngineTestModel.insert("Stop", into: context, ["trip": trip])
            try context.save()
            context.reset()
            let trips = try context.fetch(NSFetchRequest<ClassLookupTrip>(entityName: "Trip"))
            let stops = trips.first?.mutableOrderedSetValue(forKey: "stops").array ?? []
            #expect(stops.count == 1)
            #expect(stops.allSatisfy { $0 is ClassLookupStop })
        }
    }

    @Test func predicatesEvaluateOnObjectsInMemory() throws {
        let (_, context) = try EngineTestModel.stack(model: Self.model())
        context.performAndWait {
            let trip = EngineTrip(context: context)
            trip.name = "Alps"
            trip.legs = 3
            #expect(NSPredicate(format: "name == 'Alps' AND legs > 2").evaluate(with: trip))
            #expect(NSPredicate(format: "self == %@", trip.objectID).evaluate(with: trip))
            #expect(!NSPredicate(format: "legs > 5").evaluate(with: trip))
        }
    }

    @Test func validationPredicatesGiveCoreDataErrorCodes() throws {
        let model = EngineTestModel.make()
        let stop = model.entitiesByName["Stop"]!
        let name = stop.attributesByName["name"]!
        name.setValidationPredicates(
            [NSPredicate(format: "length >= 2"), NSPredicate(format: "SELF MATCHES '[a-z]+'")],
            withValidationWarnings: ["short", "pattern"])
        let order = stop.attributesByName["order"]!
        order.setValidationPredicates([NSPredicate(format: "SELF <= 10")], withValidationWarnings: ["large"])
        let (_, context) = try EngineTestModel.stack(model: model)
        context.performAndWait {
            let bad = EngineTestModel.insert("Stop", into: context, ["name": "A", "order": 11])
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.code == NSValidationMultipleErrorsError)
                let codes = Set((error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code))
                #expect(
                    codes == [NSValidationStringTooShortError, NSValidationStringPatternMatchingError, NSValidationNumberTooLargeError])
            }
            bad.setValue("ok", forKey: "name")
            bad.setValue(3, forKey: "order")
            #expect(throws: Never.self) { try context.save() }
        }
    }
}
#endif

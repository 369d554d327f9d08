#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `validateValue(_:forKey:)`: a proposed value checked as a save would check it, with Core
/// Data's error codes, before it is set.
struct ValidateValueTests {
    private func context() throws -> NSManagedObjectContext {
        let model = EngineTestModel.make()
        let stop = model.entitiesByName["Stop"]!
        stop.attributesByName["name"]!.setValidationPredicates(
            [NSPredicate(format: "length >= 2"), NSPredicate(format: "SELF MATCHES '[a-z]+'")],
            withValidationWarnings: ["short", "pattern"])
        stop.attributesByName["order"]!.setValidationPredicates([NSPredicate(format: "SELF <= 10")], withValidationWarnings: ["large"])
        return try EngineTestModel.stack(model: model).1
    }

    private func code(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            return (error as NSError).code
        }
    }

    @Test func attributeValuesAreCheckedAgainstTheirPredicatesAndOptionality() throws {
        let context = try context()
        context.performAndWait {
            let stop = EngineTestModel.insert("Stop", into: context)
            var value: AnyObject? = "a" as NSString
            #expect(code { try stop.validateValue(&value, forKey: "name") } == NSValidationStringTooShortError)
            value = "A" as NSString
            #expect(code { try stop.validateValue(&value, forKey: "name") } == NSValidationMultipleErrorsError)
            value = "ab" as NSString
            #expect(code { try stop.validateValue(&value, forKey: "name") } == nil)
            value = "AB" as NSString
            #expect(code { try stop.validateValue(&value, forKey: "name") } == NSValidationStringPatternMatchingError)
            value = NSNumber(value: 11)
            #expect(code { try stop.validateValue(&value, forKey: "order") } == NSValidationNumberTooLargeError)
            value = NSNumber(value: 3)
            #expect(code { try stop.validateValue(&value, forKey: "order") } == nil)
            // Nothing was set: validation only checks.
            #expect(stop.value(forKey: "order") == nil)

            let trip = EngineTestModel.insert("Trip", into: context)
            value = nil
            #expect(code { try trip.validateValue(&value, forKey: "name") } == NSValidationMissingMandatoryPropertyError)
            value = NSNull()
            #expect(code { try trip.validateValue(&value, forKey: "name") } == NSValidationMissingMandatoryPropertyError)
            value = nil
            #expect(code { try trip.validateValue(&value, forKey: "note") } == nil)
            #expect(code { try trip.validateValue(&value, forKey: "noSuchKey") } == nil)
        }
    }

    @Test func relationshipValuesAreCheckedAgainstTheirCounts() throws {
        let model = EngineTestModel.make()
        let stops = model.entitiesByName["Trip"]!.relationshipsByName["stops"]!
        stops.minCount = 1
        stops.maxCount = 2
        stops.isOptional = false
        let (_, context) = try EngineTestModel.stack(model: model)
        context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "T"])
            let made = (0..<3).map { _ in EngineTestModel.insert("Stop", into: context) }
            var value: AnyObject? = NSOrderedSet(array: made)
            #expect(code { try trip.validateValue(&value, forKey: "stops") } == NSValidationRelationshipExceedsMaximumCountError)
            value = NSOrderedSet(array: Array(made.prefix(2)))
            #expect(code { try trip.validateValue(&value, forKey: "stops") } == nil)
            value = NSOrderedSet()
            #expect(code { try trip.validateValue(&value, forKey: "stops") } == NSValidationRelationshipLacksMinimumCountError)
            let stop = made[0]
            value = trip
            #expect(code { try stop.validateValue(&value, forKey: "trip") } == nil)
        }
    }

    @Test func anErrorNamesTheKeyTheObjectAndTheValue() throws {
        let context = try context()
        context.performAndWait {
            let stop = EngineTestModel.insert("Stop", into: context)
            var value: AnyObject? = NSNumber(value: 12)
            do {
                try stop.validateValue(&value, forKey: "order")
                Issue.record("12 is over the maximum")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "order")
                #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === stop)
                #expect((error.userInfo[NSValidationValueErrorKey] as? Int16) == 12)
            }
        }
    }
}
#endif

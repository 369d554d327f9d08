import Foundation
import Testing

/// Key-value coding gives numbers as `NSNumber`, so they cast to any Swift number type that
/// holds them. Evidence: Apple's "Key-Value Coding Programming Guide" (scalar values are wrapped
/// in `NSNumber`) and Core Data's documentation of `value(forKey:)`, `primitiveValue(forKey:)`,
/// `changedValues()` and `committedValues(forKeys:)`, which return Objective-C objects.
struct KeyValueNumberTests {
    static func model() -> NSManagedObjectModel {
        ModelBuilder.model([
            ModelBuilder.entity(
                "Car",
                [
                    ModelBuilder.attribute("speed", .integer64AttributeType), ModelBuilder.attribute("doors", .integer16AttributeType),
                    ModelBuilder.attribute("weight", .doubleAttributeType), ModelBuilder.attribute("isNew", .booleanAttributeType),
                    ModelBuilder.attribute("price", .decimalAttributeType),
                ])
        ])
    }

    @Test func numbersCastToEverySwiftNumberTypeThatHoldsThem() throws {
        let (_, context) = try makeStack(Self.model())
        try context.performAndWait { () throws in
            let car = NSEntityDescription.insertNewObject(forEntityName: "Car", into: context)
            car.setValue(120, forKey: "speed")
            car.setValue(Int16(4), forKey: "doors")
            car.setValue(1250.5, forKey: "weight")
            car.setValue(true, forKey: "isNew")
            car.setValue(Decimal(string: "19999.99"), forKey: "price")
            #expect(car.value(forKey: "speed") as? Int == 120)
            #expect(car.value(forKey: "speed") as? Int64 == 120)
            #expect(car.value(forKey: "speed") as? Double == 120)
            #expect(car.value(forKey: "doors") as? Int == 4)
            #expect(car.value(forKey: "weight") as? Double == 1250.5)
            #expect(car.value(forKey: "isNew") as? Bool == true)
            #expect((car.value(forKey: "speed") as? NSNumber)?.intValue == 120)
            #expect(car.value(forKey: "price") as? Decimal == Decimal(string: "19999.99"))
            #expect(car.primitiveValue(forKey: "speed") as? Int == 120)
            #expect(car.changedValues()["speed"] as? Int == 120)
            try context.save()
            #expect(car.committedValues(forKeys: ["speed", "isNew"])["speed"] as? Int == 120)
            #expect(car.committedValues(forKeys: ["speed", "isNew"])["isNew"] as? Bool == true)
            let request = NSFetchRequest<NSDictionary>(entityName: "Car")
            request.resultType = .dictionaryResultType
            let row = try #require(try context.fetch(request).first)
            #expect(row["speed"] as? Int == 120)
            #expect(row["isNew"] as? Bool == true)
        }
    }
}

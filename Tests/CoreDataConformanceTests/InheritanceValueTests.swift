import Foundation
import Testing

/// Every value reads back from the property it was written to, with inheritance and models
/// built in code. Evidence: Core Data's documentation of key-value coding on managed objects
/// (`value(forKey:)` returns the value of the named property) and of uniqueness constraints
/// (`NSConstraintConflict.constraintValues` are the conflicting object's values of the
/// constraint's properties).
struct InheritanceValueTests {
    /// Person, Car, SportCar: Car, ExpensiveSportCar: SportCar; a unique `numberPlate`.
    static func carModel() -> NSManagedObjectModel {
        let person = ModelBuilder.entity(
            "Person", [ModelBuilder.attribute("firstName", .stringAttributeType), ModelBuilder.attribute("lastName", .stringAttributeType)])
        let car = ModelBuilder.entity(
            "Car",
            [
                ModelBuilder.attribute("maker", .stringAttributeType), ModelBuilder.attribute("model", .stringAttributeType),
                ModelBuilder.attribute("numberPlate", .stringAttributeType, optional: false),
            ])
        car.uniquenessConstraints = [["numberPlate"]]
        let sportCar = ModelBuilder.entity("SportCar", [ModelBuilder.attribute("isLimitedEdition", .booleanAttributeType)], parent: car)
        let expensive = ModelBuilder.entity("ExpensiveSportCar", [ModelBuilder.attribute("price", .doubleAttributeType)], parent: sportCar)
        ModelBuilder.relate(person, "cars", toMany: true, car, "owner", inverseToMany: false)
        return ModelBuilder.model([person, car, sportCar, expensive])
    }

    @Test func carsOfThreeKindsOwnedByPeopleSaveAndReadBackTheirOwnValues() throws {
        let folder = TemporaryFolder()
        let (_, context) = try makeStack(Self.carModel(), in: folder)
        try context.performAndWait { () throws in
            var people: [NSManagedObject] = []
            for index in 0..<20 {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("First\(index)", forKey: "firstName")
                person.setValue("Last\(index)", forKey: "lastName")
                people.append(person)
            }
            for index in 0..<125 {
                let kind = ["Car", "SportCar", "ExpensiveSportCar"][index % 3]
                let car = NSEntityDescription.insertNewObject(forEntityName: kind, into: context)
                car.setValue("plate-\(index)", forKey: "numberPlate")
                car.setValue("maker-\(index)", forKey: "maker")
                car.setValue(people[index % 20], forKey: "owner")
                if kind != "Car" { car.setValue(index % 2 == 0, forKey: "isLimitedEdition") }
                if kind == "ExpensiveSportCar" { car.setValue(Double(index) * 1000, forKey: "price") }
            }
            try context.save()
            context.reset()
            let cars = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car"))
            #expect(cars.count == 125)
            for car in cars {
                let plate = try #require(car.value(forKey: "numberPlate") as? String)
                let index = try #require(Int(plate.dropFirst("plate-".count)))
                #expect(car.value(forKey: "maker") as? String == "maker-\(index)")
                #expect(car.entity.name == ["Car", "SportCar", "ExpensiveSportCar"][index % 3])
                let owner = try #require(car.value(forKey: "owner") as? NSManagedObject)
                #expect(owner.value(forKey: "firstName") as? String == "First\(index % 20)")
                if car.entity.name == "ExpensiveSportCar" { #expect(car.value(forKey: "price") as? Double == Double(index) * 1000) }
            }
        }
    }
}

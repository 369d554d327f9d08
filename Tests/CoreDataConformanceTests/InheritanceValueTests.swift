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

/// Relating objects of sub-entities from the parent entity's side: every value stays in its
/// property. Evidence: Core Data's documentation of `mutableSetValue(forKey:)` (changes to the
/// set change the relationship, and Core Data maintains the inverse) and of relationships
/// (setting one side of a relationship with an inverse updates the other side).
struct SubentityInverseTests {
    @Test func carsAddedToTheirOwnersKeepTheirNumberPlates() throws {
        let folder = TemporaryFolder()
        let (_, context) = try makeStack(InheritanceValueTests.carModel(), in: folder)
        try context.performAndWait { () throws in
            var people: [NSManagedObject] = []
            for index in 0..<20 {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("First\(index)", forKey: "firstName")
                people.append(person)
            }
            for index in 0..<125 {
                let kind = ["Car", "SportCar", "ExpensiveSportCar"][index % 3]
                let car = NSEntityDescription.insertNewObject(forEntityName: kind, into: context)
                car.setValue("plate-\(index)", forKey: "numberPlate")
                car.setValue("maker-\(index)", forKey: "maker")
                if kind != "Car" { car.setValue(index % 2 == 0, forKey: "isLimitedEdition") }
                if kind == "ExpensiveSportCar" { car.setValue(Double(index), forKey: "price") }
                // From the owner's side: the inverse (`owner`) is set in the car's own entity.
                people[index % 20].mutableSetValue(forKey: "cars").add(car)
                #expect(car.value(forKey: "numberPlate") as? String == "plate-\(index)")
                #expect(car.value(forKey: "owner") as? NSManagedObject === people[index % 20])
            }
            // A whole set, replacing the first person's cars with three new ones.
            let replacements = (0..<3).map { offset -> NSManagedObject in
                let car = NSEntityDescription.insertNewObject(
                    forEntityName: ["ExpensiveSportCar", "SportCar", "Car"][offset], into: context)
                car.setValue("new-\(offset)", forKey: "numberPlate")
                return car
            }
            people[0].setValue(NSSet(array: replacements), forKey: "cars")
            try context.save()
            context.reset()
            let cars = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car"))
            #expect(cars.count == 128)
            for car in cars {
                let plate = try #require(car.value(forKey: "numberPlate") as? String)
                let owner = car.value(forKey: "owner") as? NSManagedObject
                if plate.hasPrefix("new-") {
                    #expect(owner?.value(forKey: "firstName") as? String == "First0")
                    continue
                }
                let index = try #require(Int(plate.dropFirst("plate-".count)))
                #expect(car.value(forKey: "maker") as? String == "maker-\(index)")
                #expect(car.entity.name == ["Car", "SportCar", "ExpensiveSportCar"][index % 3])
                if index % 20 == 0 {
                    #expect(owner == nil)
                } else {
                    #expect(owner?.value(forKey: "firstName") as? String == "First\(index % 20)")
                }
                if car.entity.name == "ExpensiveSportCar" { #expect(car.value(forKey: "price") as? Double == Double(index)) }
            }
        }
    }
}

/// Taking an object from its previous owner when that owner is a fault: the previous owner
/// loses it, in memory and in the store. Evidence: Core Data's documentation of relationships
/// (Core Data maintains inverses: an object moved to another to-one destination leaves the
/// previous destination's inverse) and of `fetchBatchSize` (objects of other batches are faults
/// until accessed).
struct FaultedInverseTests {
    static func model() -> NSManagedObjectModel {
        let person = ModelBuilder.entity("Person", [ModelBuilder.attribute("name", .stringAttributeType)])
        let passport = ModelBuilder.entity("Passport", [ModelBuilder.attribute("number", .integer64AttributeType)])
        let team = ModelBuilder.entity("Team", [ModelBuilder.attribute("title", .stringAttributeType)])
        ModelBuilder.relate(person, "passport", toMany: false, passport, "holder", inverseToMany: false)
        ModelBuilder.relate(team, "members", toMany: true, person, "team", inverseToMany: false)
        return ModelBuilder.model([person, passport, team])
    }

    @Test func aPassportTakenFromAFaultedHolderLeavesIt() throws {
        let folder = TemporaryFolder()
        let (_, context) = try makeStack(Self.model(), in: folder)
        try context.performAndWait { () throws in
            for index in 0..<40 {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("person-\(index)", forKey: "name")
                let passport = NSEntityDescription.insertNewObject(forEntityName: "Passport", into: context)
                passport.setValue(Int64(index), forKey: "number")
                person.setValue(passport, forKey: "passport")
            }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.fetchBatchSize = 4
            let people = try context.fetch(request)
            let byName = Dictionary(uniqueKeysWithValues: people.map { ($0.value(forKey: "name") as! String, $0) })
            context.refreshAllObjects()
            // Each of the first ten takes the passport of the person twenty places on, who is a
            // fault (another batch) when it happens.
            for index in 0..<10 {
                let taker = try #require(byName["person-\(index)"])
                let passport = try #require(
                    try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Passport")).first {
                        $0.value(forKey: "number") as? Int64 == Int64(index + 20)
                    })
                taker.setValue(passport, forKey: "passport")
            }
            for index in 0..<10 {
                let holder = try #require(byName["person-\(index + 20)"])
                #expect(holder.value(forKey: "passport") == nil, "person-\(index + 20) still holds its passport")
            }
            try context.save()
            context.reset()
            let passports = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Passport"))
            for passport in passports {
                let number = try #require(passport.value(forKey: "number") as? Int64)
                let holder = (passport.value(forKey: "holder") as? NSManagedObject)?.value(forKey: "name") as? String
                // Passports 20…29 changed holders; 0…9 lost theirs (their holders took others).
                #expect(
                    holder == (number >= 20 && number < 30 ? "person-\(number - 20)" : number < 10 ? nil : "person-\(number)"), "\(number)")
            }
            for person in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) {
                let name = try #require(person.value(forKey: "name") as? String)
                let index = try #require(Int(name.dropFirst("person-".count)))
                let number = (person.value(forKey: "passport") as? NSManagedObject)?.value(forKey: "number") as? Int64
                #expect(number == (index < 10 ? Int64(index + 20) : index < 20 || index >= 30 ? Int64(index) : nil), "\(name)")
            }
        }
    }

    @Test func aMemberTakenFromAFaultedTeamLeavesIt() throws {
        let folder = TemporaryFolder()
        let (_, context) = try makeStack(Self.model(), in: folder)
        try context.performAndWait { () throws in
            for index in 0..<30 {
                let team = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
                team.setValue("team-\(index)", forKey: "title")
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("person-\(index)", forKey: "name")
                team.mutableSetValue(forKey: "members").add(person)
            }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            request.fetchBatchSize = 3
            let teams = try context.fetch(request)
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            let person = try #require(people.first { $0.value(forKey: "name") as? String == "person-25" })
            // team-25 is a fault of another batch; team-0 takes its member.
            let first = try #require(teams.first)
            #expect(first.value(forKey: "title") as? String == "team-0")
            first.mutableSetValue(forKey: "members").add(person)
            let previous = try #require(teams.first { $0.value(forKey: "title") as? String == "team-25" })
            #expect((previous.value(forKey: "members") as? NSSet)?.count == 0)
            #expect((first.value(forKey: "members") as? NSSet)?.count == 2)
            #expect(person.value(forKey: "team") as? NSManagedObject === first)
            try context.save()
            context.reset()
            for team in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")) {
                let title = try #require(team.value(forKey: "title") as? String)
                let members = (team.value(forKey: "members") as? NSSet)?.count
                #expect(members == (title == "team-0" ? 2 : title == "team-25" ? 0 : 1), "\(title)")
            }
        }
    }
}

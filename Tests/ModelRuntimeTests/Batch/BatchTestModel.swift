#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// A code-built model for batch requests: owners with pets (nullify, optional inverse), cars
/// with wheels (cascade, two levels), licences (deny), clubs (many-to-many), a country (to-one
/// to an entity with a unique code), and kennels whose dogs require their kennel.
enum BatchTestModel {
    typealias M = EngineTestModel

    static func pair(
        _ a: NSEntityDescription, _ many: String, rule: NSDeleteRule, _ b: NSEntityDescription, _ one: String, oneIsOptional: Bool = true,
        manyToMany: Bool = false
    ) -> (NSRelationshipDescription, NSRelationshipDescription) {
        let forward = M.relationship(many, to: b, toMany: true, rule: rule)
        let back = M.relationship(one, to: a, toMany: manyToMany)
        back.isOptional = oneIsOptional
        forward.inverseRelationship = back
        back.inverseRelationship = forward
        return (forward, back)
    }

    static func make() -> NSManagedObjectModel {
        func entity(_ name: String) -> NSEntityDescription {
            let entity = NSEntityDescription()
            entity.name = name
            return entity
        }
        let owner = entity("Owner")
        let pet = entity("Pet")
        let car = entity("Car")
        let wheel = entity("Wheel")
        let licence = entity("Licence")
        let club = entity("Club")
        let country = entity("Country")
        let kennel = entity("Kennel")
        let dog = entity("Dog")
        let pets = pair(owner, "pets", rule: .nullifyDeleteRule, pet, "owner")
        let cars = pair(owner, "cars", rule: .cascadeDeleteRule, car, "owner")
        let wheels = pair(car, "wheels", rule: .cascadeDeleteRule, wheel, "car")
        let licences = pair(owner, "licences", rule: .denyDeleteRule, licence, "owner")
        let clubs = pair(owner, "clubs", rule: .nullifyDeleteRule, club, "members", manyToMany: true)
        let owners = pair(country, "owners", rule: .denyDeleteRule, owner, "country")
        let dogs = pair(kennel, "dogs", rule: .nullifyDeleteRule, dog, "kennel", oneIsOptional: false)
        owner.properties = [
            M.attribute("name", .stringAttributeType, optional: false),
            M.attribute("age", .integer64AttributeType, defaultValue: 0),
            M.attribute("score", .doubleAttributeType),
            M.attribute("since", .dateAttributeType),
            M.attribute("active", .booleanAttributeType, defaultValue: true),
            pets.0, cars.0, licences.0, clubs.0, owners.1,
        ]
        pet.properties = [M.attribute("name", .stringAttributeType), pets.1]
        car.properties = [M.attribute("plate", .stringAttributeType), cars.1, wheels.0]
        wheel.properties = [M.attribute("position", .integer16AttributeType), wheels.1]
        licence.properties = [M.attribute("number", .stringAttributeType), licences.1]
        club.properties = [M.attribute("title", .stringAttributeType), clubs.1]
        country.properties = [
            M.attribute("code", .stringAttributeType, optional: false), M.attribute("name", .stringAttributeType), owners.0,
        ]
        country.uniquenessConstraints = [["code"]]
        kennel.properties = [M.attribute("name", .stringAttributeType), dogs.0]
        dog.properties = [M.attribute("name", .stringAttributeType), dogs.1]
        let model = NSManagedObjectModel()
        model.entities = [owner, pet, car, wheel, licence, club, country, kennel, dog]
        return model
    }

    /// A file store (so tests can read its tables with SQLite) and a context.
    static func stack(_ folder: EngineTestModel.Folder, policy: Any = NSErrorMergePolicy) throws -> (
        NSPersistentStoreCoordinator, NSManagedObjectContext
    ) {
        let (coordinator, context) = try EngineTestModel.stack(model: make(), url: folder.store)
        context.mergePolicy = policy
        return (coordinator, context)
    }

    /// The rows of `sql` in the store file, as integers, reals and text.
    static func rows(_ folder: EngineTestModel.Folder, _ sql: String) throws -> [[SQLiteValue]] {
        let connection = try StoreConnection(path: folder.store.path, mode: .readOnly)
        return try connection.rows(sql)
    }

    static func integers(_ folder: EngineTestModel.Folder, _ sql: String) throws -> [Int64] {
        try rows(folder, sql).map { row in
            if case .integer(let value) = row.first { return value }
            return -1
        }
    }

    static func fetch(_ context: NSManagedObjectContext, _ entity: String, sortedBy key: String? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        if let key { request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)] }
        return try context.fetch(request)
    }
}
#endif

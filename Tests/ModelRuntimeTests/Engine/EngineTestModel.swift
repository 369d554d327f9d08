#if !canImport(CoreData)
import ModelRuntime
import Testing

/// A code-built model for the engine's tests: trips with stops (ordered to-many, cascade),
/// tags (many-to-many, unique names), people with a sub-entity, and a required attribute.
enum EngineTestModel {
    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil)
        -> NSAttributeDescription
    {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.defaultValue = defaultValue
        return attribute
    }

    static func relationship(
        _ name: String, to destination: NSEntityDescription, toMany: Bool, rule: NSDeleteRule = .nullifyDeleteRule, ordered: Bool = false
    ) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.deleteRule = rule
        relationship.isOrdered = ordered
        return relationship
    }

    static func make() -> NSManagedObjectModel {
        let trip = NSEntityDescription()
        trip.name = "Trip"
        let stop = NSEntityDescription()
        stop.name = "Stop"
        let tag = NSEntityDescription()
        tag.name = "Tag"
        let person = NSEntityDescription()
        person.name = "Person"
        let driver = NSEntityDescription()
        driver.name = "Driver"
        let stops = relationship("stops", to: stop, toMany: true, rule: .cascadeDeleteRule, ordered: true)
        let stopTrip = relationship("trip", to: trip, toMany: false)
        stops.inverseRelationship = stopTrip
        stopTrip.inverseRelationship = stops
        let tags = relationship("tags", to: tag, toMany: true)
        let tagTrips = relationship("trips", to: trip, toMany: true)
        tags.inverseRelationship = tagTrips
        tagTrips.inverseRelationship = tags
        let travellers = relationship("travellers", to: person, toMany: true, rule: .denyDeleteRule)
        let personTrip = relationship("trip", to: trip, toMany: false)
        travellers.inverseRelationship = personTrip
        personTrip.inverseRelationship = travellers
        trip.properties = [
            attribute("name", .stringAttributeType, optional: false),
            attribute("start", .dateAttributeType),
            attribute("distance", .doubleAttributeType, defaultValue: 0.0),
            attribute("legs", .integer64AttributeType, defaultValue: 1),
            attribute("done", .booleanAttributeType, defaultValue: false),
            attribute("code", .UUIDAttributeType),
            attribute("price", .decimalAttributeType),
            attribute("photo", .binaryDataAttributeType),
            attribute("note", .stringAttributeType),
            stops, tags, travellers,
        ]
        stop.properties = [attribute("name", .stringAttributeType), attribute("order", .integer16AttributeType), stopTrip]
        let tagName = attribute("name", .stringAttributeType, optional: false)
        tag.properties = [tagName, attribute("uses", .integer32AttributeType, defaultValue: 0), tagTrips]
        tag.uniquenessConstraints = [["name"]]
        person.properties = [attribute("name", .stringAttributeType), personTrip]
        driver.properties = [attribute("licence", .stringAttributeType)]
        person.subentities = [driver]
        let model = NSManagedObjectModel()
        model.entities = [trip, stop, tag, person, driver]
        return model
    }

    /// A temporary folder removed when the value goes away.
    final class Folder {
        let url: URL
        init() {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("engine-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        var store: URL { url.appendingPathComponent("Trips.sqlite") }
    }

    /// A coordinator with one store (in memory unless a URL is given) and a private-queue context.
    static func stack(model: NSManagedObjectModel = make(), url: URL? = nil) throws -> (
        NSPersistentStoreCoordinator, NSManagedObjectContext
    ) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        if let url {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        } else {
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    static func insert(_ entity: String, into context: NSManagedObjectContext, _ values: [String: Any] = [:]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }
}
#endif

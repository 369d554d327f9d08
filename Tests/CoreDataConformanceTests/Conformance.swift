import Foundation

// Core Data conformance: behaviour tests that use only Core Data's public API — no `@testable`,
// no symbol of ModelRuntime's own — so each file compiles and runs unchanged against Apple's
// Core Data (`import CoreData`) and against ModelRuntime on Linux. Every suite names its
// evidence: Apple's documentation, a header comment of the SDK, or a store Apple's Core Data
// wrote. Models are built in code, as apps and libraries build them in their tests.
#if canImport(CoreData)
@_exported import CoreData
#else
@_exported import ModelRuntime
// Linux's Foundation declares its own `NSExpression` and `NSPredicate`; the module alias the
// runtime's documentation gives makes the names mean Core Data's, as they do on Apple platforms.
typealias NSExpression = ModelRuntime.NSExpression
typealias NSPredicate = ModelRuntime.NSPredicate
#endif

/// A private folder under the temporary directory, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Building models in code, as Core Data code does.
enum ModelBuilder {
    static func entity(
        _ name: String, _ properties: [NSPropertyDescription] = [], parent: NSEntityDescription? = nil, abstract: Bool = false
    )
        -> NSEntityDescription
    {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = "NSManagedObject"
        entity.properties = properties
        entity.isAbstract = abstract
        if let parent { parent.subentities.append(entity) }
        return entity
    }

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    /// A relationship and its inverse, added to both entities.
    static func relate(
        _ source: NSEntityDescription, _ name: String, toMany: Bool, ordered: Bool = false, _ destination: NSEntityDescription,
        _ inverseName: String, inverseToMany: Bool, deleteRule: NSDeleteRule = .nullifyDeleteRule
    ) {
        let forward = NSRelationshipDescription()
        forward.name = name
        forward.destinationEntity = destination
        forward.maxCount = toMany ? 0 : 1
        forward.isOrdered = ordered
        forward.deleteRule = deleteRule
        let inverse = NSRelationshipDescription()
        inverse.name = inverseName
        inverse.destinationEntity = source
        inverse.maxCount = inverseToMany ? 0 : 1
        forward.inverseRelationship = inverse
        inverse.inverseRelationship = forward
        source.properties.append(forward)
        destination.properties.append(inverse)
    }

    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }
}

/// A coordinator with one SQLite store in `folder` (or in memory) and a private-queue context.
func makeStack(_ model: NSManagedObjectModel, in folder: TemporaryFolder? = nil, name: String = "Store.sqlite") throws -> (
    NSPersistentStoreCoordinator, NSManagedObjectContext
) {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    if let folder {
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.url.appendingPathComponent(name), options: nil)
    } else {
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
    }
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return (coordinator, context)
}

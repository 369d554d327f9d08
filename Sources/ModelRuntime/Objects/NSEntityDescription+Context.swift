#if !canImport(CoreData)
import Foundation

extension NSEntityDescription {
    /// The entity named `entityName` in the model of the context's coordinator.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        guard let coordinator = context.persistentStoreCoordinator else { return nil }
        // The engine's index of the model in use, without the model's lock.
        return coordinator.engineModel.entity(named: entityName)?.description ?? coordinator.managedObjectModel.entitiesByName[entityName]
    }

    /// Inserts a new object of the named entity into the context, of the entity's class.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        // The engine's entity is handed to the initialiser, which then need not look it up.
        if let engine = context.persistentStoreCoordinator?.engineModel.entity(named: entityName) {
            let type = ClassRegistry.objectClass(for: engine.description)
            return EngineHandoff.offering(engine) { type.init(entity: engine.description, insertInto: context) }
        }
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("+entityForName: could not locate an entity named '\(entityName)' in this model.")
        }
        let type = ClassRegistry.objectClass(for: entity)
        return type.init(entity: entity, insertInto: context)
    }
}
#endif

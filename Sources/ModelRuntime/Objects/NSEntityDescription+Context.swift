#if !canImport(CoreData)
import ModelQuery

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
        let found: (EngineEntity, NSManagedObject.Type)?
        if let model = context.coordinatorModel {
            found = model._withUnsafeGuaranteedRef { lookUp(entityName, in: $0) }
        } else if let model = context.persistentStoreCoordinator?.engineModel {
            found = lookUp(entityName, in: model)
        } else {
            found = nil
        }
        if let (engine, type) = found {
            // The description is passed borrowed from the engine data, which holds it: retaining
            // it would take the slow path (entities are weakly referenced by their properties).
            return EngineHandoff.offering(engine) {
                Unmanaged.passUnretained(engine)._withUnsafeGuaranteedRef { type.init(entity: $0.description, insertInto: context) }
            }
        }
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("+entityForName: could not locate an entity named '\(entityName)' in this model.")
        }
        let type = ClassRegistry.objectClass(for: entity)
        return type.init(entity: entity, insertInto: context)
    }

    private static func lookUp(_ name: String, in model: EngineModel) -> (EngineEntity, NSManagedObject.Type)? {
        let lookup = InsertLookup.current
        return lookup.find(name, in: model) ?? lookup.resolve(name, in: model)
    }
}

/// The entity and class `insertNewObject(forEntityName:into:)` found last on this thread, so a
/// run of insertions of one entity looks up neither (the name in the model, the class behind
/// the class registry's lock) per object. Valid while the same model is asked for the same name
/// and no class was recorded for an entity since (``ClassRegistry/generation``). The cache keeps
/// neither the model nor the entity alive, and refers to neither weakly (see ``EngineEntity``):
/// the model is known by its serial, and the entity is used only when the model asked about is
/// that model, which owns it.
final class InsertLookup {
    private var modelSerial = -1
    private unowned(unsafe) var engine: EngineEntity?
    private var name = ""
    private var type: NSManagedObject.Type = NSManagedObject.self
    private var generation = -1

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<InsertLookup>.fromOpaque(raw).release() } }
        return key
    }()

    /// This thread's cache.
    static var current: InsertLookup {
        if let raw = pthread_getspecific(key) { return Unmanaged<InsertLookup>.fromOpaque(raw).takeUnretainedValue() }
        let made = InsertLookup()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The cached entity and class when they answer `name` in `model`.
    @inline(__always)
    func find(_ name: String, in model: EngineModel) -> (EngineEntity, NSManagedObject.Type)? {
        guard modelSerial == model.serial, self.name == name, generation == ClassRegistry.generation.load(ordering: .acquiring),
            let engine
        else { return nil }
        return (engine, type)
    }

    /// Looks `name` up in `model` and remembers the answer.
    func resolve(_ name: String, in model: EngineModel) -> (EngineEntity, NSManagedObject.Type)? {
        let generation = ClassRegistry.generation.load(ordering: .acquiring)
        guard let engine = model.entity(named: name) else { return nil }
        let type = ClassRegistry.objectClass(for: engine.description)
        modelSerial = model.serial
        self.engine = engine
        self.name = name
        self.type = type
        self.generation = generation
        return (engine, type)
    }
}
#endif

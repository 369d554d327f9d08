// What the Core Data stand-in of the generated-code tests (Tests/ModelCompilerTests/Golden/
// CoreDataStandIn.swift) claims about Core Data, written as client code. It must typecheck
// against the stand-in (GeneratedCodeTests) and against the real SDK (Scripts/api-shape/check.sh):
// a claim that fails against the SDK is a claim the stand-in must not make.
import CoreData
import Foundation

// NSFetchRequestResult: an Objective-C protocol, class-bound, whose existential is a result type.
func c01<T: NSFetchRequestResult>(_ t: T) -> AnyObject { t }
func c02() -> AnyObject { NSFetchRequest<NSFetchRequestResult>(entityName: "E") }
func c03() -> AnyObject { NSFetchRequest<NSManagedObjectID>(entityName: "E") }

// NSManagedObjectID: an NSObject, Sendable and NSCopying.
func c04(_ id: NSManagedObjectID) -> any Sendable { id }
func c05(_ id: NSManagedObjectID) -> Any { id.copy() }
func c06(_ id: NSManagedObjectID) -> (Bool, URL) { (id.isTemporaryID, id.uriRepresentation()) }

// NSManagedObject: its initialisers and members, with their types.
func c07(_ o: NSManagedObject, _ c: NSManagedObjectContext, _ e: NSEntityDescription) throws {
    let _: NSManagedObjectID = o.objectID
    let _: (String) -> Any? = o.value(forKey:)
    let _: (Any?, String) -> Void = o.setValue(_:forKey:)
    let _: (String) -> Any? = o.primitiveValue(forKey:)
    let _: (Any?, String) -> Void = o.setPrimitiveValue(_:forKey:)
    let _: (String?) -> Void = o.willAccessValue(forKey:)
    let _: (String?) -> Void = o.didAccessValue(forKey:)
    let _: (String) -> Void = o.willChangeValue(forKey:)
    let _: (String) -> Void = o.didChangeValue(forKey:)
    let _: any NSFetchRequestResult = o
    let _: NSManagedObjectContext? = o.managedObjectContext
    let _: NSEntityDescription = o.entity
    let _: [Bool] = [o.isInserted, o.isUpdated, o.isDeleted, o.hasChanges, o.hasPersistentChangedValues, o.isFault]
    let _: Int = o.faultingState
    let _: Bool = o.hasFault(forRelationshipNamed: "r")
    let _: [NSManagedObjectID] = o.objectIDs(forRelationshipNamed: "r")
    let _: [String: Any] = o.committedValues(forKeys: nil)
    let _: [String: Any] = o.changedValues()
    let _: [String: Any] = o.changedValuesForCurrentEvent()
    try o.validateForInsert()
    try o.validateForUpdate()
    try o.validateForDelete()
    _ = NSManagedObject(entity: e, insertInto: c)
    _ = NSManagedObject(context: c)
    _ = NSManagedObject()
    _ = NSManagedObject.entity()
    _ = NSManagedObject.fetchRequest()
}

// A subclass overrides the life-cycle methods and inherits the initialisers.
final class C08: NSManagedObject {
    override func awakeFromInsert() {}
    override func awakeFromFetch() {}
    override func willSave() {}
    override func didSave() {}
    override func prepareForDeletion() {}
    override func willTurnIntoFault() {}
    override func didTurnIntoFault() {}
    override func value(forKey key: String) -> Any? { nil }
    @nonobjc class func fetchRequest() -> NSFetchRequest<C08> { NSFetchRequest<C08>(entityName: "C08") }
}
func c08(_ c: NSManagedObjectContext) -> [C08] { [C08(context: c), C08()] }

// NSFetchRequest: `init()` designated, `init(entityName:)` convenience; its properties.
final class C09: NSFetchRequest<NSManagedObject> {
    override init() { super.init() }
    convenience init(name: String) { self.init(entityName: name) }
    required init?(coder: NSCoder) { nil }
}
func c09(_ r: NSFetchRequest<NSManagedObject>) -> String? {
    r.predicate = nil
    r.sortDescriptors = nil
    r.fetchLimit = 1
    return r.entityName
}

// NSManagedObjectModel: `init()` designated, `init?(contentsOf:)` convenience.
final class C10: NSManagedObjectModel {
    override init() { super.init() }
    required init?(coder: NSCoder) { nil }
}
func c10(_ u: URL) -> NSManagedObjectModel? { NSManagedObjectModel(contentsOf: u) ?? C10() }

// NSPersistentContainer: Sendable; a subclass inherits both initialisers and overrides the directory.
final class C11: NSPersistentContainer, @unchecked Sendable {
    override class func defaultDirectoryURL() -> URL { URL(fileURLWithPath: "/tmp") }
}
func c11(_ m: NSManagedObjectModel) -> [any Sendable] { [C11(name: "n", managedObjectModel: m), C11(name: "n"), NSPersistentContainer(name: "n")] }

// NSBatchInsertRequest: `init(entityName:objects:)` designated, the handler form convenience.
func c12() -> [NSPersistentStoreRequest] {
    [
        NSBatchInsertRequest(entityName: "E", objects: []),
        NSBatchInsertRequest(entityName: "E", dictionaryHandler: { (_: NSMutableDictionary) -> Bool in true }),
    ]
}

func c13(_ d: NSPersistentStoreDescription) {
    d.shouldMigrateStoreAutomatically = true
    d.shouldInferMappingModelAutomatically = true
    let _: (NSObject?, String) -> Void = d.setOption(_:forKey:)
}

func c14() -> String { NSPersistentStoreStagedMigrationManagerOptionKey }

// Staged migration: convenience initialisers, handlers settable (not overridable).
@available(iOS 17, *)
func c15(_ u: URL, _ a: NSManagedObjectModelReference, _ b: NSManagedObjectModelReference) -> NSStagedMigrationManager {
    let stage = NSCustomMigrationStage(migratingFrom: a, to: b)
    let handler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? = { _, _ in }
    stage.willMigrateHandler = handler
    stage.didMigrateHandler = handler
    stage.label = nil
    let reference = NSManagedObjectModelReference(fileURL: u, versionChecksum: "c")
    _ = reference
    let manager = NSStagedMigrationManager([NSLightweightMigrationStage(["a"]), stage])
    let _: [NSMigrationStage] = manager.stages
    let _: NSPersistentContainer? = manager.container
    return manager
}

let c16: Int = NSCoreDataError

@available(iOS 17, *)
func c17(_ p: Predicate<NSManagedObject>) -> NSPredicate? { NSPredicate(p) }
@available(iOS 15, *)
func c18(_ s: SortDescriptor<NSManagedObject>) -> NSSortDescriptor { NSSortDescriptor(s) }

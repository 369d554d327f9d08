// A stand-in for the parts of Core Data that generated code uses, with the same signatures, so
// the generated sources can be typechecked on Linux (swiftc with Objective-C interop enabled).
// Foundation's NSSet, NSOrderedSet and NSIndexSet are not @objc classes on Linux, so the test
// renames them in a copy of the generated code to the @objc stand-ins declared here.
import Foundation

// As in the iOS 17.4 SDK: an Objective-C protocol, whose existential conforms to itself (so
// `NSFetchRequest<NSFetchRequestResult>` compiles). The SDK's refines NSObjectProtocol, which is
// not an Objective-C protocol in Linux Foundation.
@objc public protocol NSFetchRequestResult {}

@objc open class NSEntityDescription: NSObject {
    open var name: String?
}

@objc open class NSManagedObjectContext: NSObject {}

/// Sendable and NSCopying, as Core Data's.
@objc open class NSManagedObjectID: NSObject, NSCopying, NSFetchRequestResult, @unchecked Sendable {
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open var isTemporaryID: Bool { false }
    open func uriRepresentation() -> URL { URL(fileURLWithPath: "/") }
}

// The members generated subclasses could clash with, with the SDK's kinds of declaration: the
// designated `init(entity:insertInto:)` (so `init()` is not inherited), the convenience
// `init(context:)`, the class's entity and fetch request, the state properties and the
// life-cycle methods subclasses override.
@objc open class NSManagedObject: NSObject, NSFetchRequestResult {
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) { super.init() }
    public convenience init(context moc: NSManagedObjectContext) { self.init(entity: NSEntityDescription(), insertInto: moc) }
    /// Objective-C's `init`, which the SDK's class keeps (subclasses inherit it).
    public convenience override init() { self.init(entity: NSEntityDescription(), insertInto: nil) }
    open class func entity() -> NSEntityDescription { NSEntityDescription() }
    open var managedObjectContext: NSManagedObjectContext? { nil }
    open var entity: NSEntityDescription { NSEntityDescription() }
    open var isInserted: Bool { false }
    open var isUpdated: Bool { false }
    open var isDeleted: Bool { false }
    open var hasChanges: Bool { false }
    open var hasPersistentChangedValues: Bool { false }
    open var isFault: Bool { false }
    open var faultingState: Int { 0 }
    open func hasFault(forRelationshipNamed key: String) -> Bool { false }
    open func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] { [] }
    open func awakeFromFetch() {}
    open func awakeFromInsert() {}
    open func prepareForDeletion() {}
    open func willSave() {}
    open func didSave() {}
    open func willTurnIntoFault() {}
    open func didTurnIntoFault() {}
    open func committedValues(forKeys keys: [String]?) -> [String: Any] { [:] }
    open func changedValues() -> [String: Any] { [:] }
    open func changedValuesForCurrentEvent() -> [String: Any] { [:] }
    open func validateForDelete() throws {}
    open func validateForInsert() throws {}
    open func validateForUpdate() throws {}
    open var objectID: NSManagedObjectID { NSManagedObjectID() }
    open func value(forKey key: String) -> Any? { nil }
    open func setValue(_ value: Any?, forKey key: String) {}
    open func primitiveValue(forKey key: String) -> Any? { nil }
    open func setPrimitiveValue(_ value: Any?, forKey key: String) {}
    open func willAccessValue(forKey key: String?) {}
    open func didAccessValue(forKey key: String?) {}
    open func willChangeValue(forKey key: String) {}
    open func didChangeValue(forKey key: String) {}
}

// `@objc dynamic` in the SDK, where NSFetchRequest is an Objective-C class; here a generic Swift
// class, which `@objc` cannot return. Generated `fetchRequest()`s overload it either way.
extension NSManagedObject {
    public class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> { NSFetchRequest() }
}

@objc open class NSPersistentStoreRequest: NSObject {}

// `init()` is the designated initialiser and `init(entityName:)` a convenience one, as in the SDK.
open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest {
    public override init() { super.init() }
    public convenience init(entityName: String) { self.init() }
    open var entityName: String? { nil }
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
    open var fetchLimit = 0
}

public let NSCoreDataError = 134060

// Foundation's conversions of `Predicate` and `SortDescriptor` on Apple platforms (Linux's
// Foundation has neither), with Apple's signatures.
extension NSPredicate {
    public convenience init?<Input: NSObject>(_ predicate: Predicate<Input>) { return nil }
}

extension NSSortDescriptor {
    public convenience init<Compared: NSObject>(_ sortDescriptor: SortDescriptor<Compared>) {
        self.init(keyPath: \NSObject.hash, ascending: true)
    }
}

// `init?(contentsOf:)` is a convenience initialiser, as in the SDK.
@objc open class NSManagedObjectModel: NSObject {
    public override init() { super.init() }
    public convenience init?(contentsOf url: URL) {
        self.init()
        return nil
    }
}

/// Sendable, as Core Data's (`NS_SWIFT_SENDABLE`); `init(name:managedObjectModel:)` is designated,
/// `init(name:)` a convenience initialiser.
@objc open class NSPersistentContainer: NSObject, @unchecked Sendable {
    public init(name: String, managedObjectModel model: NSManagedObjectModel) { super.init() }
    public convenience init(name: String) { self.init(name: name, managedObjectModel: NSManagedObjectModel()) }
    open class func defaultDirectoryURL() -> URL { URL(fileURLWithPath: "/") }
}

@objc open class StandInOrderedSet: NSObject {}
@objc open class StandInSet: NSObject {}
@objc open class StandInIndexSet: NSObject {}
@objc open class StandInDecimalNumber: NSObject {}

open class NSBatchInsertRequest: NSPersistentStoreRequest {
    public init(entityName: String, objects dictionaries: [[String: Any]]) { super.init() }
    public convenience init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entityName, objects: [])
    }
}

open class NSPersistentStoreDescription {
    open var shouldMigrateStoreAutomatically = true
    open var shouldInferMappingModelAutomatically = true
    open func setOption(_ option: NSObject?, forKey key: String) {}
}

public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

@objc open class NSMigrationStage: NSObject {
    open var label: String?
}

@objc open class NSLightweightMigrationStage: NSMigrationStage {
    open var versionChecksums: [String] { [] }
    public convenience init(_ versionChecksums: [String]) { self.init() }
}

@objc open class NSManagedObjectModelReference: NSObject {
    public init(fileURL: URL, versionChecksum: String) {}
}

@objc open class NSCustomMigrationStage: NSMigrationStage {
    fileprivate var handlers: (will: Handler?, did: Handler?) = (nil, nil)
    fileprivate typealias Handler = (NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void
}

// In the SDK the initialiser and the handlers are declared in a Swift extension: the handlers
// cannot be overridden, and the initialiser is a convenience one.
extension NSCustomMigrationStage {
    public convenience init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.init()
    }
    public var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? {
        get { handlers.will }
        set { handlers.will = newValue }
    }
    public var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? {
        get { handlers.did }
        set { handlers.did = newValue }
    }
}

@objc open class NSStagedMigrationManager: NSObject {
    open var stages: [NSMigrationStage] { [] }
    open var container: NSPersistentContainer? { nil }
}

extension NSStagedMigrationManager {
    public convenience init(_ stages: [NSMigrationStage]) { self.init() }
}

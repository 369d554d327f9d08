// A stand-in for the parts of Core Data that generated code uses, with the same signatures, so
// the generated sources can be typechecked on Linux (swiftc with Objective-C interop enabled).
// Foundation's NSSet, NSOrderedSet and NSIndexSet are not @objc classes on Linux, so the test
// renames them in a copy of the generated code to the @objc stand-ins declared here.
import Foundation

public protocol NSFetchRequestResult: AnyObject {}

@objc open class NSManagedObjectID: NSObject {}

@objc open class NSManagedObject: NSObject, NSFetchRequestResult {
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

open class NSFetchRequest<ResultType: NSFetchRequestResult> {
    public init(entityName: String) {}
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
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

open class NSManagedObjectModel {
    public init?(contentsOf url: URL) { return nil }
}

/// Sendable, as Core Data's (`NS_SWIFT_SENDABLE`).
open class NSPersistentContainer: @unchecked Sendable {
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {}
}

@objc open class StandInOrderedSet: NSObject {}
@objc open class StandInSet: NSObject {}
@objc open class StandInIndexSet: NSObject {}
@objc open class StandInDecimalNumber: NSObject {}

open class NSPersistentStoreRequest {}

open class NSBatchInsertRequest: NSPersistentStoreRequest {
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {}
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
    public init(_ versionChecksums: [String]) {}
}

@objc open class NSManagedObjectModelReference: NSObject {
    public init(fileURL: URL, versionChecksum: String) {}
}

@objc open class NSCustomMigrationStage: NSMigrationStage {
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {}
}

@objc open class NSStagedMigrationManager: NSObject {
    open var container: NSPersistentContainer? { nil }
    public init(_ stages: [NSMigrationStage]) {}
}

// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation

/// Core Data's standard merge policies (`NSMergePolicyType`).
public enum NSMergePolicyType: UInt, Sendable {
    case errorMergePolicyType = 0
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    case overwriteMergePolicyType = 3
    case rollbackMergePolicyType = 4
}

/// How a save resolves conflicts with the store (`NSMergePolicy`): optimistic-locking conflicts
/// (a row changed since the object was fetched) and uniqueness-constraint conflicts.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    public let mergeType: NSMergePolicyType

    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)

    open override var description: String { "<NSMergePolicy: \(mergeType)>" }
}

nonisolated(unsafe) public let NSErrorMergePolicy: Any = NSMergePolicy.error
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyStoreTrump
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyObjectTrump
nonisolated(unsafe) public let NSOverwriteMergePolicy: Any = NSMergePolicy.overwrite
nonisolated(unsafe) public let NSRollbackMergePolicy: Any = NSMergePolicy.rollback

/// An optimistic-locking conflict: the object's row changed in the store since it was read.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    public let sourceObject: NSManagedObject
    public let objectSnapshot: [String: Any]?
    public let cachedSnapshot: [String: Any]?
    public let persistedSnapshot: [String: Any]?
    public let newVersionNumber: Int
    public let oldVersionNumber: Int

    public init(
        source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int, cachedSnapshot cachesnap: [String: Any]?,
        persistedSnapshot persnap: [String: Any]?
    ) {
        sourceObject = srcObject
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        objectSnapshot = nil
        super.init()
    }
}

/// A uniqueness-constraint conflict: objects (and possibly a stored row) with the same values
/// for a constraint's properties.
open class NSConstraintConflict: NSObject, @unchecked Sendable {
    public let constraint: [String]
    public let constraintValues: [String: Any]
    public let databaseObject: NSManagedObject?
    public let databaseSnapshot: [String: Any]?
    public let conflictingObjects: [NSManagedObject]
    public let conflictingSnapshots: [[AnyHashable: Any]]

    public init(
        constraint contraint: [String], database databaseObject: NSManagedObject?, databaseSnapshot snapshot: [AnyHashable: Any]?,
        conflicting conflictingObjects: [NSManagedObject], conflictingSnapshots snapshots: [Any]
    ) {
        constraint = contraint
        self.databaseObject = databaseObject
        databaseSnapshot = snapshot.map { Dictionary(uniqueKeysWithValues: $0.map { ("\($0.key.base)", $0.value) }) }
        self.conflictingObjects = conflictingObjects
        conflictingSnapshots = snapshots.compactMap { $0 as? [AnyHashable: Any] }
        var values: [String: Any] = [:]
        if let first = conflictingObjects.first {
            for key in contraint { values[key] = first.value(forKey: key) ?? NSNull() }
        }
        constraintValues = values
        super.init()
    }
}

extension NSManagedObjectContext {
    var mergeType: NSMergePolicyType {
        (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
    }
}
#endif

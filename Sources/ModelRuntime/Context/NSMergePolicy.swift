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
///
/// Not `Sendable`, as in Core Data: a policy is read on the queue of the context it is set on.
open class NSMergePolicy: NSObject {
    private let policyType: NSMergePolicyType
    open var mergeType: NSMergePolicyType { policyType }

    public init(merge ty: NSMergePolicyType) {
        policyType = ty
        super.init()
    }

    /// The shared policies behind the class properties and the `NS…MergePolicy` constants;
    /// immutable once made.
    nonisolated(unsafe) static let shared: [NSMergePolicy] = (0...4).map {
        NSMergePolicy(merge: NSMergePolicyType(rawValue: $0) ?? .errorMergePolicyType)
    }

    open class var error: NSMergePolicy { shared[Int(NSMergePolicyType.errorMergePolicyType.rawValue)] }
    open class var rollback: NSMergePolicy { shared[Int(NSMergePolicyType.rollbackMergePolicyType.rawValue)] }
    open class var overwrite: NSMergePolicy { shared[Int(NSMergePolicyType.overwriteMergePolicyType.rawValue)] }
    open class var mergeByPropertyObjectTrump: NSMergePolicy {
        shared[Int(NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType.rawValue)]
    }
    open class var mergeByPropertyStoreTrump: NSMergePolicy {
        shared[Int(NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType.rawValue)]
    }

    open override var description: String { "<NSMergePolicy: \(mergeType)>" }
}

nonisolated(unsafe) public let NSErrorMergePolicy: AnyObject = NSMergePolicy.shared[0]
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: AnyObject = NSMergePolicy.shared[1]
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: AnyObject = NSMergePolicy.shared[2]
nonisolated(unsafe) public let NSOverwriteMergePolicy: AnyObject = NSMergePolicy.shared[3]
nonisolated(unsafe) public let NSRollbackMergePolicy: AnyObject = NSMergePolicy.shared[4]

/// An optimistic-locking conflict: the object's row changed in the store since it was read.
///
/// Not `Sendable`, as in Core Data: it holds the conflicting object, used on its context's queue.
open class NSMergeConflict: NSObject {
    private let source: NSManagedObject
    private let snapshots: (object: [String: Any]?, cached: [String: Any]?, persisted: [String: Any]?)
    private let versions: (new: Int, old: Int)
    open var sourceObject: NSManagedObject { source }
    open var objectSnapshot: [String: Any]? { snapshots.object }
    open var cachedSnapshot: [String: Any]? { snapshots.cached }
    open var persistedSnapshot: [String: Any]? { snapshots.persisted }
    open var newVersionNumber: Int { versions.new }
    open var oldVersionNumber: Int { versions.old }
    /// The keys the context changed, sorted, when a save found the conflict (for descriptions).
    var changedKeys: [String] = []

    public init(
        source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int, cachedSnapshot cachesnap: [String: Any]?,
        persistedSnapshot persnap: [String: Any]?
    ) {
        source = srcObject
        versions = (newvers, oldvers)
        snapshots = (nil, cachesnap, persnap)
        super.init()
    }

    /// The object, its entity, the version it was read at and the store's, and the changed keys.
    open override var description: String { ConflictText.description(self) }
}

/// A uniqueness-constraint conflict: objects (and possibly a stored row) with the same values
/// for a constraint's properties.
///
/// Not `Sendable`, as in Core Data: it holds the conflicting objects, used on their context's queue.
open class NSConstraintConflict: NSObject {
    private let names: [String]
    private let values: [String: Any]
    private let stored: (object: NSManagedObject?, snapshot: [String: Any]?)
    private let conflicting: (objects: [NSManagedObject], snapshots: [[AnyHashable: Any]])
    open var constraint: [String] { names }
    open var constraintValues: [String: Any] { values }
    open var databaseObject: NSManagedObject? { stored.object }
    open var databaseSnapshot: [String: Any]? { stored.snapshot }
    open var conflictingObjects: [NSManagedObject] { conflicting.objects }
    open var conflictingSnapshots: [[AnyHashable: Any]] { conflicting.snapshots }

    public init(
        constraint contraint: [String], database databaseObject: NSManagedObject?, databaseSnapshot snapshot: [AnyHashable: Any]?,
        conflicting conflictingObjects: [NSManagedObject], conflictingSnapshots snapshots: [Any]
    ) {
        names = contraint
        stored = (databaseObject, snapshot.map { Dictionary(uniqueKeysWithValues: $0.map { ("\($0.key.base)", $0.value) }) })
        conflicting = (conflictingObjects, snapshots.compactMap { $0 as? [AnyHashable: Any] })
        var values: [String: Any] = [:]
        if let first = conflictingObjects.first {
            for key in contraint { values[key] = first.value(forKey: key) ?? NSNull() }
        }
        self.values = values
        super.init()
    }

    /// The entity, the constraint, the conflicting values and the objects that hold them.
    open override var description: String { ConflictText.description(self) }
}

extension NSManagedObjectContext {
    var mergeType: NSMergePolicyType {
        (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
    }
}
#endif

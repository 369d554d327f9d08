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
/// A save that finds conflicts calls its context's policy's ``resolve(mergeConflicts:)`` once
/// with every conflict it found, inside its transaction, then writes what the policy left and
/// checks again. The built-in policies' behaviour is this class's implementation of the three
/// `resolve` methods; a subclass overrides them, usually calling `super` and then adjusting
/// objects, as with Core Data (see docs/runtime/Conflicts.md).
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

    /// Resolves a save's conflicts: calls ``resolve(optimisticLockingConflicts:)`` with the
    /// ``NSMergeConflict``s of `list`, then ``resolve(constraintConflicts:)`` with its
    /// ``NSConstraintConflict``s (each only when there are any), as Core Data's
    /// `-resolveConflicts:error:` does. Throwing fails the save with the error thrown.
    open func resolve(mergeConflicts list: [Any]) throws {
        let optimistic = list.compactMap { $0 as? NSMergeConflict }
        let constraint = list.compactMap { $0 as? NSConstraintConflict }
        if !optimistic.isEmpty { try resolve(optimisticLockingConflicts: optimistic) }
        if !constraint.isEmpty { try resolve(constraintConflicts: constraint) }
    }

    /// Resolves optimistic-locking conflicts by ``mergeType``: the error policy throws
    /// `NSManagedObjectMergeError` listing them; the others give each object the row now in the
    /// store (``NSMergeConflict/persistedSnapshot``) as its committed values and version, and keep
    /// the object's changed properties (object-trump), those the store did not change too
    /// (store-trump), all its values (overwrite) or none (rollback). A deleted object is deleted
    /// whatever the row holds; an object whose row is gone (``NSMergeConflict/newVersionNumber``
    /// 0) is not written.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .errorMergePolicyType {
            throw CoreDataError.make(
                NSManagedObjectMergeError, ConflictText.mergeFailure(list), [NSPersistentStoreSaveConflictsErrorKey: list])
        }
        for conflict in list { resolveOptimisticLocking(conflict) }
    }

    /// Resolves uniqueness-constraint conflicts by ``mergeType``: the error policy throws
    /// `NSManagedObjectConstraintMergeError` listing them. Among the objects of one save the last
    /// (object-trump, overwrite) or first (store-trump, rollback) stays and the other inserted
    /// ones leave the context; an inserted object repeating a stored row's values becomes that
    /// row's object, its values written over the row (object-trump: those it set; overwrite:
    /// all) or replaced by the row's (store-trump, rollback); an updated object that takes a
    /// stored row's values is merged with that row's object (object-trump and store-trump keep
    /// the stored object and delete the updated one, overwrite deletes the stored one, rollback
    /// drops the updated object's changes).
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .errorMergePolicyType {
            throw CoreDataError.make(
                NSManagedObjectConstraintMergeError, ConflictText.constraintFailure(list), [NSPersistentStoreSaveConflictsErrorKey: list])
        }
        resolveConstraints(list)
    }
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
    private var snapshots: (object: [String: Any]?, cached: [String: Any]?, persisted: [String: Any]?)
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

    /// A conflict a save found: the object's values as it read them (``objectSnapshot``, and
    /// ``cachedSnapshot``: the runtime keeps no row cache between contexts and the store) and the
    /// row now in the store (``persistedSnapshot``, nil when the row is gone).
    convenience init(
        source object: NSManagedObject, newVersion: Int, oldVersion: Int, objectSnapshot: [String: Any]?,
        persistedSnapshot: [String: Any]?
    ) {
        self.init(
            source: object, newVersion: newVersion, oldVersion: oldVersion, cachedSnapshot: objectSnapshot,
            persistedSnapshot: persistedSnapshot)
        snapshots.object = objectSnapshot
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
    private var stored: (object: NSManagedObject?, snapshot: [String: Any]?)
    private let conflicting: (objects: [NSManagedObject], snapshots: [[AnyHashable: Any]])
    /// `Z_OPT` of the stored row, when a save found the conflict (an object taking the row's
    /// place continues from it).
    var databaseVersion: Int64?
    /// The stored row a save found holding the constraint's values, until the context gives it
    /// its object (``settleDatabaseObject(_:)``): the store reports rows, not objects.
    private(set) var databaseRow: (entity: EngineEntity, key: Int64, store: NSPersistentStore)?
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

    /// A conflict with the stored row `key` of `entity`, found by a save: its object is made
    /// by the saving context before the merge policy sees the conflict.
    convenience init(
        constraint: [String], databaseRow row: (entity: EngineEntity, key: Int64, store: NSPersistentStore), version: Int64,
        snapshot: [String: Any]?, conflicting object: NSManagedObject, conflictingSnapshot: [String: Any]
    ) {
        self.init(
            constraint: constraint, database: nil, databaseSnapshot: snapshot, conflicting: [object],
            conflictingSnapshots: [conflictingSnapshot])
        databaseRow = row
        databaseVersion = version
    }

    /// Gives the conflict's stored row its object, `object`.
    func settleDatabaseObject(_ object: NSManagedObject) {
        stored.object = object
        databaseRow = nil
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

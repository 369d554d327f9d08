#if !canImport(CoreData)
import ModelQuery

/// The kind of a recorded change (`NSPersistentHistoryChangeType`), as `ACHANGE.ZCHANGETYPE`
/// stores it.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// One object's change in a transaction (`NSPersistentHistoryChange`), read from `ACHANGE`.
///
/// Not `Sendable`, as in Core Data: read it on the queue of the context that fetched it.
public final class NSPersistentHistoryChange: NSObject, KeyValueReadable {
    public let changeID: Int64
    public let changeType: NSPersistentHistoryChangeType
    public let changedObjectID: NSManagedObjectID
    /// The properties an update changed; nil for inserts and deletes.
    public let updatedProperties: Set<NSPropertyDescription>?
    /// For a delete, the values of the attributes marked `preservesValueInHistoryOnDeletion`.
    public let tombstone: [AnyHashable: Any]?
    /// The transaction the change belongs to (held weakly: keep the transaction or the result).
    public internal(set) weak var transaction: NSPersistentHistoryTransaction?

    init(
        changeID: Int64, changeType: NSPersistentHistoryChangeType, changedObjectID: NSManagedObjectID,
        updatedProperties: Set<NSPropertyDescription>?, tombstone: [AnyHashable: Any]?
    ) {
        self.changeID = changeID
        self.changeType = changeType
        self.changedObjectID = changedObjectID
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        super.init()
    }

    /// The entity name fetch requests over changes use.
    static let entityName = "Change"

    /// A fetch request for `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)` over
    /// changes: its predicate reads `changeID`, `changeType` (raw value), `changedEntity` (name)
    /// and `transaction` (key paths into it).
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
    }

    /// The entity of changes (named `Change`) for a fetch request over them
    /// (`NSFetchRequest(entityName:)` or `fetchRequest.entity`), with the attributes its
    /// predicates read; nil when `context` has no coordinator.
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        context.persistentStoreCoordinator == nil ? nil : entityDescription
    }

    /// The entity of changes, as ``entityDescription(with:)`` gives it.
    public class var entityDescription: NSEntityDescription? {
        HistoryEntity.make(
            name: entityName,
            attributes: [
                ("changeID", .integer64AttributeType),
                ("changeType", .integer64AttributeType),
                ("changedEntity", .stringAttributeType),
            ])
    }

    public func value(forKey key: String) -> Any? {
        switch key {
        case "changeID": changeID
        case "changeType": Int64(changeType.rawValue)
        case "changedObjectID": changedObjectID
        case "changedEntity": changedObjectID.entity.name
        case "tombstone": tombstone
        case "transaction": transaction
        default: nil
        }
    }
}
#endif

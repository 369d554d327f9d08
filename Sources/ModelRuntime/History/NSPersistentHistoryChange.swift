#if !canImport(CoreData)
import Foundation

/// The kind of a recorded change (`NSPersistentHistoryChangeType`), as `ACHANGE.ZCHANGETYPE`
/// stores it.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// One object's change in a transaction (`NSPersistentHistoryChange`), read from `ACHANGE`.
public final class NSPersistentHistoryChange: NSObject, KeyValueReadable, @unchecked Sendable {
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
    public static var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
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

#if !canImport(CoreData)
import ModelQuery

/// One recorded save (`NSPersistentHistoryTransaction`), read from `ATRANSACTION`.
///
/// Not `Sendable`, as in Core Data: read it on the queue of the context that fetched it.
public final class NSPersistentHistoryTransaction: NSObject, KeyValueReadable {
    public let timestamp: Date
    public let author: String?
    public let contextName: String?
    public let bundleID: String
    public let processID: String
    public let storeID: String
    public let transactionNumber: Int64
    /// The transaction's changes; nil when the request's result type leaves them out.
    public internal(set) var changes: [NSPersistentHistoryChange]?

    init(
        number: Int64, timestamp: Date, author: String?, contextName: String?, bundleID: String, processID: String, storeID: String
    ) {
        transactionNumber = number
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.bundleID = bundleID
        self.processID = processID
        self.storeID = storeID
        super.init()
    }

    /// The history position just after this transaction in its store.
    public var token: NSPersistentHistoryToken { NSPersistentHistoryToken(storeTokens: [storeID: transactionNumber]) }

    /// A did-save notification naming the changed objects by ID (`inserted`, `updated`,
    /// `deleted`), for `NSManagedObjectContext.mergeChanges(fromContextDidSave:)`.
    public func objectIDNotification() -> Notification {
        var inserted: Set<NSManagedObjectID> = []
        var updated: Set<NSManagedObjectID> = []
        var deleted: Set<NSManagedObjectID> = []
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return Notification(
            name: .NSManagedObjectContextDidSave, object: nil,
            userInfo: [NSInsertedObjectsKey: inserted, NSUpdatedObjectsKey: updated, NSDeletedObjectsKey: deleted])
    }

    /// The entity name fetch requests over transactions use.
    static let entityName = "Transaction"

    /// A fetch request for `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)`: its
    /// predicate and sort descriptors read `timestamp`, `author`, `contextName`, `bundleID`,
    /// `processID`, `storeID` and `transactionNumber`.
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
    }

    /// The entity of transactions (named `Transaction`) for a fetch request over them
    /// (`NSFetchRequest(entityName:)` or `fetchRequest.entity`), with the attributes its
    /// predicates read; nil when `context` has no coordinator.
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        context.persistentStoreCoordinator == nil ? nil : entityDescription
    }

    /// The entity of transactions, as ``entityDescription(with:)`` gives it.
    public class var entityDescription: NSEntityDescription? {
        HistoryEntity.make(
            name: entityName,
            attributes: [
                ("timestamp", .dateAttributeType),
                ("author", .stringAttributeType),
                ("contextName", .stringAttributeType),
                ("bundleID", .stringAttributeType),
                ("processID", .stringAttributeType),
                ("storeID", .stringAttributeType),
                ("transactionNumber", .integer64AttributeType),
            ])
    }

    public func value(forKey key: String) -> Any? {
        switch key {
        case "timestamp": timestamp
        case "author": author
        case "contextName": contextName
        case "bundleID": bundleID
        case "processID": processID
        case "storeID": storeID
        case "transactionNumber": transactionNumber
        case "changes": changes
        default: nil
        }
    }

    public override var description: String {
        "<NSPersistentHistoryTransaction: \(transactionNumber), \(storeID), author \(author ?? "nil"), context \(contextName ?? "nil")>"
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// What a history request returns (`NSPersistentHistoryResultType`).
public enum NSPersistentHistoryResultType: Int, Sendable {
    case statusOnly = 0
    case objectIDs = 1
    case count = 2
    case transactionsOnly = 3
    case changesOnly = 4
    case transactionsAndChanges = 5
}

/// Fetches or deletes persistent history (`NSPersistentHistoryChangeRequest`), run with
/// `NSManagedObjectContext.execute(_:)`.
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    enum Operation {
        case fetchAfterToken(NSPersistentHistoryToken?)
        case fetchAfterDate(Date)
        case fetchWithRequest(NSFetchRequest<NSFetchRequestResult>)
        case deleteBeforeToken(NSPersistentHistoryToken?)
        case deleteBeforeDate(Date)
    }

    let operation: Operation
    open var resultType: NSPersistentHistoryResultType = .transactionsAndChanges
    private var filter: NSFetchRequest<NSFetchRequestResult>?

    init(operation: Operation) {
        self.operation = operation
        if case .fetchWithRequest(let request) = operation { filter = request }
        super.init()
    }

    /// The token the request starts (fetch) or ends (delete) at.
    open var token: NSPersistentHistoryToken? {
        switch operation {
        case .fetchAfterToken(let token), .deleteBeforeToken(let token): token
        default: nil
        }
    }

    /// The fetch request that filters (predicate), orders (sort descriptors) and limits the
    /// transactions or changes the request reads: the one of ``fetchHistory(withFetch:)``, or
    /// one set on any fetch request (after a token or a date), as with Core Data. It must be
    /// made from `NSPersistentHistoryTransaction.fetchRequest` or
    /// `NSPersistentHistoryChange.fetchRequest`, or have the entity of their
    /// `entityDescription(with:)`.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get { filter }
        set { filter = newValue }
    }

    var isDelete: Bool {
        switch operation {
        case .deleteBeforeToken, .deleteBeforeDate: true
        default: false
        }
    }

    /// Transactions after the token (all of them for nil).
    open class func fetchHistory(after token: NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .fetchAfterToken(token))
    }

    /// Transactions recorded after the date.
    open class func fetchHistory(after date: Date) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .fetchAfterDate(date))
    }

    /// Transactions after the transaction (all of them for nil).
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// Transactions (or changes) the fetch request selects: made from
    /// `NSPersistentHistoryTransaction.fetchRequest` or `NSPersistentHistoryChange.fetchRequest`.
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .fetchWithRequest(fetchRequest))
    }

    /// Deletes the transactions before the token (all of them for nil).
    open class func deleteHistory(before token: NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .deleteBeforeToken(token))
    }

    /// Deletes the transactions recorded before the date.
    open class func deleteHistory(before date: Date) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .deleteBeforeDate(date))
    }

    /// Deletes the transactions before the transaction.
    open class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest {
        NSPersistentHistoryChangeRequest(operation: .deleteBeforeToken(transaction?.token))
    }
}

/// The result of a history request (`NSPersistentHistoryResult`): `result` per the request's
/// `resultType` — `true`, `[NSManagedObjectID]`, a count, `[NSPersistentHistoryTransaction]` or
/// `[NSPersistentHistoryChange]`.
open class NSPersistentHistoryResult: NSPersistentStoreResult {
    public let resultType: NSPersistentHistoryResultType
    public let result: Any?
    /// Keeps the transactions alive for a changes-only result (changes hold them weakly).
    let transactions: [NSPersistentHistoryTransaction]

    init(resultType: NSPersistentHistoryResultType, result: Any?, transactions: [NSPersistentHistoryTransaction] = []) {
        self.resultType = resultType
        self.result = result
        self.transactions = transactions
        super.init()
    }
}
#endif

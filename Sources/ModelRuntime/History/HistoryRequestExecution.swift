#if !canImport(CoreData)
import ModelQuery

extension NSPersistentStoreCoordinator {
    /// The token of the latest history in the stores (all of them for nil); nil when none of
    /// them tracks history.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        locked {
            var tokens: [String: Int64] = [:]
            for store in historyStores(stores?.compactMap { $0 as? NSPersistentStore }) {
                let reader = HistoryReader(store: store)
                guard (try? reader.checkTracking()) != nil, let last = try? reader.lastTransactionNumber() else { continue }
                tokens[store.engine.storeUUID] = last
            }
            return tokens.isEmpty ? nil : NSPersistentHistoryToken(storeTokens: tokens)
        }
    }

    private func historyStores(_ stores: [NSPersistentStore]?) -> [NSPersistentStore] {
        stores ?? persistentStores
    }

    /// Runs a history request on the affected stores.
    func execute(_ request: NSPersistentHistoryChangeRequest) throws -> NSPersistentHistoryResult {
        try locked {
            var transactions: [NSPersistentHistoryTransaction] = []
            var deleted = 0
            let stores = historyStores(request.affectedStores)
            for store in stores {
                let reader = HistoryReader(store: store)
                try reader.checkTracking()
                let storeID = store.engine.storeUUID
                switch request.operation {
                case .fetchAfterToken(let token):
                    let number = token?.number(for: storeID) ?? 0
                    if token != nil { try reader.checkNotExpired(after: number) }
                    transactions += try reader.transactions(.afterNumber(number), withChanges: true)
                case .fetchAfterDate(let date):
                    transactions += try reader.transactions(.afterDate(date), withChanges: true)
                case .fetchWithRequest:
                    transactions += try reader.transactions(.all, withChanges: true)
                case .deleteBeforeToken(let token):
                    deleted += try reader.delete(token.map { .beforeNumber($0.number(for: storeID)) } ?? .all)
                case .deleteBeforeDate(let date):
                    deleted += try reader.delete(.beforeDate(date))
                }
            }
            if request.isDelete {
                return NSPersistentHistoryResult(
                    resultType: request.resultType, result: request.resultType == .count ? deleted as Any : true as Any)
            }
            transactions.sort { ($0.timestamp, $0.storeID, $0.transactionNumber) < ($1.timestamp, $1.storeID, $1.transactionNumber) }
            return try Self.shape(transactions, for: request)
        }
    }

    /// Filters by the request's fetch request, then shapes the result per its result type.
    private static func shape(_ all: [NSPersistentHistoryTransaction], for request: NSPersistentHistoryChangeRequest) throws
        -> NSPersistentHistoryResult
    {
        var transactions = all
        var changes = transactions.flatMap { $0.changes ?? [] }
        if let fetch = request.fetchRequest {
            switch fetch.entityName {
            case NSPersistentHistoryTransaction.entityName:
                transactions = limited(transactions, by: fetch)
                changes = transactions.flatMap { $0.changes ?? [] }
            case NSPersistentHistoryChange.entityName:
                changes = limited(changes, by: fetch)
                let kept = Set(changes.map(ObjectIdentifier.init))
                for transaction in transactions {
                    transaction.changes = transaction.changes?.filter { kept.contains(ObjectIdentifier($0)) }
                }
                transactions = transactions.filter { !($0.changes ?? []).isEmpty }
            default:
                throw CoreDataError.make(
                    NSPersistentStoreUnsupportedRequestTypeError,
                    "A history fetch request must come from NSPersistentHistoryTransaction.fetchRequest or NSPersistentHistoryChange.fetchRequest"
                )
            }
        }
        let result: Any
        switch request.resultType {
        case .statusOnly: result = true
        case .objectIDs: result = changes.map(\.changedObjectID)
        case .count: result = changes.count
        case .transactionsOnly:
            for transaction in transactions { transaction.changes = nil }
            result = transactions
        case .changesOnly: result = changes
        case .transactionsAndChanges: result = transactions
        }
        return NSPersistentHistoryResult(resultType: request.resultType, result: result, transactions: transactions)
    }

    private static func limited<T: KeyValueReadable>(_ items: [T], by fetch: NSFetchRequest<NSFetchRequestResult>) -> [T] {
        var items = items
        if let predicate = fetch.predicate { items = items.filter { predicate.evaluate(with: $0) } }
        if let descriptors = fetch.sortDescriptors, !descriptors.isEmpty {
            items.sort { lhs, rhs in
                for descriptor in descriptors {
                    let order = descriptor.compare(lhs, to: rhs)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return false
            }
        }
        if fetch.fetchOffset > 0 { items = Array(items.dropFirst(fetch.fetchOffset)) }
        if fetch.fetchLimit > 0 { items = Array(items.prefix(fetch.fetchLimit)) }
        return items
    }
}

#endif

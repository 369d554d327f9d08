import Foundation

#if canImport(CoreData)
import CoreData
#endif

/// The recommended persistent-history workflow for several targets sharing one store (an app and
/// its extensions), on Apple platforms and Linux alike: each target keeps its own history token
/// on disk, fetches the transactions after it, merges them into the given contexts, saves the
/// new token, and deletes history only when every known target has processed it.
///
/// Each target sets its contexts' `transactionAuthor` to its target name, so that it skips its
/// own transactions. State lives in `directory` as one property list per target
/// (`<target>.history.plist`: the archived token and the timestamp of the last transaction it
/// covers, which orders the targets when deciding how much history to purge).
public final class PersistentHistoryProcessor {
    public let target: String
    public let knownTargets: [String]
    public let directory: URL
    private let coordinator: NSPersistentStoreCoordinator

    public init(target: String, knownTargets: [String], directory: URL, coordinator: NSPersistentStoreCoordinator) {
        self.target = target
        self.knownTargets = Array(Set(knownTargets + [target])).sorted()
        self.directory = directory
        self.coordinator = coordinator
    }

    /// What one target has processed.
    struct State {
        var token: NSPersistentHistoryToken
        var timestamp: Date
    }

    /// Fetches the history after this target's token, merges other targets' transactions into
    /// `contexts` (each on its own queue), saves the token and purges history every known target
    /// has processed. Returns the transactions that were merged. A token whose history was
    /// deleted starts over from the current token after refreshing the contexts.
    @discardableResult
    public func processNewHistory(mergingInto contexts: [NSManagedObjectContext]) throws -> [NSPersistentHistoryTransaction] {
        let worker = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        worker.persistentStoreCoordinator = coordinator
        let previous = try state(of: target)
        var transactions: [NSPersistentHistoryTransaction] = []
        var expired = false
        try worker.performAndWait {
            do {
                let request = NSPersistentHistoryChangeRequest.fetchHistory(after: previous?.token)
                request.resultType = .transactionsAndChanges
                let result = try worker.execute(request) as? NSPersistentHistoryResult
                transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
            } catch let error as NSError where error.code == NSPersistentHistoryTokenExpiredError {
                expired = true
            }
        }
        if expired {
            for context in contexts { context.performAndWait { context.refreshAllObjects() } }
            if let token = coordinator.currentPersistentHistoryToken(fromStores: nil) {
                try save(State(token: token, timestamp: Date()), of: target)
            }
            return []
        }
        let merged = transactions.filter { $0.author != target }
        for transaction in merged {
            let notification = transaction.objectIDNotification()
            for context in contexts { context.performAndWait { context.mergeChanges(fromContextDidSave: notification) } }
        }
        if let last = transactions.last {
            try save(State(token: last.token, timestamp: last.timestamp), of: target)
        } else if previous == nil, let token = coordinator.currentPersistentHistoryToken(fromStores: nil) {
            try save(State(token: token, timestamp: Date()), of: target)
        }
        try purgeProcessedHistory(using: worker)
        return merged
    }

    /// Deletes the history before the token of the target that is furthest behind, once every
    /// known target has saved a token.
    public func purgeProcessedHistory() throws {
        let worker = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        worker.persistentStoreCoordinator = coordinator
        try purgeProcessedHistory(using: worker)
    }

    private func purgeProcessedHistory(using worker: NSManagedObjectContext) throws {
        var states: [State] = []
        for name in knownTargets {
            guard let state = try state(of: name) else { return }
            states.append(state)
        }
        guard let slowest = states.min(by: { $0.timestamp < $1.timestamp }) else { return }
        try worker.performAndWait {
            _ = try worker.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: slowest.token))
        }
    }

    // MARK: State on disk

    func stateURL(of target: String) -> URL {
        let safe = target.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return directory.appendingPathComponent(String(safe) + ".history.plist")
    }

    func state(of target: String) throws -> State? {
        let url = stateURL(of: target)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        guard let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
            let tokenData = plist["token"] as? Data, let timestamp = plist["timestamp"] as? Date,
            let token = Self.unarchiveToken(tokenData)
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return State(token: token, timestamp: timestamp)
    }

    /// The token archived in `data`; nil for anything else, including an archive of another class.
    private static func unarchiveToken(_ data: Data) -> NSPersistentHistoryToken? {
        #if canImport(CoreData)
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data)
        #else
        // Checked before Foundation reads it: Linux's unarchiver stops the process on an
        // archive of another class (see KeyedArchiveCoding).
        return KeyedArchiveCoding.unarchive(data, allowed: [NSPersistentHistoryToken.self]) as? NSPersistentHistoryToken
        #endif
    }

    func save(_ state: State, of target: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tokenData = try NSKeyedArchiver.archivedData(withRootObject: state.token, requiringSecureCoding: true)
        let plist: [String: Any] = ["token": tokenData, "timestamp": state.timestamp]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: stateURL(of: target), options: .atomic)
    }
}

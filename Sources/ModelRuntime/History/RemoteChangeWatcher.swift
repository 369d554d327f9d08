// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Dispatch
import ModelQuery
import ModelStore
import Synchronization

extension Notification.Name {
    /// Posted when a store added with `NSPersistentStoreRemoteChangeNotificationPostOptionKey`
    /// changed on disk (`NSPersistentStoreRemoteChangeNotification`).
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// The user-info key of a remote-change notification's store URL.
public let NSPersistentStoreURLKey = "storeURL"

/// Watches a store file for commits and posts `.NSPersistentStoreRemoteChange` (object: the
/// coordinator; user info: `NSStoreUUIDKey`, `NSPersistentStoreURLKey` and, for a store with
/// history tracking, `NSPersistentHistoryTokenKey`).
///
/// Detection: a connection of its own polls `PRAGMA data_version`, which changes whenever any
/// other connection commits to the file — the coordinator's own saves, another coordinator's,
/// another process's. Polling (every ``interval``) needs no file-system notification API, works
/// the same for every writer and costs one tiny query per tick.
final class RemoteChangeWatcher: @unchecked Sendable {
    /// How often the file is polled.
    static let interval = DispatchTimeInterval.milliseconds(100)

    private static let active = Mutex<[ObjectIdentifier: RemoteChangeWatcher]>([:])

    private let connection: StoreConnection
    private let key: ObjectIdentifier
    private weak var store: NSPersistentStore?
    private weak var coordinator: NSPersistentStoreCoordinator?
    private let timer: DispatchSourceTimer
    private var lastVersion: Int64

    private init(store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator, path: String) throws {
        connection = try SQLiteStoreEngine.wrap { try StoreConnection(path: path, mode: .readOnly) }
        self.store = store
        key = ObjectIdentifier(store)
        self.coordinator = coordinator
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "NSPersistentStoreRemoteChange"))
        lastVersion = 0
        lastVersion = dataVersion() ?? 0
    }

    /// Starts watching the store, when its options ask for remote-change notifications.
    static func start(for store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator) throws {
        let value = store.options?[NSPersistentStoreRemoteChangeNotificationPostOptionKey]
        guard (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false, !store.engine.isInMemory, let path = store.url?.path
        else { return }
        let watcher = try RemoteChangeWatcher(store: store, coordinator: coordinator, path: path)
        active.withLock { $0[ObjectIdentifier(store)] = watcher }
        watcher.timer.schedule(deadline: .now() + interval, repeating: interval)
        watcher.timer.setEventHandler { [weak watcher] in watcher?.tick() }
        watcher.timer.resume()
    }

    /// Stops watching the store (removed from its coordinator).
    static func stop(for store: NSPersistentStore) {
        active.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }?.timer.cancel()
    }

    private func dataVersion() -> Int64? {
        (try? connection.rows("PRAGMA data_version"))?.first?.first?.integerValue
    }

    private func tick() {
        guard let store, let coordinator, coordinator.persistentStores.contains(where: { $0 === store }) else {
            Self.active.withLock { if $0[key] === self { $0.removeValue(forKey: key) } }
            timer.cancel()
            return
        }
        guard let version = dataVersion(), version != lastVersion else { return }
        lastVersion = version
        var userInfo: [AnyHashable: Any] = [NSStoreUUIDKey: store.engine.storeUUID]
        if let url = store.url { userInfo[NSPersistentStoreURLKey] = url }
        if HistorySchema.isTracking(store.options), let token = coordinator.currentPersistentHistoryToken(fromStores: [store]) {
            userInfo[NSPersistentHistoryTokenKey] = token
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: userInfo)
    }
}
#endif

// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation

extension Notification.Name {
    /// Posted before a coordinator's stores change (`NSPersistentStoreCoordinatorStoresWillChangeNotification`):
    /// the coordinator is the object; the stores about to be added or removed are arrays under
    /// `NSAddedPersistentStoresKey` and `NSRemovedPersistentStoresKey`.
    public static let NSPersistentStoreCoordinatorStoresWillChange = Notification.Name(
        "NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted after a coordinator's stores changed (`NSPersistentStoreCoordinatorStoresDidChangeNotification`),
    /// with the same keys.
    public static let NSPersistentStoreCoordinatorStoresDidChange = Notification.Name(
        "NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted before a store leaves its coordinator (`NSPersistentStoreCoordinatorWillRemoveStoreNotification`):
    /// the store is the object.
    public static let NSPersistentStoreCoordinatorWillRemoveStore = Notification.Name(
        "NSPersistentStoreCoordinatorWillRemoveStoreNotification")
}

/// The stores-changed notifications' key for the added stores (an array).
public let NSAddedPersistentStoresKey = "added"
/// The stores-changed notifications' key for the removed stores (an array).
public let NSRemovedPersistentStoresKey = "removed"
/// The stores-changed notifications' key for a store whose identifier changed: an array of the
/// old store and the new one. The runtime never changes a store's identifier, so it never posts it.
public let NSUUIDChangedPersistentStoresKey = "NSUUIDChangedPersistentStoresKey"

extension NSPersistentStoreCoordinator {
    /// Posts `NSPersistentStoreCoordinatorStoresWillChange` (and, for a removal, first
    /// `NSPersistentStoreCoordinatorWillRemoveStore` for each store) before `added` join or
    /// `removed` leave the coordinator.
    func postStoresWillChange(added: [NSPersistentStore] = [], removed: [NSPersistentStore] = []) {
        for store in removed {
            NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: store)
        }
        NotificationCenter.default.post(
            name: .NSPersistentStoreCoordinatorStoresWillChange, object: self, userInfo: Self.storesChange(added, removed))
    }

    /// Posts `NSPersistentStoreCoordinatorStoresDidChange` after `added` joined or `removed` left
    /// the coordinator (called without the coordinator's lock held).
    func postStoresDidChange(added: [NSPersistentStore] = [], removed: [NSPersistentStore] = []) {
        NotificationCenter.default.post(
            name: .NSPersistentStoreCoordinatorStoresDidChange, object: self, userInfo: Self.storesChange(added, removed))
    }

    private static func storesChange(_ added: [NSPersistentStore], _ removed: [NSPersistentStore]) -> [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [:]
        if !added.isEmpty { info[NSAddedPersistentStoresKey] = added }
        if !removed.isEmpty { info[NSRemovedPersistentStoresKey] = removed }
        return info
    }
}
#endif

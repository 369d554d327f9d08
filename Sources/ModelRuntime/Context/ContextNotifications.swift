// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation

extension Notification.Name {
    /// Posted after a context saved (`NSManagedObjectContextDidSaveNotification`).
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagingContextDidSaveChangesNotification")
    /// Posted before a context saves (`NSManagedObjectContextWillSaveNotification`).
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagingContextWillSaveChangesNotification")
    /// Posted when objects of a context changed (`NSManagedObjectContextObjectsDidChangeNotification`).
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
    /// Posted after a context saved, with the saved objects' IDs as sets under
    /// `NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey` and `NSDeletedObjectIDsKey`
    /// (`NSManagedObjectContextDidSaveObjectIDsNotification`).
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted after a context merged changes (`mergeChanges(fromContextDidSave:)`,
    /// `mergeChanges(fromRemoteContextSave:into:)`, automatic merges), with the merged objects'
    /// IDs as sets under the same keys (`NSManagedObjectContextDidMergeChangesObjectIDsNotification`).
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = Notification.Name(
        "NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

extension NSManagedObjectContext {
    /// The iOS 14 names of the same notifications.
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs
    public static let didMergeChangesObjectIDsNotification = Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// Keys of the notifications' `userInfo` (`NSManagedObjectContext.NotificationKey`).
    public enum NotificationKey: String {
        case sourceContext = "managedObjectContext"
        case queryGeneration = "managedObjectContextQueryGeneration"
        case invalidatedAllObjects = "invalidatedAll"
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case insertedObjectIDs = "inserted_objectIDs"
        case updatedObjectIDs = "updated_objectIDs"
        case deletedObjectIDs = "deleted_objectIDs"
        case refreshedObjectIDs = "refreshed_objectIDs"
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }
}

public let NSInsertedObjectsKey = "inserted"
public let NSUpdatedObjectsKey = "updated"
public let NSDeletedObjectsKey = "deleted"
public let NSRefreshedObjectsKey = "refreshed"
public let NSInvalidatedObjectsKey = "invalidated"
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
public let NSManagedObjectContextQueryGenerationKey = "managedObjectContextQueryGeneration"

extension NSManagedObjectContext {
    // MARK: Merging

    /// Brings another context's saved changes into this one: updated objects registered here
    /// are reloaded (keeping this context's own changes), deleted ones leave the context.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        checkQueue()
        let info = notification.userInfo ?? [:]
        func ids(_ key: String) -> [NSManagedObjectID] {
            (info[key] as? Set<NSManagedObject>)?.map(\.objectID) ?? (info[key] as? [NSManagedObjectID])
                ?? (info[key] as? Set<NSManagedObjectID>).map(Array.init) ?? []
        }
        merge(inserted: ids(NSInsertedObjectsKey), updated: ids(NSUpdatedObjectsKey), deleted: ids(NSDeletedObjectsKey))
    }

    /// Merges changes described by object IDs or their URIs (`NSInsertedObjectsKey` … as arrays)
    /// into each context, on its queue.
    public class func mergeChanges(
        fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [NSManagedObjectContext]
    ) {
        for context in contexts {
            context.performAndWait {
                func ids(_ key: String) -> [NSManagedObjectID] {
                    guard
                        let values = changeNotificationData[key] as? [Any]
                            ?? (changeNotificationData[key] as? Set<NSManagedObjectID>).map(Array.init)
                    else { return [] }
                    return values.compactMap { value in
                        if let id = value as? NSManagedObjectID { return id }
                        if let url = value as? URL { return context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url) }
                        return nil
                    }
                }
                context.merge(
                    inserted: ids(NSInsertedObjectsKey) + ids(NSInsertedObjectIDsKey),
                    updated: ids(NSUpdatedObjectsKey) + ids(NSUpdatedObjectIDsKey),
                    deleted: ids(NSDeletedObjectsKey) + ids(NSDeletedObjectIDsKey))
            }
        }
    }

    /// Merges a save of the objects with these IDs into the graph (see
    /// ``ObjectGraph/merge(inserted:updated:deleted:load:reloaded:)``), then posts
    /// `NSManagedObjectContextObjectsDidChange` with the objects it changed and
    /// `NSManagedObjectContextDidMergeChangesObjectIDs` with the IDs.
    func merge(inserted: [NSManagedObjectID], updated: [NSManagedObjectID], deleted deletedIDs: [NSManagedObjectID]) {
        advanceQueryGeneration()
        defer {
            // What was merged, by object ID (`NSManagedObjectContextDidMergeChangesObjectIDsNotification`).
            if !inserted.isEmpty || !updated.isEmpty || !deletedIDs.isEmpty {
                NotificationCenter.default.post(
                    name: .NSManagedObjectContextDidMergeChangesObjectIDs, object: self,
                    userInfo: [
                        NSInsertedObjectIDsKey: Set(inserted), NSUpdatedObjectIDsKey: Set(updated), NSDeletedObjectIDsKey: Set(deletedIDs),
                    ])
            }
        }
        let merged = graph.merge(inserted: inserted, updated: updated, deleted: deletedIDs, load: loadRow(into:)) {
            // Its values were put back from the new snapshot (it stays loaded, so no
            // `awakeFromFetch()` follows).
            $0.awake(fromSnapshotEvents: .refresh)
        }
        guard !merged.isEmpty else { return }
        var info: [AnyHashable: Any] = [:]
        if !merged.added.isEmpty { info[NSInsertedObjectsKey] = merged.added }
        if !merged.refreshed.isEmpty { info[NSRefreshedObjectsKey] = merged.refreshed }
        if !merged.removed.isEmpty { info[NSDeletedObjectsKey] = merged.removed }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    /// With `automaticallyMergesChangesFromParent`, merges the saves of the parent context, or
    /// of the other contexts of the same coordinator for a context without a parent.
    func updateParentObservation() {
        if let observer = parentObserverToken { NotificationCenter.default.removeObserver(observer) }
        parentObserverToken = nil
        guard automaticallyMergesChangesFromParent else { return }
        let weakSelf = WeakContext(self)
        parentObserverToken = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: nil, queue: nil) {
            notification in
            guard let self = weakSelf.context, let source = notification.object as? NSManagedObjectContext, source !== self else { return }
            if let parent = self.parent {
                guard source === parent else { return }
            } else {
                guard source.parent == nil, source.persistentStoreCoordinator === self.persistentStoreCoordinator else { return }
            }
            let info = notification.userInfo ?? [:]
            func ids(_ key: String) -> [NSManagedObjectID] { (info[key] as? Set<NSManagedObject>)?.map(\.objectID) ?? [] }
            let changes = UncheckedBox((ids(NSInsertedObjectsKey), ids(NSUpdatedObjectsKey), ids(NSDeletedObjectsKey)))
            self.perform {
                weakSelf.context?.merge(inserted: changes.value.0, updated: changes.value.1, deleted: changes.value.2)
            }
        }
    }
}

/// A weak reference to a context that `@Sendable` closures may capture: the context is not
/// `Sendable`, and the closures use it only on its own queue.
final class WeakContext: @unchecked Sendable {
    weak var context: NSManagedObjectContext?
    init(_ context: NSManagedObjectContext) { self.context = context }
}
#endif

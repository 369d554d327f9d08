import Foundation
import Testing

/// The notifications a coordinator posts when its stores change and those a context posts by
/// object ID. Evidence: Apple's documentation of `NSPersistentStoreCoordinatorStoresWillChange`
/// ("posts before a coordinator changes its registered stores", the added and removed stores under
/// `NSAddedPersistentStoresKey` and `NSRemovedPersistentStoresKey`) and
/// `NSPersistentStoreCoordinatorStoresDidChange` (posted after, object the coordinator); the SDK
/// header `NSPersistentStoreCoordinator.h` (`NSPersistentStoreCoordinatorWillRemoveStoreNotification`
/// is sent while a store is removed; the added and removed stores are arrays) and
/// `NSManagedObjectContext.h` (the user info of `NSManagedObjectContextDidSaveObjectIDsNotification`
/// holds sets of object IDs under `NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey`,
/// `NSDeletedObjectIDsKey`); Apple's documentation of `NSManagedObjectContextDidMergeChangesObjectIDs`
/// (posted after a context merges changes from another notification, object the merged context,
/// the identifiers of the merged objects in the user info).
@Suite(.serialized) struct StoreNotificationTests {
    /// Records the notifications of `names` posted by `object` while `body` runs.
    static func recording(_ names: [Notification.Name], object: AnyObject?, _ body: () throws -> Void) rethrows -> [Notification] {
        let box = NotificationBox()
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { box.append($0) }
        }
        defer { for token in tokens { NotificationCenter.default.removeObserver(token) } }
        try body()
        return box.all
    }

    final class NotificationBox: @unchecked Sendable {
        private let lock = NSLock()
        private var notifications: [Notification] = []
        func append(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
        var all: [Notification] { lock.withLock { notifications } }
    }

    static func model() -> NSManagedObjectModel {
        ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
    }

    @Test func addingAndRemovingAStorePostsWillAndDidChangeWithTheStore() throws {
        let folder = TemporaryFolder()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let names: [Notification.Name] = [
            .NSPersistentStoreCoordinatorStoresWillChange, .NSPersistentStoreCoordinatorStoresDidChange,
        ]
        var store: NSPersistentStore?
        let added = try Self.recording(names, object: coordinator) {
            store = try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: folder.url.appendingPathComponent("N.sqlite"), options: nil)
        }
        let didAdd = try #require(added.last)
        #expect(didAdd.name == .NSPersistentStoreCoordinatorStoresDidChange)
        #expect(didAdd.object as? NSPersistentStoreCoordinator === coordinator)
        let addedStores = try #require(didAdd.userInfo?[NSAddedPersistentStoresKey] as? [NSPersistentStore])
        #expect(addedStores.count == 1 && addedStores.first === store)
        #expect(didAdd.userInfo?[NSRemovedPersistentStoresKey] == nil)

        let removeNames = names + [.NSPersistentStoreCoordinatorWillRemoveStore]
        let removing = try #require(store)
        let removed = try Self.recording(removeNames, object: nil) { try coordinator.remove(removing) }
        // Other suites' coordinators post too: only this store's and this coordinator's count.
        let willRemove = removed.filter {
            $0.name == .NSPersistentStoreCoordinatorWillRemoveStore && $0.object as? NSPersistentStore === removing
        }
        #expect(willRemove.count == 1)
        let didRemove = try #require(
            removed.last {
                $0.name == .NSPersistentStoreCoordinatorStoresDidChange && $0.object as? NSPersistentStoreCoordinator === coordinator
            })
        let removedStores = try #require(didRemove.userInfo?[NSRemovedPersistentStoresKey] as? [NSPersistentStore])
        #expect(removedStores.count == 1 && removedStores.first === removing)
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func savingPostsTheSavedObjectIDs() throws {
        let (_, context) = try makeStack(Self.model())
        try context.performAndWait { () throws in
            let kept = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            let gone = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            try context.save()
            kept.setValue("changed", forKey: "text")
            context.delete(gone)
            let fresh = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            let posted = try Self.recording([.NSManagedObjectContextDidSaveObjectIDs], object: context) { try context.save() }
            let info = try #require(posted.first?.userInfo)
            #expect(posted.count == 1)
            #expect(info[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [fresh.objectID])
            #expect(info[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [kept.objectID])
            #expect(info[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [gone.objectID])
            #expect(NSManagedObjectContext.didSaveObjectIDsNotification == .NSManagedObjectContextDidSaveObjectIDs)
        }
    }

    @Test func mergingASavePostsTheMergedObjectIDs() throws {
        let folder = TemporaryFolder()
        let (coordinator, writer) = try makeStack(Self.model(), in: folder)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        var saved: Notification?
        var insertedID: NSManagedObjectID?
        try writer.performAndWait { () throws in
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer)
            let posted = try Self.recording([.NSManagedObjectContextDidSave], object: writer) { try writer.save() }
            saved = posted.first
            insertedID = note.objectID
        }
        let notification = try #require(saved)
        let merged = Self.recording([.NSManagedObjectContextDidMergeChangesObjectIDs], object: reader) {
            reader.performAndWait { reader.mergeChanges(fromContextDidSave: notification) }
        }
        let info = try #require(merged.first?.userInfo)
        #expect(info[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == Set([try #require(insertedID)]))
        #expect(NSManagedObjectContext.didMergeChangesObjectIDsNotification == .NSManagedObjectContextDidMergeChangesObjectIDs)
    }
}

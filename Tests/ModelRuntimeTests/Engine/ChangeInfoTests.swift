#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The change notifications' userInfo, made from templates: the keys of the sets that have
/// objects (`ObjectsDidChange`) or all three (`DidSave`, `DidSaveObjectIDs`), and each save's
/// own values, unchanged by the saves after it.
struct ChangeInfoTests {
    final class Seen: @unchecked Sendable {
        var infos: [(name: Notification.Name, info: [AnyHashable: Any])] = []
    }

    @Test func eachNotificationHasItsKeysAndKeepsItsValues() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        let seen = Seen()
        let names: [Notification.Name] = [
            .NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextDidSave, .NSManagedObjectContextDidSaveObjectIDs,
        ]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { note in
                seen.infos.append((note.name, note.userInfo ?? [:]))
            }
        }
        defer { for observer in observers { NotificationCenter.default.removeObserver(observer) } }
        let (first, second) = try context.performAndWait { () throws in
            let first = EngineTestModel.insert("Trip", into: context, ["name": "One"])
            try context.save()
            first.setValue("Uno", forKey: "name")
            try context.save()
            let second = EngineTestModel.insert("Trip", into: context, ["name": "Two"])
            context.delete(first)
            try context.save()
            return (first, second)
        }
        func infos(_ name: Notification.Name) -> [[AnyHashable: Any]] { seen.infos.filter { $0.name == name }.map(\.info) }
        let changes = infos(.NSManagedObjectContextObjectsDidChange)
        func keys(_ info: [AnyHashable: Any]) -> Set<String> { Set(info.keys.compactMap { $0 as? String }) }
        let changedKeys: [Set<String>] = [[NSInsertedObjectsKey], [NSUpdatedObjectsKey], [NSInsertedObjectsKey, NSDeletedObjectsKey]]
        #expect(changes.map(keys) == changedKeys)
        #expect(changes[0][NSInsertedObjectsKey] as? Set<NSManagedObject> == [first])
        #expect(changes[1][NSUpdatedObjectsKey] as? Set<NSManagedObject> == [first])
        #expect(changes[2][NSInsertedObjectsKey] as? Set<NSManagedObject> == [second])
        #expect(changes[2][NSDeletedObjectsKey] as? Set<NSManagedObject> == [first])
        let saves = infos(.NSManagedObjectContextDidSave)
        #expect(saves.count == 3)
        for info in saves { #expect(keys(info) == [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey]) }
        #expect(saves[0][NSInsertedObjectsKey] as? Set<NSManagedObject> == [first])
        #expect(saves[0][NSUpdatedObjectsKey] as? Set<NSManagedObject> == [])
        #expect(saves[1][NSUpdatedObjectsKey] as? Set<NSManagedObject> == [first])
        #expect(saves[1][NSInsertedObjectsKey] as? Set<NSManagedObject> == [])
        #expect(saves[2][NSInsertedObjectsKey] as? Set<NSManagedObject> == [second])
        #expect(saves[2][NSDeletedObjectsKey] as? Set<NSManagedObject> == [first])
        let ids = infos(.NSManagedObjectContextDidSaveObjectIDs)
        #expect(ids.count == 3)
        for info in ids {
            #expect(keys(info) == [NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey])
        }
        #expect((ids[1][NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 1)
        #expect(ids[2][NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [second.objectID])
    }
}
#endif

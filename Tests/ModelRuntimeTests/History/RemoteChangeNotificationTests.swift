#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` posts `.NSPersistentStoreRemoteChange`
/// when the store file changes.
struct RemoteChangeNotificationTests {
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var infos: [[AnyHashable: Any]] = []
        func append(_ info: [AnyHashable: Any]) { lock.withLock { infos.append(info) } }
        var first: [AnyHashable: Any]? { lock.withLock { infos.first } }
        var count: Int { lock.withLock { infos.count } }
    }

    /// Waits (up to two seconds) until `condition` holds.
    static func wait(until condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func anotherCoordinatorsSavePostsTheNotificationWithStoreURLAndHistoryToken() async throws {
        let folder = EngineTestModel.Folder()
        let model = HistoryTestSupport.model()
        var options = HistoryTestSupport.trackingOptions
        options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = true
        let (watching, _) = try HistoryTestSupport.stack(model: model, url: folder.store, options: options)
        let (_, writer) = try HistoryTestSupport.stack(model: model, url: folder.store)
        let received = Received()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: watching, queue: nil) {
            note in received.append(note.userInfo ?? [:])
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await Task.sleep(for: .milliseconds(250))
        #expect(received.count == 0)
        try writer.performAndWait {
            _ = EngineTestModel.insert("Trip", into: writer, ["name": "Alps"])
            try writer.save()
        }
        await Self.wait { received.count > 0 }
        let info = try #require(received.first)
        #expect((info[NSPersistentStoreURLKey] as? URL)?.standardizedFileURL == folder.store.standardizedFileURL)
        #expect(info[NSStoreUUIDKey] as? String == watching.persistentStores.first?.identifier)
        let token = try #require(info[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken)
        #expect(token == watching.currentPersistentHistoryToken(fromStores: nil))
    }

    @Test func noNotificationWithoutTheOptionOrAfterTheStoreIsRemoved() async throws {
        let folder = EngineTestModel.Folder()
        let model = HistoryTestSupport.model()
        let (plain, _) = try HistoryTestSupport.stack(model: model, url: folder.store, options: [:])
        let watching = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try watching.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.store,
            options: [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true])
        try watching.remove(store)
        let (_, writer) = try HistoryTestSupport.stack(model: model, url: folder.store, options: [:])
        let received = Received()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { note in
            if note.object as AnyObject === plain || note.object as AnyObject === watching { received.append([:]) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            _ = EngineTestModel.insert("Trip", into: writer, ["name": "Alps"])
            try writer.save()
        }
        try await Task.sleep(for: .milliseconds(400))
        #expect(received.count == 0)
    }
}
#endif

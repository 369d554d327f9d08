#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// What the controller reports to its delegate as the context changes: local changes when the
/// context processes them, saves, merges, reset.
struct FetchedResultsTrackingTests {
    typealias Fixture = FetchedResultsControllerTests

    static func trip(_ controller: NSFetchedResultsController<NSManagedObject>, _ name: String) throws -> NSManagedObject {
        try #require(controller.fetchedObjects?.first { $0.value(forKey: "name") as? String == name })
    }

    static func tracked(_ context: NSManagedObjectContext, sectionNameKeyPath: String? = "note") throws -> (
        NSFetchedResultsController<NSManagedObject>, FetchedResultsRecorder
    ) {
        let controller = NSFetchedResultsController(
            fetchRequest: Fixture.request(), managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        return (controller, recorder)
    }

    static func summary(_ recorder: FetchedResultsRecorder) -> [String] {
        recorder.sectionChanges.map { "section \($0.type) \($0.index) \($0.name)" }
            + recorder.objectChanges.map { change in
                let name = change.object.value(forKey: "name") as? String ?? "?"
                let old = change.indexPath.map { "\($0.section).\($0.row)" } ?? "-"
                let new = change.newIndexPath.map { "\($0.section).\($0.row)" } ?? "-"
                return "\(change.type) \(name) \(old) \(new)"
            }
    }

    @Test func localChangesAreReportedWhenTheContextProcessesThem() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Self.tracked(context)
            // alps: a b | Bay: f | beach: c d | city: e  (sections sort "Bay" < "alps" < "beach" < "city")
            _ = EngineTestModel.insert("Trip", into: context, ["name": "bb", "note": "alps"])
            context.delete(try Self.trip(controller, "e"))
            try Self.trip(controller, "c").setValue(9, forKey: "legs")
            try Self.trip(controller, "a").setValue("beach", forKey: "note")
            #expect(recorder.events.isEmpty, "nothing is reported before the context processes its changes")
            context.processPendingChanges()
            #expect(recorder.events.first == "will")
            #expect(recorder.events.last == "did")
            #expect(
                Self.summary(recorder).sorted() == [
                    "delete e 3.0 -", "insert bb - 1.1", "move a 1.0 2.0", "section delete 3 city", "update c 2.0 2.1",
                ])
            #expect(controller.sections?.map(\.name) == ["Bay", "alps", "beach"])
            #expect(controller.sections?.map { Fixture.names($0.objects) } == [["f"], ["b", "bb"], ["a", "c", "d"]])
            #expect(recorder.controllers.allSatisfy { $0.isEqual(controller) })
            recorder.reset()
            context.processPendingChanges()
            #expect(recorder.events.isEmpty, "processed changes are not reported twice")
        }
    }

    @Test func aMoveWithinASectionIsReportedWithBothPaths() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Self.tracked(context)
            try Self.trip(controller, "c").setValue("z", forKey: "name")
            context.processPendingChanges()
            #expect(Self.summary(recorder) == ["move z 2.0 2.1"])
            #expect(controller.indexPath(forObject: try Self.trip(controller, "z")) == IndexPath(item: 1, section: 2))
        }
    }

    @Test func newSectionsAreInsertedAtTheirNewIndex() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Self.tracked(context)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "g", "note": "ar"])
            try context.save()
            #expect(Self.summary(recorder).sorted() == ["insert g - 2.0", "section insert 2 ar"])
            #expect(recorder.sectionChanges.first?.name == "ar")
            #expect(controller.sections?.map(\.name) == ["Bay", "alps", "ar", "beach", "city"])
            #expect(controller.sections?[2].indexTitle == "A")
        }
    }

    @Test func performBlocksEndWithProcessedChanges() async throws {
        let context = try Fixture.context(Fixture.trips)
        let box = try await context.perform { () throws in
            let (controller, recorder) = try Self.tracked(context)
            return UncheckedPair(controller, recorder)
        }
        await context.perform {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "aa", "note": "alps"])
            #expect(box.recorder.events.isEmpty)
        }
        let summary = await context.perform { Self.summary(box.recorder) }
        #expect(summary == ["insert aa - 1.1"])
        _ = box.controller
    }

    @Test func objectsDidChangeCarriesTheChangesSinceTheLastTime() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let trips = try context.fetch(Fixture.request())
            let log = EntryLog()
            let observer = NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
            ) { notification in
                var entry: [String: Set<String>] = [:]
                for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey] {
                    if let objects = notification.userInfo?[key] as? Set<NSManagedObject> {
                        entry[key] = Set(objects.compactMap { $0.value(forKey: "name") as? String })
                    }
                }
                log.append(entry)
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let new = EngineTestModel.insert("Trip", into: context, ["name": "n"])
            trips[0].setValue(7, forKey: "legs")
            context.processPendingChanges()
            new.setValue(3, forKey: "legs")
            trips[0].setValue(8, forKey: "legs")
            context.delete(trips[1])
            context.processPendingChanges()
            context.delete(new)
            try context.save()
            let received = log.entries
            let first = trips[0].value(forKey: "name") as? String ?? ""
            let second = trips[1].value(forKey: "name") as? String ?? ""
            #expect(received.count == 3)
            #expect(received[0] == ["inserted": ["n"], "updated": [first]])
            #expect(received[1] == ["updated": ["n", first], "deleted": [second]])
            #expect(received[2] == ["deleted": ["n"]])
        }
    }

    @Test func theSnapshotFormReplacesTheOtherMethods() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Fixture.request(), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            let delegate = SnapshotDelegate()
            controller.delegate = delegate
            try controller.performFetch()
            let g = EngineTestModel.insert("Trip", into: context, ["name": "g", "note": "city"])
            context.processPendingChanges()
            #expect(delegate.events == ["snapshot"])
            let snapshot = try #require(delegate.snapshots.last)
            #expect(snapshot.sectionIdentifiers == ["Bay", "alps", "beach", "city"])
            #expect(snapshot.numberOfSections == 4)
            #expect(snapshot.numberOfItems == 7)
            #expect(snapshot.itemIdentifiers(inSection: "city").last == g.objectID)
            #expect(snapshot.numberOfItems(inSection: "alps") == 2)
            #expect(snapshot.indexOfItem(g.objectID) == 6)
            #expect(snapshot.indexOfSection("beach") == 2)
            #expect(snapshot.sectionIdentifier(containingItem: g.objectID) == "city")
            #expect(snapshot.itemIdentifiers == controller.fetchedObjects?.map(\.objectID))
            let reference = try #require(delegate.references.last)
            #expect(reference.numberOfItems == 7)
            #expect(reference.index(ofItemIdentifier: g.objectID) == 6)
            #expect(reference.index(ofSectionIdentifier: "nowhere") == NSNotFound)
            #expect(reference.itemIdentifiersInSection(withIdentifier: "Bay").count == 1)
        }
    }

    @Test func theDifferenceFormIsUsedWithoutSections() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Fixture.request(sortedBy: ["name"]), managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let delegate = DifferenceDelegate()
            controller.delegate = delegate
            try controller.performFetch()
            let before = try #require(controller.fetchedObjects?.map(\.objectID))
            let objects = try #require(controller.fetchedObjects)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "bb"])
            objects[0].setValue("zz", forKey: "name")
            context.delete(objects[3])
            context.processPendingChanges()
            #expect(delegate.events == ["difference"])
            let difference = try #require(delegate.differences.last)
            let after = try #require(controller.fetchedObjects?.map(\.objectID))
            #expect(before.applying(difference) == after)
        }
    }

    @Test func theDelegateNamesSectionIndexTitles() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Fixture.request(), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            let delegate = TitleDelegate()
            controller.delegate = delegate
            try controller.performFetch()
            #expect(controller.sections?.map(\.indexTitle) == ["BAY", "ALPS", "BEACH", "CITY"])
            #expect(controller.sectionIndexTitles == ["BAY", "ALPS", "BEACH", "CITY"])
        }
    }

    @Test func savesOfOtherContextsAreReportedWhenMerged() throws {
        let (coordinator, context) = try EngineTestModel.stack()
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let (controller, recorder) = try context.performAndWait { () throws in try Self.tracked(context) }
        let inbox = MergeInbox()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: other, queue: nil) {
            inbox.put($0)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.performAndWait { () throws in
            _ = EngineTestModel.insert("Trip", into: other, ["name": "x", "note": "alps"])
            try other.save()
        }
        let notification = try #require(inbox.take())
        context.performAndWait { context.mergeChanges(fromContextDidSave: notification) }
        context.performAndWait {
            #expect(Self.summary(recorder) == ["section insert 0 alps", "insert x - 0.0"])
            #expect(Fixture.names(controller.fetchedObjects) == ["x"])
        }
        recorder.reset()
        try other.performAndWait { () throws in
            let x = try #require(try other.fetch(Fixture.request()).first)
            x.setValue("beach", forKey: "note")
            try other.save()
        }
        let second = try #require(inbox.take())
        context.performAndWait { context.mergeChanges(fromContextDidSave: second) }
        context.performAndWait {
            #expect(controller.sections?.map(\.name) == ["beach"])
            #expect(Set(Self.summary(recorder)) == ["section delete 0 alps", "section insert 0 beach", "move x 0.0 0.0"])
        }
    }

    @Test func aChildContextsSaveIsReportedInTheParent() throws {
        let context = try Fixture.context(Fixture.trips)
        let (controller, recorder) = try context.performAndWait { () throws in try Self.tracked(context) }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        try child.performAndWait { () throws in
            _ = EngineTestModel.insert("Trip", into: child, ["name": "ab", "note": "alps"])
            try child.save()
        }
        context.performAndWait {
            #expect(Self.summary(recorder) == ["insert ab - 1.1"])
            #expect(controller.fetchedObjects?.count == 7)
        }
    }

    @Test func resetDropsTheResultsUntilTheNextFetch() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let (controller, recorder) = try Self.tracked(context)
            context.reset()
            #expect(controller.fetchedObjects == nil)
            #expect(controller.sections == nil)
            #expect(recorder.events.isEmpty)
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 6)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "n", "note": "city"])
            context.processPendingChanges()
            #expect(Self.summary(recorder) == ["insert n - 3.1"])
        }
    }

    @Test func withoutADelegateTheResultsStayAsFetched() throws {
        let context = try Fixture.context(Fixture.trips)
        try context.performAndWait { () throws in
            let controller = NSFetchedResultsController(
                fetchRequest: Fixture.request(), managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            try controller.performFetch()
            _ = EngineTestModel.insert("Trip", into: context, ["name": "n", "note": "city"])
            try context.save()
            #expect(controller.fetchedObjects?.count == 6)
        }
    }
}

/// The controller and delegate of a test, carried between `perform` blocks on the context's queue.
struct UncheckedPair: @unchecked Sendable {
    let controller: NSFetchedResultsController<NSManagedObject>
    let recorder: FetchedResultsRecorder
    init(_ controller: NSFetchedResultsController<NSManagedObject>, _ recorder: FetchedResultsRecorder) {
        self.controller = controller
        self.recorder = recorder
    }
}

final class SnapshotDelegate: NSObject, NSFetchedResultsControllerDelegate {
    var events: [String] = []
    var snapshots: [NSDiffableDataSourceSnapshot<String, NSManagedObjectID>] = []
    var references: [NSDiffableDataSourceSnapshotReference] = []
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { events.append("will") }
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { events.append("did") }
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference
    ) {
        events.append("snapshot")
        references.append(snapshot)
        snapshots.append(NSDiffableDataSourceSnapshot(snapshot))
    }
}

final class DifferenceDelegate: NSObject, NSFetchedResultsControllerDelegate {
    var events: [String] = []
    var differences: [CollectionDifference<NSManagedObjectID>] = []
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { events.append("will") }
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        events.append("difference")
        differences.append(diff)
    }
}

final class TitleDelegate: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String)
        -> String?
    {
        sectionName.uppercased()
    }
}

/// Hands notifications from observer closures to the test.
final class MergeInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: [Notification] = []
    func put(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
    func take() -> Notification? { lock.withLock { notifications.isEmpty ? nil : notifications.removeFirst() } }
}

/// Collects entries from observer closures.
final class EntryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [[String: Set<String>]] = []
    var entries: [[String: Set<String>]] { lock.withLock { stored } }
    func append(_ entry: [String: Set<String>]) { lock.withLock { stored.append(entry) } }
}
#endif

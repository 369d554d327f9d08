#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// The portable history workflow with two coordinators on one store file, standing in for an
/// app and its extension.
struct PersistentHistoryProcessorTests {
    struct Target {
        let coordinator: NSPersistentStoreCoordinator
        let context: NSManagedObjectContext
        let processor: PersistentHistoryProcessor

        init(_ name: String, model: NSManagedObjectModel, folder: EngineTestModel.Folder) throws {
            (coordinator, context) = try HistoryTestSupport.stack(model: model, url: folder.store, name: name)
            context.transactionAuthor = name
            processor = PersistentHistoryProcessor(
                target: name, knownTargets: ["app", "widget"], directory: folder.url.appendingPathComponent("History"),
                coordinator: coordinator)
        }
    }

    static func transactionCount(_ folder: EngineTestModel.Folder) throws -> Int64? {
        try HistoryTestSupport.rows(folder.store, "SELECT COUNT(*) FROM ATRANSACTION").first?[0].integerValue
    }

    @Test func eachTargetMergesTheOthersChangesAndHistoryIsPurgedOnlyWhenBothHaveProcessedIt() throws {
        let folder = EngineTestModel.Folder()
        let model = HistoryTestSupport.model()
        let app = try Target("app", model: model, folder: folder)
        let widget = try Target("widget", model: model, folder: folder)
        let trip = try app.context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: app.context, ["name": "Alps"])
            try app.context.save()
            return trip
        }
        try widget.context.performAndWait {
            let trips = try widget.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            trips.first?.setValue("Alps in winter", forKey: "name")
            try widget.context.save()
        }
        // The app merges the widget's transaction, not its own.
        let merged = try app.processor.processNewHistory(mergingInto: [app.context])
        #expect(merged.map(\.author) == ["widget"])
        app.context.performAndWait { #expect(trip.value(forKey: "name") as? String == "Alps in winter") }
        // The widget has not processed anything yet: nothing is purged.
        #expect(try Self.transactionCount(folder) == 2)
        #expect(try widget.processor.processNewHistory(mergingInto: [widget.context]).map(\.author) == ["app"])
        // Both have processed both transactions: everything before the slowest token goes.
        #expect(try Self.transactionCount(folder) == 1)

        // A restarted target reads its token from disk and sees only what is new.
        let relaunched = PersistentHistoryProcessor(
            target: "app", knownTargets: ["app", "widget"], directory: folder.url.appendingPathComponent("History"),
            coordinator: app.coordinator)
        #expect(try relaunched.processNewHistory(mergingInto: [app.context]).isEmpty)
        try widget.context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: widget.context, ["name": "Coast"])
            try widget.context.save()
        }
        let later = try relaunched.processNewHistory(mergingInto: [app.context])
        #expect(later.count == 1 && later.first?.changes?.first?.changeType == .insert)
        // The widget is now behind: the newest transaction is kept until it catches up.
        #expect(try Self.transactionCount(folder) == 2)
        try widget.processor.processNewHistory(mergingInto: [widget.context])
        #expect(try Self.transactionCount(folder) == 1)
    }

    @Test func aTargetWhoseTokenExpiredStartsOverFromTheCurrentToken() throws {
        let folder = EngineTestModel.Folder()
        let model = HistoryTestSupport.model()
        let app = try Target("app", model: model, folder: folder)
        try app.context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: app.context, ["name": "A"])
            try app.context.save()
        }
        try app.processor.processNewHistory(mergingInto: [])
        try app.context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: app.context, ["name": "B"])
            try app.context.save()
            _ = EngineTestModel.insert("Trip", into: app.context, ["name": "C"])
            try app.context.save()
            // Someone deletes all history, including what the app has not processed.
            _ = try app.context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date().addingTimeInterval(60)))
        }
        #expect(try app.processor.processNewHistory(mergingInto: [app.context]).isEmpty)
        try app.context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: app.context, ["name": "D"])
            app.context.transactionAuthor = "importer"
            try app.context.save()
        }
        #expect(try app.processor.processNewHistory(mergingInto: [app.context]).map(\.author) == ["importer"])
    }

    @Test func aCorruptStateFileIsAnErrorNotACrash() throws {
        let folder = EngineTestModel.Folder()
        let app = try Target("app", model: HistoryTestSupport.model(), folder: folder)
        let directory = folder.url.appendingPathComponent("History")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let state = directory.appendingPathComponent("app.history.plist")
        try Data("not a plist".utf8).write(to: state)
        #expect(throws: (any Error).self) { try app.processor.processNewHistory(mergingInto: []) }
        // A well-formed state file whose token is damaged, or an archive of another class: Linux's
        // unarchiver would stop the process on either.
        let otherClass = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "token"), requiringSecureCoding: true)
        let dictionary = try NSKeyedArchiver.archivedData(
            withRootObject: NSDictionary(dictionary: ["k": NSNumber(value: 1)]), requiringSecureCoding: true)
        for token in [Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 1, 2, 3]), otherClass, dictionary] {
            let plist: [String: Any] = ["token": token, "timestamp": Date()]
            try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: state)
            #expect(throws: (any Error).self) { try app.processor.processNewHistory(mergingInto: []) }
        }
    }
}
#endif

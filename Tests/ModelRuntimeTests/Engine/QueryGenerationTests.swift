#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Query generations: a context pinned with `setQueryGenerationFrom(.current)` reads its store as
/// it was then, until it saves, merges or resets.
struct QueryGenerationTests {
    private let model = EngineTestModel.make()

    /// Two contexts on two coordinators of one file store holding trips A and B.
    private func twoContexts(_ folder: EngineTestModel.Folder) throws -> (reader: NSManagedObjectContext, writer: NSManagedObjectContext) {
        let (_, writer) = try EngineTestModel.stack(model: model, url: folder.store)
        try writer.performAndWait {
            for name in ["A", "B"] { _ = EngineTestModel.insert("Trip", into: writer, ["name": name]) }
            try writer.save()
        }
        let (_, reader) = try EngineTestModel.stack(model: model, url: folder.store)
        return (reader, writer)
    }

    private func names(_ context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
    }

    private func write(_ context: NSManagedObjectContext, _ change: @escaping (NSManagedObjectContext) throws -> Void) throws {
        try context.performAndWait {
            try change(context)
            try context.save()
        }
    }

    @Test func aPinnedContextReadsTheGenerationItWasPinnedTo() throws {
        let folder = EngineTestModel.Folder()
        let (reader, writer) = try twoContexts(folder)
        try reader.performAndWait {
            #expect(reader.queryGenerationToken == nil)
            try reader.setQueryGenerationFrom(.current)
            #expect(reader.queryGenerationToken != nil && reader.queryGenerationToken != .current)
        }
        try write(writer) { context in
            _ = EngineTestModel.insert("Trip", into: context, ["name": "C"])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name == %@", "A")
            let a = try #require(try context.fetch(request).first)
            a.setValue("A2", forKey: "name")
        }
        #expect(try names(reader) == ["A", "B"])
        let count = try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Trip")) }
        #expect(count == 2)
        // Unpinned, it reads the newest data.
        try reader.performAndWait { try reader.setQueryGenerationFrom(nil) }
        #expect(try names(reader) == ["A2", "B", "C"])
    }

    @Test func aFaultOfARowDeletedElsewhereStillFillsFromThePinnedGeneration() throws {
        let folder = EngineTestModel.Folder()
        let (reader, writer) = try twoContexts(folder)
        // An ID alone: the object is a fault whose row is read on first use.
        let trip = try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Trip")
            request.resultType = .managedObjectIDResultType
            request.predicate = NSPredicate(format: "name == %@", "B")
            let id = try #require(try reader.fetch(request).first)
            let object = reader.object(with: id)
            #expect(object.isFault)
            return object
        }
        try write(writer) { context in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name == %@", "B")
            for object in try context.fetch(request) { context.delete(object) }
        }
        let name = reader.performAndWait { trip.value(forKey: "name") as? String }
        #expect(name == "B")
        #expect(reader.performAndWait { !trip.isDeleted })
    }

    @Test func savingMergingAndResettingMoveToTheNewestGeneration() throws {
        let folder = EngineTestModel.Folder()
        let (reader, writer) = try twoContexts(folder)
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        let first = reader.performAndWait { reader.queryGenerationToken }
        try write(writer) { _ = EngineTestModel.insert("Trip", into: $0, ["name": "C"]) }
        #expect(try names(reader) == ["A", "B"])
        try write(reader) { _ = EngineTestModel.insert("Trip", into: $0, ["name": "R"]) }
        #expect(try names(reader) == ["A", "B", "C", "R"])
        #expect(reader.performAndWait { reader.queryGenerationToken } != first)

        final class Saved: @unchecked Sendable { var notification: Notification? }
        let saved = Saved()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) {
            saved.notification = $0
        }
        try write(writer) { _ = EngineTestModel.insert("Trip", into: $0, ["name": "D"]) }
        NotificationCenter.default.removeObserver(token)
        #expect(try names(reader) == ["A", "B", "C", "R"])
        let notification = try #require(saved.notification)
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: notification) }
        #expect(try names(reader) == ["A", "B", "C", "D", "R"])

        try write(writer) { _ = EngineTestModel.insert("Trip", into: $0, ["name": "E"]) }
        reader.performAndWait { reader.reset() }
        #expect(try names(reader) == ["A", "B", "C", "D", "E", "R"])
        #expect(reader.performAndWait { reader.queryGenerationToken } != nil)
    }

    @Test func aSaveOverARowChangedSinceThePinnedGenerationIsAConflict() throws {
        let folder = EngineTestModel.Folder()
        let (reader, writer) = try twoContexts(folder)
        let trip = try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            return try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
        }
        try write(writer) { context in
            for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")) {
                object.setValue(3.0, forKey: "distance")
            }
        }
        let code: Int? = reader.performAndWait {
            trip.setValue(9.0, forKey: "distance")
            do {
                try reader.save()
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code == NSManagedObjectMergeError)
    }

    @Test func anotherContextsTokenIsRefusedAndOwnTokenKeepsThePlace() throws {
        let folder = EngineTestModel.Folder()
        let (reader, writer) = try twoContexts(folder)
        let other = try writer.performAndWait {
            try writer.setQueryGenerationFrom(.current)
            return try #require(writer.queryGenerationToken)
        }
        try reader.performAndWait {
            #expect {
                try reader.setQueryGenerationFrom(other)
            } throws: { ($0 as NSError).code == NSPersistentStoreOperationError }
            try reader.setQueryGenerationFrom(.current)
            let own = try #require(reader.queryGenerationToken)
            try reader.setQueryGenerationFrom(own)
            #expect(reader.queryGenerationToken == own)
            #expect(NSQueryGenerationToken.current.copy() as? NSQueryGenerationToken == .current)
        }
    }

    @Test func aStoreInMemoryIsReadUnpinned() throws {
        let (_, context) = try EngineTestModel.stack(model: model)
        try context.performAndWait {
            try context.setQueryGenerationFrom(.current)
            #expect(context.queryGenerationToken != nil)
            _ = EngineTestModel.insert("Trip", into: context, ["name": "M"])
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Trip")) == 1)
        }
    }
}
#endif

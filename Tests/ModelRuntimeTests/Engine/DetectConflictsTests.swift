#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `detectConflicts(for:)`: optimistic locking for an unchanged object.
struct DetectConflictsTests {
    /// A store with trips A and B; `reader` has read trip A and marked it, `writer` renames it.
    private func conflicted(policy: Any) throws -> (folder: EngineTestModel.Folder, reader: NSManagedObjectContext, trip: NSManagedObject) {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let (_, writer) = try EngineTestModel.stack(model: model, url: folder.store)
        try writer.performAndWait {
            for name in ["A", "B"] { _ = EngineTestModel.insert("Trip", into: writer, ["name": name, "legs": 1]) }
            try writer.save()
        }
        let (_, reader) = try EngineTestModel.stack(model: model, url: folder.store)
        reader.mergePolicy = policy
        let trip = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name == 'A'")
            let trip = try #require(try reader.fetch(request).first)
            _ = trip.value(forKey: "legs")
            reader.detectConflicts(for: trip)
            return trip
        }
        try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "name == 'A'")
            try #require(try writer.fetch(request).first).setValue(9, forKey: "legs")
            try writer.save()
        }
        return (folder, reader, trip)
    }

    /// The reader saves a change to trip B.
    private func saveOtherChange(_ reader: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
        request.predicate = NSPredicate(format: "name == 'B'")
        try #require(try reader.fetch(request).first).setValue(2, forKey: "legs")
        try reader.save()
    }

    private func storedLegs(_ folder: EngineTestModel.Folder) throws -> [String: Int64] {
        let (_, context) = try EngineTestModel.stack(model: EngineTestModel.make(), url: folder.store)
        return try context.performAndWait {
            var legs: [String: Int64] = [:]
            for trip in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")) {
                legs[trip.value(forKey: "name") as? String ?? ""] = trip.value(forKey: "legs") as? Int64
            }
            return legs
        }
    }

    @Test func anUnchangedMarkedObjectWhoseRowChangedFailsTheSave() throws {
        let (folder, reader, trip) = try conflicted(policy: NSErrorMergePolicy)
        let error: NSError? = reader.performAndWait {
            do {
                try saveOtherChange(reader)
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflicts = error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
        #expect(conflicts.count == 1 && conflicts.first?.sourceObject === trip)
        // Nothing was written: trip B keeps its value.
        #expect(try storedLegs(folder) == ["A": 9, "B": 1])
    }

    @Test func resolvingPoliciesTakeTheRowOrWriteTheObject() throws {
        let (kept, keptReader, keptTrip) = try conflicted(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        try keptReader.performAndWait { try saveOtherChange(keptReader) }
        #expect(keptReader.performAndWait { keptTrip.value(forKey: "legs") as? Int64 } == 9)
        #expect(try storedLegs(kept) == ["A": 9, "B": 2])

        let (overwritten, overwritingReader, _) = try conflicted(policy: NSOverwriteMergePolicy)
        try overwritingReader.performAndWait { try saveOtherChange(overwritingReader) }
        #expect(try storedLegs(overwritten) == ["A": 1, "B": 2])
    }

    @Test func theMarkLastsUntilASaveSucceedsAndAnUnchangedRowPasses() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            _ = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            try context.save()
            context.detectConflicts(for: a)
            try saveOtherChange(context)
            #expect(!context.hasChanges)
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Persistent history recorded before a migration reads correctly after it with the new model:
/// changes point at the renumbered entities, updated properties follow renames and removals,
/// tombstones move to the new attributes' slots.
struct HistoryMigrationTests {
    /// Version 2 adds `Album` in front (Note becomes entity 2, Tag 3), renames `Note.title` to
    /// `heading`, removes `Note.body` and adds `Note.archived`; the tombstone order changes from
    /// (score, title) to (heading, score).
    static let versions = [
        (
            "Notes 1",
            """
            entities:
              Note:
                attributes:
                  title: { type: String, preserveAfterDeletion: true }
                  body: String?
                  score: { type: Integer 32, default: 0, preserveAfterDeletion: true }
              Tag:
                attributes:
                  label: String
            """
        ),
        (
            "Notes 2",
            """
            entities:
              Album:
                attributes:
                  name: String?
              Note:
                attributes:
                  heading: { type: String, renamingIdentifier: title, preserveAfterDeletion: true }
                  score: { type: Integer 32, default: 0, preserveAfterDeletion: true }
                  archived: { type: Boolean, default: false }
              Tag:
                attributes:
                  label: String
            """
        ),
    ]

    /// Compiles the two versions into `Notes.momd` in `folder`.
    static func compile(into folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("Notes.modeld")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        for (name, yaml) in versions {
            try yaml.write(to: source.appendingPathComponent("\(name).model.yaml"), atomically: true, encoding: .utf8)
        }
        try "versions:\n  - Notes 1\n  - Notes 2\ncurrent: Notes 2\n".write(
            to: source.appendingPathComponent("versions.yaml"), atomically: true, encoding: .utf8)
        let loaded = Pipeline.load(source.path)
        let model = try #require(loaded.model, "\(loaded.diagnostics)")
        let output = folder.appendingPathComponent("compiled")
        for file in CompiledModel.files(for: model) {
            let url = output.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return output.appendingPathComponent("Notes.momd")
    }

    @Test func historyWrittenBeforeAMigrationReadsCorrectlyAfterIt() throws {
        let folder = EngineTestModel.Folder()
        let momd = try Self.compile(into: folder.url)
        let first = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("Notes 1.mom")))
        do {
            let (_, context) = try HistoryTestSupport.stack(model: first, url: folder.store)
            try context.performAndWait {
                let kept = EngineTestModel.insert("Note", into: context, ["title": "kept", "body": "b", "score": NSNumber(value: 1)])
                let gone = EngineTestModel.insert("Note", into: context, ["title": "gone", "score": NSNumber(value: 2)])
                _ = EngineTestModel.insert("Tag", into: context, ["label": "red"])
                try context.save()
                kept.setValue("kept 2", forKey: "title")
                kept.setValue("b2", forKey: "body")
                try context.save()
                gone.setValue(NSNumber(value: 3), forKey: "score")
                try context.save()
                context.delete(gone)
                try context.save()
            }
        }
        let before = try HistoryTestSupport.rows(folder.store, "SELECT ZENTITY FROM ACHANGE ORDER BY Z_PK")
        #expect(before.map { $0[0].integerValue } == [1, 1, 2, 1, 1, 1])

        let current = try #require(NSManagedObjectModel(contentsOf: momd))
        var options = HistoryTestSupport.trackingOptions
        options[NSMigratePersistentStoresAutomaticallyOption] = true
        options[NSInferMappingModelAutomaticallyOption] = true
        let (_, context) = try HistoryTestSupport.stack(model: current, url: folder.store, options: options)
        try context.performAndWait {
            let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
            let transactions = try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.count == 4)
            let changes = transactions.flatMap { $0.changes ?? [] }
            #expect(changes.map(\.changeType) == [.insert, .insert, .insert, .update, .update, .delete])
            #expect(changes.map { $0.changedObjectID.entity.name } == ["Note", "Note", "Tag", "Note", "Note", "Note"])
            // The changed object IDs reach the migrated rows.
            let kept = try context.existingObject(with: changes[0].changedObjectID)
            #expect(kept.value(forKey: "heading") as? String == "kept 2")
            #expect(try context.existingObject(with: changes[2].changedObjectID).value(forKey: "label") as? String == "red")
            #expect(changes[3].changedObjectID == kept.objectID)
            // `title` and `body` changed: the renamed `heading` is reported, the removed `body` is not.
            #expect(changes[3].updatedProperties?.map(\.name).sorted() == ["heading"])
            #expect(changes[4].updatedProperties?.map(\.name).sorted() == ["score"])
            #expect(changes[5].tombstone?["heading"] as? String == "gone")
            #expect((changes[5].tombstone?["score"] as? NSNumber)?.intValue == 3)
            #expect(changes[5].tombstone?.count == 2)
        }
        let after = try HistoryTestSupport.rows(folder.store, "SELECT ZENTITY FROM ACHANGE ORDER BY Z_PK")
        #expect(after.map { $0[0].integerValue } == [2, 2, 3, 2, 2, 2])
    }
}
#endif

import Foundation
import Testing

/// `NSFetchRequest.shouldRefreshRefetchedObjects`. Evidence: Apple's documentation of the
/// property: "By default when you fetch objects, they maintain their current property values,
/// even if the values in the persistent store have changed. Invoking this method with the
/// parameter true means that when the fetch is executed, the property values of fetched objects
/// are updated with the current values in the persistent store", offered as a more convenient way
/// than `refresh(_:mergeChanges:)` of each object. That unsaved changes survive, as with
/// `mergeChanges: true`, is inferred from that comparison.
struct RefreshRefetchedTests {
    static func model() -> NSManagedObjectModel {
        ModelBuilder.model([
            ModelBuilder.entity(
                "Note", [ModelBuilder.attribute("title", .stringAttributeType), ModelBuilder.attribute("rank", .integer64AttributeType)])
        ])
    }

    /// A second context over the same coordinator changes both notes and saves.
    static func changeElsewhere(_ coordinator: NSPersistentStoreCoordinator) throws {
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait { () throws in
            for note in try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) {
                note.setValue("\(note.value(forKey: "title") as? String ?? "") (edited)", forKey: "title")
                note.setValue((note.value(forKey: "rank") as? Int64 ?? 0) + 10, forKey: "rank")
            }
            try other.save()
        }
    }

    @Test func aRefetchKeepsLoadedValuesUnlessTheRequestRefreshesThem() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try makeStack(Self.model(), in: folder)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
        let notes: [NSManagedObject] = try context.performAndWait { () throws in
            for (rank, title) in ["first", "second"].enumerated() {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue(title, forKey: "title")
                note.setValue(Int64(rank), forKey: "rank")
            }
            try context.save()
            let notes = try context.fetch(request)
            #expect(notes.map { $0.value(forKey: "title") as? String } == ["first", "second"])
            return notes
        }
        try Self.changeElsewhere(coordinator)
        try context.performAndWait { () throws in
            // By default the loaded objects keep the values they had.
            let again = try context.fetch(request)
            #expect(again.count == 2 && zip(again, notes).allSatisfy { $0 === $1 })
            #expect(again.map { $0.value(forKey: "title") as? String } == ["first", "second"])
            // An unsaved change, which refreshing keeps.
            notes[1].setValue(Int64(99), forKey: "rank")
            request.shouldRefreshRefetchedObjects = true
            let refreshed = try context.fetch(request)
            #expect(Set(refreshed.map(ObjectIdentifier.init)) == Set(notes.map(ObjectIdentifier.init)))
            #expect(notes[0].value(forKey: "title") as? String == "first (edited)")
            #expect(notes[0].value(forKey: "rank") as? Int64 == 10)
            #expect(!notes[0].hasChanges)
            #expect(notes[1].value(forKey: "title") as? String == "second (edited)")
            #expect(notes[1].value(forKey: "rank") as? Int64 == 99)
            #expect(notes[1].isUpdated)
            #expect(notes[1].changedValues().keys.sorted() == ["rank"])
            // Saving writes the kept change over the refreshed row without a conflict.
            try context.save()
        }
        let check = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        check.persistentStoreCoordinator = coordinator
        try check.performAndWait { () throws in
            let stored = try check.fetch(request).map { [$0.value(forKey: "title") as? String ?? "", "\($0.value(forKey: "rank") ?? "")"] }
            #expect(stored == [["first (edited)", "10"], ["second (edited)", "99"]])
        }
    }
}

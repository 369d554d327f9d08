#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// `assign(_:to:)`: an inserted object saved into the store chosen for it.
struct AssignToStoreTests {
    @Test func anAssignedObjectIsSavedIntoItsStoreAndTheOthersIntoTheFirst() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let firstURL = folder.url.appendingPathComponent("First.sqlite")
        let secondURL = folder.url.appendingPathComponent("Second.sqlite")
        let first = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: firstURL)
        let second = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: secondURL)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let a = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            let b = EngineTestModel.insert("Trip", into: context, ["name": "B"])
            let c = EngineTestModel.insert("Trip", into: context, ["name": "C"])
            context.assign(b, to: second)
            try context.save()
            #expect(a.objectID.persistentStore === first && c.objectID.persistentStore === first)
            #expect(b.objectID.persistentStore === second)
        }
        func names(_ url: URL) throws -> [String] {
            let (_, other) = try EngineTestModel.stack(model: model, url: url)
            return try other.performAndWait {
                try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).compactMap { $0.value(forKey: "name") as? String }
                    .sorted()
            }
        }
        #expect(try names(firstURL) == ["A", "C"])
        #expect(try names(secondURL) == ["B"])
    }
}
#endif

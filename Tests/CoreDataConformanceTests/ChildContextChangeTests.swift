import Foundation
import Testing

/// A child context's save pushes its changes into its parent, which then holds them as its own
/// unsaved changes. Evidence: Apple's documentation of `NSManagedObjectContext.parent` ("saving
/// a child context pushes its changes up to the parent") and of `insertedObjects`,
/// `updatedObjects`, `deletedObjects` and `hasChanges`.
struct ChildContextChangeTests {
    @Test func aChildsSavedChangesAreTheParentsUnsavedChanges() throws {
        let model = ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
        let (_, parent) = try makeStack(model)
        var ids: [NSManagedObjectID] = []
        try parent.performAndWait { () throws in
            for text in ["kept", "changed", "deleted"] {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: parent).setValue(text, forKey: "text")
            }
            try parent.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            ids = try parent.fetch(request).map(\.objectID)
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait { () throws in
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: child).setValue("new 1", forKey: "text")
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: child).setValue("new 2", forKey: "text")
            child.object(with: ids[0]).setValue("changed twice", forKey: "text")
            child.delete(child.object(with: ids[1]))
            #expect(child.insertedObjects.count == 2)
            #expect(child.updatedObjects.count == 1)
            #expect(child.deletedObjects.count == 1)
            try child.save()
            #expect(!child.hasChanges)
            #expect(child.insertedObjects.isEmpty && child.updatedObjects.isEmpty && child.deletedObjects.isEmpty)
        }
        parent.performAndWait {
            #expect(parent.hasChanges)
            #expect(parent.insertedObjects.count == 2)
            #expect(parent.updatedObjects.count == 1)
            #expect(parent.deletedObjects.count == 1)
            #expect(parent.updatedObjects.first?.value(forKey: "text") as? String == "changed twice")
        }
    }
}

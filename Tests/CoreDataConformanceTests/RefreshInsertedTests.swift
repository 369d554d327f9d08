import Foundation
import Testing

/// Refreshing an inserted object. Evidence: Apple's documentation of
/// `NSManagedObjectContext.refresh(_:mergeChanges:)`: "If flag is false, then object is turned
/// into a fault and any pending changes are lost."
struct RefreshInsertedTests {
    @Test func refreshingAnInsertedObjectWithoutMergingMakesItAFault() throws {
        let model = ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
        let (_, context) = try makeStack(model)
        context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("draft", forKey: "text")
            context.refresh(note, mergeChanges: true)
            #expect(!note.isFault)
            #expect(note.value(forKey: "text") as? String == "draft")
            context.refresh(note, mergeChanges: false)
            #expect(note.isFault)
            #expect(note.isInserted)
            #expect(note.value(forKey: "text") == nil)
            #expect(context.insertedObjects.contains(note))
        }
    }
}

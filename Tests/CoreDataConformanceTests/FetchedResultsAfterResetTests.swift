import Foundation
import Testing

/// A fetched-results controller keeps tracking its context after the context is reset and the
/// controller fetches again. Evidence: Apple's documentation of `NSFetchedResultsController`
/// (after `performFetch()` the controller tracks changes to its context's objects and tells its
/// delegate) and of `reset()` (all the context's objects are forgotten; a controller must fetch
/// again).
struct FetchedResultsAfterResetTests {
    final class Recorder: NSObject, NSFetchedResultsControllerDelegate {
        var changes = 0
        var contentChanges = 0
        func controller(
            _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
            for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
        ) { changes += 1 }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { contentChanges += 1 }
    }

    @Test func theDelegateHearsChangesAfterAResetAndAFetch() throws {
        let model = ModelBuilder.model([ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])])
        let (_, context) = try makeStack(model)
        try context.performAndWait { () throws in
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("a", forKey: "text")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 1)
            context.reset()
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 1)
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("b", forKey: "text")
            try context.save()
            #expect(recorder.changes == 1)
            #expect(recorder.contentChanges == 1)
            #expect(controller.fetchedObjects?.count == 2)
        }
    }
}

#if !canImport(CoreData)
import Foundation
import Testing

@testable import ModelRuntime

final class LibraryAuthor: NSManagedObject {}
final class LibraryBook: NSManagedObject {}
final class LibraryPage: NSManagedObject {}

/// Two versions of one model built in code, in use at once with the same entity and class
/// names (as a library's tests have them, one version per test): a class's `entity()` may
/// answer with the other version's entity, whose slots are numbered otherwise. Objects made of
/// it are the context's model's objects, and relating them keeps every value in its property.
@Suite struct SameNamedModelsTests {
    /// Author, Book, Page; the second version gives books a `rating`, which sorts before the
    /// book's other properties and moves every one of its slots.
    static func model(version: Int) -> NSManagedObjectModel {
        func entity(_ name: String, _ type: NSManagedObject.Type, _ attributes: [(String, NSAttributeType)]) -> NSEntityDescription {
            let entity = NSEntityDescription()
            entity.name = name
            entity.managedObjectClassName = String(reflecting: type)
            entity.properties = attributes.map { name, type in
                let attribute = NSAttributeDescription()
                attribute.name = name
                attribute.attributeType = type
                return attribute
            }
            return entity
        }
        func relate(_ source: NSEntityDescription, _ name: String, _ destination: NSEntityDescription, _ inverseName: String) {
            let forward = NSRelationshipDescription()
            forward.name = name
            forward.destinationEntity = destination
            forward.maxCount = 0
            let inverse = NSRelationshipDescription()
            inverse.name = inverseName
            inverse.destinationEntity = source
            inverse.maxCount = 1
            forward.inverseRelationship = inverse
            inverse.inverseRelationship = forward
            source.properties += [forward]
            destination.properties += [inverse]
        }
        let author = entity("Author", LibraryAuthor.self, [("name", .stringAttributeType)])
        let book = entity(
            "Book", LibraryBook.self,
            [("title", .stringAttributeType), ("uniqueID", .UUIDAttributeType)] + (version == 2 ? [("rating", .doubleAttributeType)] : []))
        let page = entity("Page", LibraryPage.self, [("number", .integer32AttributeType)])
        relate(author, "books", book, "author")
        relate(book, "pages", page, "book")
        let model = NSManagedObjectModel()
        model.entities = [author, book, page]
        return model
    }

    static func stack(_ model: NSManagedObjectModel, in folder: ScratchFolder, _ name: String) throws -> (
        NSPersistentStoreCoordinator, NSManagedObjectContext
    ) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.url.appendingPathComponent(name), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    /// Books of the class's entity (the second version's) inserted into the first version's
    /// context, made outside it and inserted later, or made in a child context of it.
    @Test(arguments: ["inserted later", "child context"])
    func booksOfAnotherVersionsEntityKeepTheirValues(way: String) throws {
        let folder = try ScratchFolder()
        // The second version is in use first, so the classes' entities are its entities.
        let (_, newer) = try Self.stack(Self.model(version: 2), in: folder, "V2.sqlite")
        let (coordinator, context) = try Self.stack(Self.model(version: 1), in: folder, "V1.sqlite")
        #expect(LibraryBook.entity().managedObjectModel !== coordinator.managedObjectModel)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        let working = way == "child context" ? child : context
        var uniqueIDs: [String: UUID] = [:]
        try working.performAndWait { () throws in
            var authors: [NSManagedObject] = []
            for index in 0..<20 {
                let author = LibraryAuthor(context: working)
                author.setValue("author-\(index)", forKey: "name")
                authors.append(author)
            }
            for index in 0..<300 {
                let book: NSManagedObject
                if way == "child context" {
                    book = LibraryBook(entity: LibraryBook.entity(), insertInto: working)
                } else {
                    book = LibraryBook(entity: LibraryBook.entity(), insertInto: nil)
                }
                let uniqueID = UUID()
                uniqueIDs["book-\(index)"] = uniqueID
                book.setValue("book-\(index)", forKey: "title")
                book.setValue(uniqueID, forKey: "uniqueID")
                if way != "child context" { working.insert(book) }
                #expect(book.entity === coordinator.managedObjectModel.entitiesByName["Book"])
                authors[index % 20].mutableSetValue(forKey: "books").add(book)
                for number in 0..<2 {
                    let page = LibraryPage(entity: LibraryPage.entity(), insertInto: working)
                    page.setValue(Int32(number), forKey: "number")
                    page.setValue(book, forKey: "book")
                }
                #expect(book.value(forKey: "uniqueID") as? UUID == uniqueID)
                #expect(book.value(forKey: "title") as? String == "book-\(index)")
            }
            try working.save()
        }
        if working === child { try context.performAndWait { try context.save() } }
        try context.performAndWait { () throws in
            context.reset()
            let books = try context.fetch(NSFetchRequest<LibraryBook>(entityName: "Book"))
            #expect(books.count == 300)
            for book in books {
                let title = try #require(book.value(forKey: "title") as? String)
                #expect(book.value(forKey: "uniqueID") as? UUID == uniqueIDs[title], "\(title)")
                let index = try #require(Int(title.dropFirst("book-".count)))
                let author = book.value(forKey: "author") as? NSManagedObject
                #expect(author?.value(forKey: "name") as? String == "author-\(index % 20)", "\(title)")
                #expect((book.value(forKey: "pages") as? NSSet)?.count == 2, "\(title)")
            }
        }
        withExtendedLifetime(newer) {}
    }
}
#endif

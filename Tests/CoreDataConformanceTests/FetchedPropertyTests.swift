import Foundation
import Testing

/// Fetched properties (`NSFetchedPropertyDescription`). Evidence: the SDK's
/// NSFetchedPropertyDescription.h ("As part of the predicate for a fetched property, you can use
/// the two variables $FETCH_SOURCE (which is the managed object fetching the property) and
/// $FETCHED_PROPERTY (which is the NSFetchedPropertyDescription instance)"), and the Core Data
/// Programming Guide: fetched properties are evaluated lazily, are not updated when the
/// destination objects change, and `refreshObject:mergeChanges:` makes the request run again the
/// next time the property is read.
struct FetchedPropertyTests {
    /// Authors and their feedback, related only through a fetched property (the author's alias
    /// is the feedback's `authorAlias`); folders and notes, with a fetched property of the good
    /// notes whose threshold is in the property's user info.
    static func makeModel() -> NSManagedObjectModel {
        let author = ModelBuilder.entity("Author", [ModelBuilder.attribute("alias", .stringAttributeType)])
        let feedback = ModelBuilder.entity(
            "Feedback",
            [ModelBuilder.attribute("authorAlias", .stringAttributeType), ModelBuilder.attribute("rating", .integer64AttributeType)])
        let folder = ModelBuilder.entity("Folder", [ModelBuilder.attribute("name", .stringAttributeType)])
        let note = ModelBuilder.entity(
            "Note", [ModelBuilder.attribute("title", .stringAttributeType), ModelBuilder.attribute("rating", .integer64AttributeType)])
        ModelBuilder.relate(folder, "notes", toMany: true, note, "folder", inverseToMany: false)

        let feedbacks = NSFetchedPropertyDescription()
        feedbacks.name = "feedbacks"
        let feedbackRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Feedback")
        feedbackRequest.predicate = NSPredicate(format: "authorAlias == $FETCH_SOURCE.alias")
        feedbackRequest.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false)]
        feedbackRequest.entity = feedback
        feedbacks.fetchRequest = feedbackRequest
        author.properties.append(feedbacks)

        let goodNotes = NSFetchedPropertyDescription()
        goodNotes.name = "goodNotes"
        goodNotes.userInfo = ["minimum": NSNumber(value: 3)]
        let notesRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        notesRequest.predicate = NSPredicate(format: "folder == $FETCH_SOURCE AND rating >= $FETCHED_PROPERTY.userInfo.minimum")
        notesRequest.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        notesRequest.entity = note
        goodNotes.fetchRequest = notesRequest
        folder.properties.append(goodNotes)
        return ModelBuilder.model([author, feedback, folder, note])
    }

    static func insert(_ entity: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func titles(_ value: Any?) -> [String] {
        ((value as? [NSManagedObject]) ?? []).map { $0.value(forKey: "title") as? String ?? "?" }
    }

    static func ratings(_ value: Any?) -> [Int64] {
        ((value as? [NSManagedObject]) ?? []).map { ($0.value(forKey: "rating") as? NSNumber)?.int64Value ?? -1 }
    }

    @Test func aFetchedPropertyIsATransientPropertyOfItsEntity() {
        let model = Self.makeModel()
        let author = model.entitiesByName["Author"]!
        let property = author.propertiesByName["feedbacks"]
        #expect(property is NSFetchedPropertyDescription)
        #expect(property?.isTransient == true)
        #expect(author.attributesByName["feedbacks"] == nil)
        #expect(author.relationshipsByName["feedbacks"] == nil)
        let request = (property as? NSFetchedPropertyDescription)?.fetchRequest
        #expect(request?.entity === model.entitiesByName["Feedback"])
        #expect(request?.predicate?.predicateFormat == "authorAlias == $FETCH_SOURCE.alias")
    }

    /// `$FETCH_SOURCE.alias` reads the source object's value; the request's sort descriptors
    /// order the result.
    @Test func readingAFetchedPropertyRunsItsRequestWithTheSourceObject() throws {
        let (_, context) = try makeStack(Self.makeModel(), in: TemporaryFolder())
        try context.performAndWait { try Self.checkSourceObject(context) }
    }

    static func checkSourceObject(_ context: NSManagedObjectContext) throws {
        let ann = insert("Author", ["alias": "ann"], into: context)
        let bob = insert("Author", ["alias": "bob"], into: context)
        for (alias, rating) in [("ann", 2), ("bob", 5), ("ann", 4), ("ann", 1)] {
            _ = insert("Feedback", ["authorAlias": alias, "rating": NSNumber(value: rating)], into: context)
        }
        try context.save()
        #expect(ratings(ann.value(forKey: "feedbacks")) == [4, 2, 1])
        #expect(ratings(bob.value(forKey: "feedbacks")) == [5])
        #expect((ann.value(forKeyPath: "feedbacks.@count") as? NSNumber)?.intValue == 3)
        // Not stored: nothing to save, nothing changed.
        #expect(!context.hasChanges)
        #expect(ann.changedValues().isEmpty)
    }

    /// `$FETCHED_PROPERTY` is the description: its user info holds the threshold.
    @Test func theFetchedPropertyVariableIsTheDescription() throws {
        let (_, context) = try makeStack(Self.makeModel(), in: TemporaryFolder())
        try context.performAndWait { try Self.checkDescriptionVariable(context) }
    }

    static func checkDescriptionVariable(_ context: NSManagedObjectContext) throws {
        let work = insert("Folder", ["name": "work"], into: context)
        let home = insert("Folder", ["name": "home"], into: context)
        for (title, rating, folder) in [("b", 3, work), ("a", 5, work), ("c", 1, work), ("d", 4, home)] {
            let note = insert("Note", ["title": title, "rating": NSNumber(value: rating)], into: context)
            note.setValue(folder, forKey: "folder")
        }
        try context.save()
        #expect(titles(work.value(forKey: "goodNotes")) == ["a", "b"])
        #expect(titles(home.value(forKey: "goodNotes")) == ["d"])
    }

    /// The result is kept until the object is refreshed: a new matching object does not appear
    /// by itself, and appears after `refresh(_:mergeChanges:)`, with or without merging.
    @Test func theResultIsKeptUntilTheObjectIsRefreshed() throws {
        let (_, context) = try makeStack(Self.makeModel(), in: TemporaryFolder())
        try context.performAndWait { try Self.checkRefresh(context) }
    }

    static func checkRefresh(_ context: NSManagedObjectContext) throws {
        let ann = insert("Author", ["alias": "ann"], into: context)
        _ = insert("Feedback", ["authorAlias": "ann", "rating": NSNumber(value: 2)], into: context)
        try context.save()
        #expect(ratings(ann.value(forKey: "feedbacks")) == [2])
        _ = insert("Feedback", ["authorAlias": "ann", "rating": NSNumber(value: 3)], into: context)
        try context.save()
        #expect(ratings(ann.value(forKey: "feedbacks")) == [2])
        context.refresh(ann, mergeChanges: true)
        #expect(ratings(ann.value(forKey: "feedbacks")) == [3, 2])
        _ = insert("Feedback", ["authorAlias": "ann", "rating": NSNumber(value: 4)], into: context)
        try context.save()
        context.refresh(ann, mergeChanges: false)
        #expect(ratings(ann.value(forKey: "feedbacks")) == [4, 3, 2])
    }

    /// A fetch includes the context's unsaved objects, so a fetched property read before a save
    /// sees them too.
    @Test func aFetchedPropertySeesUnsavedObjects() throws {
        let (_, context) = try makeStack(Self.makeModel())
        try context.performAndWait {
            let ann = Self.insert("Author", ["alias": "ann"], into: context)
            _ = Self.insert("Feedback", ["authorAlias": "ann", "rating": NSNumber(value: 1)], into: context)
            #expect(Self.ratings(ann.value(forKey: "feedbacks")) == [1])
            try context.save()
        }
    }

    /// A copy of the model has its own fetched property, whose request fetches the copy's entity.
    @Test func aCopiedModelFetchesItsOwnEntity() throws {
        let model = Self.makeModel()
        let copy = model.copy() as! NSManagedObjectModel
        let property = copy.entitiesByName["Author"]?.propertiesByName["feedbacks"] as? NSFetchedPropertyDescription
        #expect(property?.fetchRequest?.entity === copy.entitiesByName["Feedback"])
        #expect(property?.fetchRequest?.predicate?.predicateFormat == "authorAlias == $FETCH_SOURCE.alias")
        let (_, context) = try makeStack(copy)
        try context.performAndWait {
            let ann = Self.insert("Author", ["alias": "ann"], into: context)
            _ = Self.insert("Feedback", ["authorAlias": "ann", "rating": NSNumber(value: 7)], into: context)
            try context.save()
            #expect(Self.ratings(ann.value(forKey: "feedbacks")) == [7])
        }
    }
}

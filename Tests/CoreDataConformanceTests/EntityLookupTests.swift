import Foundation
import Testing

final class LookupCard: NSManagedObject {}

/// `+[NSManagedObject entity]`. Evidence: the SDK's NSManagedObject.h: "The Entity represented by
/// this subclass. This method is only legal to call on subclasses of NSManagedObject that represent
/// a single entity in the model." On the base class, which every entity without a class of its own
/// uses, Core Data finds no unique entity and returns none: Objective-C gets nil, so Swift code
/// reads a `name` of nil (apps report SwiftUI's "A fetch request must have an entity." from it),
/// and the process goes on.
struct EntityLookupTests {
    private static func model() -> NSManagedObjectModel {
        let card = ModelBuilder.entity("LookupCard", [ModelBuilder.attribute("title", .stringAttributeType)])
        card.managedObjectClassName = NSStringFromClass(LookupCard.self)
        let plain = ModelBuilder.entity("LookupNote", [ModelBuilder.attribute("text", .stringAttributeType)])
        let other = ModelBuilder.entity("LookupTag", [ModelBuilder.attribute("label", .stringAttributeType)])
        return ModelBuilder.model([card, plain, other])
    }

    @Test func theBaseClassRepresentsNoSingleEntity() throws {
        let (_, context) = try makeStack(Self.model())
        #expect(NSManagedObject.entity().name == nil)
        context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "LookupNote", into: context)
            #expect(note.entity.name == "LookupNote")
        }
    }

    @Test func aSubclassOfOneEntityFindsIt() throws {
        let (_, context) = try makeStack(Self.model())
        #expect(LookupCard.entity().name == "LookupCard")
        #expect(LookupCard.fetchRequest().entityName == "LookupCard")
        try context.performAndWait {
            let card = LookupCard(context: context)
            card.setValue("first", forKey: "title")
            try context.save()
            let fetched = try context.fetch(LookupCard.fetchRequest())
            #expect(fetched.count == 1)
        }
    }
}

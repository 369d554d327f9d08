import Foundation
import Testing

/// A journey that lists the snapshot events it awoke from.
final class EventJourney: NSManagedObject {
    var events: [NSSnapshotEventType] = []

    override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
        events.append(flags)
    }
}

/// `awake(fromSnapshotEvents:)` after a save's conflict resolution and after a refresh that keeps
/// an object's changes. Evidence: Apple's documentation of `NSSnapshotEventType`: `mergePolicy`
/// "specifies a change due to conflict resolution during a save operation", `refresh` "a change
/// due to the managed object being refreshed"; of `awake(fromSnapshotEvents:)`: called "when
/// fulfilling it from a snapshot". Inferred: a resolution that leaves every value of the object
/// as it was (`NSOverwriteMergePolicy` keeps the object's values) sends no event, and a refresh
/// that turns an unchanged object into a fault sends none (the object is fulfilled later, with
/// `awakeFromFetch()`).
struct SnapshotEventTests {
    /// A store with one journey, "Alps" of 1 leg, and a context of it with `policy`.
    static func stack(policy: Any, in folder: TemporaryFolder) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let journey = ModelBuilder.entity(
            "Journey", [ModelBuilder.attribute("name", .stringAttributeType), ModelBuilder.attribute("legs", .integer64AttributeType)])
        journey.managedObjectClassName = NSStringFromClass(EventJourney.self)
        let (coordinator, setup) = try makeStack(ModelBuilder.model([journey]), in: folder)
        try setup.performAndWait { () throws in
            let first = NSEntityDescription.insertNewObject(forEntityName: "Journey", into: setup)
            first.setValue("Alps", forKey: "name")
            first.setValue(Int64(1), forKey: "legs")
            try setup.save()
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.mergePolicy = policy
        return (coordinator, context)
    }

    static func journey(in context: NSManagedObjectContext) throws -> EventJourney {
        try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Journey")).first as? EventJourney)
    }

    /// Another context renames the journey and saves.
    static func renameElsewhere(_ coordinator: NSPersistentStoreCoordinator, to name: String) throws {
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait { () throws in
            try journey(in: other).setValue(name, forKey: "name")
            try other.save()
        }
    }

    /// The journey of `context`, its legs changed to 4 while another context renames it.
    static func changedWhileRenamedElsewhere(_ coordinator: NSPersistentStoreCoordinator, _ context: NSManagedObjectContext) throws
        -> EventJourney
    {
        let journey = try context.performAndWait { () throws in try Self.journey(in: context) }
        context.performAndWait { journey.setValue(Int64(4), forKey: "legs") }
        try renameElsewhere(coordinator, to: "Jura")
        return journey
    }

    @Test func aResolutionThatTakesStoredValuesAwakesTheObjectFromAMergePolicyEvent() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(policy: NSMergePolicy.mergeByPropertyStoreTrump, in: folder)
        let journey = try Self.changedWhileRenamedElsewhere(coordinator, context)
        try context.performAndWait { () throws in
            try context.save()
            #expect(journey.value(forKey: "name") as? String == "Jura")
            #expect(journey.value(forKey: "legs") as? Int64 == 4)
            #expect(journey.events == [.mergePolicy])
        }
    }

    @Test func aResolutionThatKeepsEveryValueSendsNoEvent() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(policy: NSMergePolicy.overwrite, in: folder)
        let journey = try Self.changedWhileRenamedElsewhere(coordinator, context)
        try context.performAndWait { () throws in
            try context.save()
            #expect(journey.value(forKey: "name") as? String == "Alps")
            #expect(journey.events.isEmpty)
        }
    }

    @Test func refreshingAChangedObjectWithMergeAwakesItFromARefreshEvent() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(policy: NSMergePolicy.error, in: folder)
        let journey = try Self.changedWhileRenamedElsewhere(coordinator, context)
        context.performAndWait {
            context.refresh(journey, mergeChanges: true)
            #expect(journey.value(forKey: "name") as? String == "Jura")
            #expect(journey.value(forKey: "legs") as? Int64 == 4)
            #expect(journey.events == [.refresh])
        }
    }

    @Test func refreshingAnUnchangedObjectTurnsItIntoAFaultWithoutAnEvent() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(policy: NSMergePolicy.error, in: folder)
        let journey = try context.performAndWait { () throws in try Self.journey(in: context) }
        context.performAndWait { _ = journey.value(forKey: "name") }
        try Self.renameElsewhere(coordinator, to: "Jura")
        context.performAndWait {
            context.refresh(journey, mergeChanges: true)
            #expect(journey.isFault)
            #expect(journey.value(forKey: "name") as? String == "Jura")
            #expect(journey.events.isEmpty)
        }
    }
}

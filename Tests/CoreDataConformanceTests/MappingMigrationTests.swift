import Foundation
import Testing

/// Splits a `Contact` ("Ada Lovelace", email) into a `Person` (first and last name) and an
/// `Address` that belongs to it: two destination instances for one source instance.
final class ContactSplitPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        let parts = (sInstance.value(forKey: "name") as? String ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: manager.destinationContext)
        person.setValue(parts.first, forKey: "first")
        person.setValue(parts.count > 1 ? parts[1] : nil, forKey: "last")
        let address = NSEntityDescription.insertNewObject(forEntityName: "Address", into: manager.destinationContext)
        address.setValue(sInstance.value(forKey: "email"), forKey: "email")
        address.setValue(person, forKey: "person")
        manager.associate(sourceInstance: sInstance, withDestinationInstance: person, for: mapping)
    }
}

/// Records the order in which the migration manager calls a policy's steps.
final class RecordingPolicy: NSEntityMigrationPolicy {
    nonisolated(unsafe) static var calls: [String] = []

    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        Self.calls.append("begin \(mapping.name!)")
    }
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        Self.calls.append("create \(mapping.name!)")
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("endInstanceCreation \(mapping.name!)")
    }
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        Self.calls.append("relate \(mapping.name!)")
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("endRelationshipCreation \(mapping.name!)")
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("validate \(mapping.name!)")
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("end \(mapping.name!)")
    }
}

/// Cancels the migration from its first instance on.
final class CancellingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        manager.cancelMigrationWithError(NSError(domain: "MappingMigrationTests", code: 7))
    }
}

/// Migrations through mapping models with `NSMigrationManager`. Evidence: the SDK's headers —
/// NSMigrationManager.h ("Migrates of the store at the specified source URL to the store at the
/// destination URL, performing all of the mappings in the mapping model. A store must exist at
/// the source URL; if a store does not exist at the destination URL, one will be created";
/// `associateSourceInstance:…`; "Each entity is processed a total of three times (instance
/// creation, relationship creation, validation)"; `cancelMigrationWithError:` "causes
/// migrateStoreFromURL:… to abort the migration and return the specified error"),
/// NSEntityMigrationPolicy.h (the keys `$manager`, `$source`, …, and the steps' order) and
/// NSEntityMapping.h (the name defaults to the source entity name, "To", the destination's).
/// Models and mapping models are built in code; the expressions are the ones Xcode's mapping
/// editor writes.
struct MappingMigrationTests {
    // Version 1: Person(name, age) ⟷ Note(text, owner); Contact(name, email).
    static func version1() -> NSManagedObjectModel {
        let person = ModelBuilder.entity(
            "Person", [ModelBuilder.attribute("name", .stringAttributeType), ModelBuilder.attribute("age", .integer64AttributeType)])
        let note = ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])
        ModelBuilder.relate(note, "owner", toMany: false, person, "notes", inverseToMany: true)
        let contact = ModelBuilder.entity(
            "Contact", [ModelBuilder.attribute("name", .stringAttributeType), ModelBuilder.attribute("email", .stringAttributeType)])
        return ModelBuilder.model([person, note, contact])
    }

    // Version 2: Person(first, last, fullName, age) ⟷ Note(text, owner); Address(email, person).
    static func version2() -> NSManagedObjectModel {
        let person = ModelBuilder.entity(
            "Person",
            [
                ModelBuilder.attribute("fullName", .stringAttributeType), ModelBuilder.attribute("first", .stringAttributeType),
                ModelBuilder.attribute("last", .stringAttributeType), ModelBuilder.attribute("age", .integer64AttributeType),
            ])
        let note = ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])
        ModelBuilder.relate(note, "owner", toMany: false, person, "notes", inverseToMany: true)
        let address = ModelBuilder.entity("Address", [ModelBuilder.attribute("email", .stringAttributeType)])
        ModelBuilder.relate(address, "person", toMany: false, person, "addresses", inverseToMany: true)
        return ModelBuilder.model([person, note, address])
    }

    static func propertyMapping(_ name: String, _ format: String?) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = format.map { NSExpression(format: $0) }
        return mapping
    }

    static func sourceExpression(_ entity: String) -> NSExpression {
        NSExpression(
            format:
                "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"\(entity)\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)"
        )
    }

    /// Person → Person (`fullName` from `name`), Note → Note, Contact → Person + Address through
    /// `policy` (or removed when nil).
    static func mappingModel(
        _ source: NSManagedObjectModel, _ destination: NSManagedObjectModel, contactPolicy: String?, personPolicy: String? = nil
    ) -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .transformEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        people.sourceEntityVersionHash = source.entitiesByName["Person"]!.versionHash
        people.destinationEntityVersionHash = destination.entitiesByName["Person"]!.versionHash
        people.sourceExpression = sourceExpression("Person")
        people.entityMigrationPolicyClassName = personPolicy
        people.attributeMappings = [
            propertyMapping("fullName", "$source.name"), propertyMapping("age", "$source.age"), propertyMapping("first", nil),
        ]
        people.relationshipMappings = [
            propertyMapping(
                "notes",
                "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"NoteToNote\", $source.notes)")
        ]
        let notes = NSEntityMapping()
        notes.mappingType = .copyEntityMappingType
        notes.sourceEntityName = "Note"
        notes.destinationEntityName = "Note"
        notes.sourceExpression = sourceExpression("Note")
        notes.attributeMappings = [propertyMapping("text", "$source.text")]
        notes.relationshipMappings = [
            propertyMapping(
                "owner",
                "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"PersonToPerson\", $source.owner)")
        ]
        let contacts = NSEntityMapping()
        contacts.name = "ContactToPerson"
        contacts.sourceEntityName = "Contact"
        contacts.sourceExpression = sourceExpression("Contact")
        if let contactPolicy {
            contacts.mappingType = .customEntityMappingType
            contacts.destinationEntityName = "Person"
            contacts.entityMigrationPolicyClassName = contactPolicy
        } else {
            contacts.mappingType = .removeEntityMappingType
        }
        let model = NSMappingModel()
        model.entityMappings = [people, notes, contacts]
        return model
    }

    /// A version 1 store with two people, three notes and two contacts.
    static func writeVersion1Store(at url: URL, model: NSManagedObjectModel) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let ada = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            ada.setValue("Ada", forKey: "name")
            ada.setValue(36, forKey: "age")
            let alan = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            alan.setValue("Alan", forKey: "name")
            alan.setValue(41, forKey: "age")
            for (text, owner) in [("engine", ada), ("notes", ada), ("machine", alan)] {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue(text, forKey: "text")
                note.setValue(owner, forKey: "owner")
            }
            for (name, email) in [("Grace Hopper", "grace@example.com"), ("Edsger Dijkstra", "ewd@example.com")] {
                let contact = NSEntityDescription.insertNewObject(forEntityName: "Contact", into: context)
                contact.setValue(name, forKey: "name")
                contact.setValue(email, forKey: "email")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// A version 1 store and a version 2 store that exists already (one person, "Kept"): a
    /// migration adds to it.
    static func storesWithExistingDestination(in folder: TemporaryFolder, _ v1: NSManagedObjectModel, _ v2: NSManagedObjectModel)
        throws -> (source: URL, destination: URL)
    {
        let sourceURL = folder.url.appendingPathComponent("V1.sqlite")
        try writeVersion1Store(at: sourceURL, model: v1)
        let (coordinator, context) = try makeStack(v2, in: folder, name: "V2.sqlite")
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Kept", forKey: "fullName")
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        return (sourceURL, folder.url.appendingPathComponent("V2.sqlite"))
    }

    static func open(_ url: URL, _ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The store's data: its file and its write-ahead log (none and empty alike). Opening a WAL
    /// store, even read-only, may leave an empty log and a shared-memory index beside it; neither
    /// holds data.
    static func storeBytes(_ url: URL) -> [Data?] {
        [FileManager.default.contents(atPath: url.path), FileManager.default.contents(atPath: url.path + "-wal") ?? Data()]
    }

    @Test func aMappingModelMigratesEveryValueAndRelationship() throws {
        let folder = TemporaryFolder()
        let (v1, v2) = (Self.version1(), Self.version2())
        let sourceURL = folder.url.appendingPathComponent("V1.sqlite")
        let destinationURL = folder.url.appendingPathComponent("V2.sqlite")
        try Self.writeVersion1Store(at: sourceURL, model: v1)
        let before = Self.storeBytes(sourceURL)
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(
            from: sourceURL, sourceType: NSSQLiteStoreType, options: nil,
            with: Self.mappingModel(v1, v2, contactPolicy: NSStringFromClass(ContactSplitPolicy.self)), toDestinationURL: destinationURL,
            destinationType: NSSQLiteStoreType, destinationOptions: nil)
        #expect(Self.storeBytes(sourceURL) == before)
        #expect(manager.migrationProgress == 1)

        let context = try Self.open(destinationURL, v2)
        try context.performAndWait { try Self.checkMigratedPeople(in: context) }
    }

    /// The version 2 store the mapping model of ``aMappingModelMigratesEveryValueAndRelationship()`` wrote.
    static func checkMigratedPeople(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "first", ascending: true), NSSortDescriptor(key: "fullName", ascending: true)]
        let people = try context.fetch(request)
        #expect(people.count == 4)
        let mapped = people.filter { $0.value(forKey: "fullName") != nil }
        #expect(mapped.map { $0.value(forKey: "fullName") as? String } == ["Ada", "Alan"])
        #expect(mapped.map { ($0.value(forKey: "age") as? NSNumber)?.intValue } == [36, 41])
        #expect(mapped.allSatisfy { $0.value(forKey: "first") == nil })
        let notesOfAda = (mapped[0].value(forKey: "notes") as? Set<NSManagedObject> ?? []).compactMap {
            $0.value(forKey: "text") as? String
        }
        #expect(notesOfAda.sorted() == ["engine", "notes"])
        let notesOfAlan = (mapped[1].value(forKey: "notes") as? Set<NSManagedObject> ?? []).compactMap {
            $0.value(forKey: "text") as? String
        }
        #expect(notesOfAlan == ["machine"])
        let split = people.filter { $0.value(forKey: "fullName") == nil }
        #expect(split.map { $0.value(forKey: "first") as? String } == ["Edsger", "Grace"])
        #expect(split.map { $0.value(forKey: "last") as? String } == ["Dijkstra", "Hopper"])
        let emails = split.map { person in
            (person.value(forKey: "addresses") as? Set<NSManagedObject> ?? []).compactMap { $0.value(forKey: "email") as? String }
        }
        #expect(emails == [["ewd@example.com"], ["grace@example.com"]])
        let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
        #expect(notes.count == 3)
        #expect(notes.allSatisfy { $0.value(forKey: "owner") != nil })
    }

    @Test func theManagerCallsEachPolicyStepInCoreDatasOrder() throws {
        let folder = TemporaryFolder()
        let (v1, v2) = (Self.version1(), Self.version2())
        let sourceURL = folder.url.appendingPathComponent("V1.sqlite")
        try Self.writeVersion1Store(at: sourceURL, model: v1)
        RecordingPolicy.calls = []
        let mapping = Self.mappingModel(v1, v2, contactPolicy: nil, personPolicy: NSStringFromClass(RecordingPolicy.self))
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(
            from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: folder.url.appendingPathComponent("V2.sqlite"), destinationType: NSSQLiteStoreType, destinationOptions: nil)
        #expect(
            RecordingPolicy.calls == [
                "begin PersonToPerson", "create PersonToPerson", "create PersonToPerson", "endInstanceCreation PersonToPerson",
                "relate PersonToPerson", "relate PersonToPerson", "endRelationshipCreation PersonToPerson", "validate PersonToPerson",
                "end PersonToPerson",
            ])
    }

    @Test func aCancelledMigrationThrowsItsErrorAndLeavesBothStoresAsTheyWere() throws {
        let folder = TemporaryFolder()
        let (v1, v2) = (Self.version1(), Self.version2())
        let (sourceURL, destinationURL) = try Self.storesWithExistingDestination(in: folder, v1, v2)
        let sourceBefore = Self.storeBytes(sourceURL)
        let destinationBefore = Self.storeBytes(destinationURL)
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let mapping = Self.mappingModel(v1, v2, contactPolicy: nil, personPolicy: NSStringFromClass(CancellingPolicy.self))
        #expect {
            try manager.migrateStore(
                from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping, toDestinationURL: destinationURL,
                destinationType: NSSQLiteStoreType, destinationOptions: nil)
        } throws: { error in
            (error as NSError).domain == "MappingMigrationTests" && (error as NSError).code == 7
        }
        #expect(Self.storeBytes(sourceURL) == sourceBefore)
        #expect(Self.storeBytes(destinationURL) == destinationBefore)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".mapping") }
        #expect(names.isEmpty)
    }

    @Test func aMigrationIntoAnExistingStoreAddsToIt() throws {
        let folder = TemporaryFolder()
        let (v1, v2) = (Self.version1(), Self.version2())
        let (sourceURL, destinationURL) = try Self.storesWithExistingDestination(in: folder, v1, v2)
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: Self.mappingModel(v1, v2, contactPolicy: nil),
            toDestinationURL: destinationURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        let reopened = try Self.open(destinationURL, v2)
        try reopened.performAndWait {
            let names = try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).compactMap {
                $0.value(forKey: "fullName") as? String
            }
            #expect(names.sorted() == ["Ada", "Alan", "Kept"])
        }
    }

    @Test func anEntityMappingIsNamedAfterItsEntitiesByDefault() {
        let mapping = NSEntityMapping()
        mapping.sourceEntityName = "Car"
        mapping.destinationEntityName = "Vehicle"
        #expect(mapping.name == "CarToVehicle")
        let model = NSMappingModel()
        model.entityMappings = [mapping]
        #expect(model.entityMappingsByName["CarToVehicle"] === mapping)
    }

    @Test func theInferredMappingModelMigratesLikeLightweightMigration() throws {
        let folder = TemporaryFolder()
        let v1 = Self.version1()
        // Version 1b: Person gains `nickname`, Contact is dropped.
        let person = ModelBuilder.entity(
            "Person",
            [
                ModelBuilder.attribute("name", .stringAttributeType), ModelBuilder.attribute("age", .integer64AttributeType),
                ModelBuilder.attribute("nickname", .stringAttributeType),
            ])
        let note = ModelBuilder.entity("Note", [ModelBuilder.attribute("text", .stringAttributeType)])
        ModelBuilder.relate(note, "owner", toMany: false, person, "notes", inverseToMany: true)
        let v1b = ModelBuilder.model([person, note])
        let sourceURL = folder.url.appendingPathComponent("V1.sqlite")
        let destinationURL = folder.url.appendingPathComponent("V1b.sqlite")
        try Self.writeVersion1Store(at: sourceURL, model: v1)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v1b)
        let types = Dictionary(uniqueKeysWithValues: mapping.entityMappings.map { ($0.name!, $0.mappingType) })
        #expect(types["PersonToPerson"] == .transformEntityMappingType)
        #expect(types["NoteToNote"] == .copyEntityMappingType)
        #expect(mapping.entityMappings.contains { $0.sourceEntityName == "Contact" && $0.mappingType == .removeEntityMappingType })
        try NSMigrationManager(sourceModel: v1, destinationModel: v1b).migrateStore(
            from: sourceURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping, toDestinationURL: destinationURL,
            destinationType: NSSQLiteStoreType, destinationOptions: nil)
        let context = try Self.open(destinationURL, v1b)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            let notes = try context.fetch(request)
            #expect(notes.map { $0.value(forKey: "text") as? String } == ["engine", "machine", "notes"])
            #expect(
                notes.map { ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Ada", "Alan", "Ada"])
        }
    }
}

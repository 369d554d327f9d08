#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Joins a first and a last name: the method a mapping's `FUNCTION($entityPolicy, …)` calls.
final class FullNamePolicy: NSEntityMigrationPolicy {
    func fullName(_ first: String?, _ last: String?) -> String { [first, last].compactMap { $0 }.joined(separator: " ") }

    override class var migrationFunctions: [String: MigrationFunction] {
        super.migrationFunctions.merging([
            "fullNameWithFirst:last:": MigrationFunction(FullNamePolicy.self) { policy, arguments in
                policy.fullName(arguments[0] as? String, arguments[1] as? String)
            }
        ]) { $1 }
    }
}

/// A policy no mapping can find until it is registered.
final class UnlistedPolicy: NSEntityMigrationPolicy {}

/// The Linux side of custom migrations: expression methods called by selector name, policy
/// classes found by the names mapping models give them, and `FUNCTION`/`FETCH` in the
/// expression format.
@Suite(.serialized) struct MigrationFunctionTests {
    static func model(_ attributes: [String]) -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Person"
        entity.managedObjectClassName = "NSManagedObject"
        entity.properties = attributes.map { name in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .stringAttributeType
            attribute.isOptional = true
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    static func sourceStore(in folder: URL, _ model: NSManagedObjectModel) throws -> URL {
        let url = folder.appendingPathComponent("Source.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue(first, forKey: "given")
                person.setValue(last, forKey: "family")
            }
            try context.save()
        }
        try coordinator.remove(store)
        return url
    }

    static func mapping(policy: String?) -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .customEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        people.entityMigrationPolicyClassName = policy
        people.sourceExpression = NSExpression(
            format:
                #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Person", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        )
        let name = NSPropertyMapping()
        name.name = "name"
        name.valueExpression = NSExpression(format: #"FUNCTION($entityPolicy, "fullNameWithFirst:last:", $source.given, $source.family)"#)
        let shout = NSPropertyMapping()
        shout.name = "shout"
        shout.valueExpression = NSExpression(format: #"FUNCTION($source.family, "uppercaseString")"#)
        people.attributeMappings = [name, shout]
        let model = NSMappingModel()
        model.entityMappings = [people]
        return model
    }

    static func migrate(policy: String?) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migration-functions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = model(["given", "family"])
        let destination = model(["name", "shout"])
        let url = try sourceStore(in: folder, source)
        let target = folder.appendingPathComponent("Destination.sqlite")
        try NSMigrationManager(sourceModel: source, destinationModel: destination).migrateStore(
            from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping(policy: policy), toDestinationURL: target,
            destinationType: NSSQLiteStoreType, destinationOptions: nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: target, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).map {
                "\($0.value(forKey: "name") as? String ?? "nil")/\($0.value(forKey: "shout") as? String ?? "nil")"
            }.sorted()
        }
    }

    @Test func aPolicysListedFunctionIsCalledBySelectorName() throws {
        #expect(try Self.migrate(policy: String(reflecting: FullNamePolicy.self)) == ["Ada Lovelace/LOVELACE", "Alan Turing/TURING"])
    }

    @Test func aRegisteredPolicyIsFoundUnderXcodesModulePlaceholder() throws {
        NSEntityMigrationPolicy.register(FullNamePolicy.self)
        #expect(try Self.migrate(policy: "REPLACE_AT_RUNTIME.FullNamePolicy") == ["Ada Lovelace/LOVELACE", "Alan Turing/TURING"])
    }

    @Test func aPolicyClassThatCannotBeFoundIsAnErrorNamingItAndTheRemedy() throws {
        #expect {
            try Self.migrate(policy: "SomeApp.MissingPolicy")
        } throws: { error in
            let error = error as NSError
            return error.code == NSEntityMigrationPolicyError && error.localizedDescription.contains("SomeApp.MissingPolicy")
                && error.localizedDescription.contains("NSEntityMigrationPolicy.register(MissingPolicy.self)")
        }
        NSEntityMigrationPolicy.register(UnlistedPolicy.self, as: "Legacy.ContactPolicy")
        #expect(PolicyLookup.canFind("Legacy.ContactPolicy"))
    }

    @Test func functionAndFetchExpressionsParseAndPrintInCoreDatasFormat() {
        let call = NSExpression(
            format: #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)
        #expect(call.expressionType == .function)
        #expect(call.function == "destinationInstancesForEntityMappingNamed:sourceInstances:")
        #expect(call.operand.variable == "manager")
        #expect(call.arguments?.count == 2)
        #expect(
            call.description
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)
        let fetch = NSExpression(
            format:
                #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        )
        #expect(fetch.description.hasPrefix("FETCH(FUNCTION($manager, "))
        #expect(fetch.description.hasSuffix(", $manager.sourceContext, NO)"))
        #expect(NSExpression(format: #"FUNCTION("ada", "uppercaseString")"#).expressionValue(with: nil, context: nil) as? String == "ADA")
        #expect(throws: PredicateFormatError.self) { try NSExpression(parsing: #"FUNCTION($source, "twoArguments:and:", 1)"#) }
    }
}

/// Whether a policy class name resolves, through a mapping that would run it.
enum PolicyLookup {
    static func canFind(_ name: String) -> Bool {
        (try? MigrationFunctionTests.migrate(policy: name)) != nil
    }
}
#endif

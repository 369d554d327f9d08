#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import Testing
import TestSupport

/// The policy the fixture mapping model names (`REPLACE_AT_RUNTIME.V2to3MakerPolicy`): version 3
/// replaces a car's `maker` string with a `Maker` object, one per name, as `createdBy`.
final class MakerFromNamePolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager)
        throws
    {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        guard let name = sInstance.value(forKey: "maker") as? String,
            let car = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first
        else { return }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Maker")
        request.predicate = NSPredicate(format: "name == %@", name)
        let maker =
            try manager.destinationContext.fetch(request).first
            ?? {
                let made = NSEntityDescription.insertNewObject(forEntityName: "Maker", into: manager.destinationContext)
                made.setValue(name, forKey: "name")
                return made
            }()
        car.setValue(maker, forKey: "createdBy")
    }
}

/// A mapping model Xcode compiled (CoreDataPlus's `V2toV3.cdm`) read by the runtime and run over
/// the store Core Data wrote with the model's version 2 (`SampleModel_V2.sqlite`: 20 people, 125
/// cars of three entities, ten makers by name), with every value checked against the source.
@Suite(.serialized) struct CompiledMappingModelTests {
    static let fixture = Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel")
    static let cdm = Fixtures.coredata.appendingPathComponent("mapping-models/CoreDataPlus-SampleModel/V2toV3.cdm")

    static func version(_ name: String) throws -> NSManagedObjectModel {
        try #require(NSManagedObjectModel(contentsOf: fixture.appendingPathComponent("SampleModel.momd/\(name).mom")))
    }

    @Test func xcodesCompiledMappingModelReadsWithItsMappingsAndExpressions() throws {
        let mapping = try #require(NSMappingModel(contentsOf: Self.cdm))
        #expect(
            mapping.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        #expect(mapping.entityMappingsByName["Maker"]?.mappingType == .addEntityMappingType)
        #expect(mapping.entityMappingsByName["CarToCar"]?.mappingType == .customEntityMappingType)
        let car = try #require(mapping.entityMappingsByName["CarToCar"])
        #expect(car.sourceEntityName == "Car")
        #expect(car.destinationEntityName == "Car")
        #expect(car.entityMigrationPolicyClassName == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let (v2, v3) = (try Self.version("SampleModel2"), try Self.version("SampleModel3"))
        #expect(car.sourceEntityVersionHash == v2.entityVersionHashesByName["Car"])
        #expect(car.destinationEntityVersionHash == v3.entityVersionHashesByName["Car"])
        #expect(
            car.sourceExpression?.description
                == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        )
        let values = Dictionary(
            uniqueKeysWithValues: (car.attributeMappings ?? []).map { ($0.name ?? "", $0.valueExpression?.description) })
        #expect(values["numberPlate"] == "$source.numberPlate")
        let owner = car.relationshipMappings?.first { $0.name == "owner" }
        #expect(
            owner?.valueExpression?.description
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)
        #expect(NSMappingModel(contentsOf: Self.fixture.appendingPathComponent("SampleModel_V2.sqlite")) == nil)
    }

    @Test func theMappingModelIsFoundForItsTwoVersionsOnly() throws {
        let folder = try Fixtures.temporaryFolder("cdm-bundle")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.cdm, to: folder.appendingPathComponent("V2toV3.cdm"))
        let bundle = try #require(Bundle(path: folder.path))
        let (v1, v2, v3) = (try Self.version("SampleModel"), try Self.version("SampleModel2"), try Self.version("SampleModel3"))
        #expect(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v3) != nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v3) == nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: v3, destinationModel: v2) == nil)
    }

    @Test func appleStoreMigratesThroughXcodesMappingModelWithEveryValue() throws {
        NSEntityMigrationPolicy.register(MakerFromNamePolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let folder = try Fixtures.temporaryFolder("cdm-migration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder))
        let destination = folder.appendingPathComponent("SampleModel_V3.sqlite")
        let (v2, v3) = (try Self.version("SampleModel2"), try Self.version("SampleModel3"))
        let before = try Data(contentsOf: source)
        let manager = NSMigrationManager(sourceModel: v2, destinationModel: v3)
        try manager.migrateStore(
            from: source, sourceType: NSSQLiteStoreType, options: nil, with: NSMappingModel(contentsOf: Self.cdm),
            toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        #expect(try Data(contentsOf: source) == before)

        let old = try Self.cars(at: source, v2)
        let new = try Self.cars(at: destination, v3)
        #expect(old.count == 125)
        #expect(new.count == old.count)
        for (plate, car) in old {
            let migrated = try #require(new[plate], "car \(plate)")
            #expect(migrated.entity == car.entity, "\(plate)")
            #expect(migrated.model == car.model, "\(plate)")
            #expect(migrated.markedForDeletion == car.markedForDeletion, "\(plate)")
            #expect(migrated.limited == car.limited, "\(plate)")
            #expect(migrated.owner == car.owner, "\(plate)")
            #expect(migrated.previousOwners == (car.owner.map { [$0] } ?? []), "\(plate)")
            #expect(migrated.maker == car.maker, "\(plate)")
        }
        let context = try Self.context(destination, v3)
        try context.performAndWait {
            let makers = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Maker"))
            #expect(makers.count == Set(old.values.compactMap(\.maker)).count)
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            #expect(people.count == 20)
            #expect(people.allSatisfy { $0.value(forKey: "updatedAt") is Date })
        }
    }

    /// A folder laid out as an app's resources: the model's `.momd` and the compiled mapping
    /// model beside it.
    static func resources(_ label: String) throws -> URL {
        let folder = try Fixtures.temporaryFolder(label)
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("SampleModel.momd"), to: folder.appendingPathComponent("SampleModel.momd"))
        try FileManager.default.copyItem(at: cdm, to: folder.appendingPathComponent("V2toV3.cdm"))
        return folder
    }

    static func addMigrating(_ store: URL, _ model: NSManagedObjectModel, infer: Bool = true) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: store,
            options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: infer])
        try coordinator.remove(store)
    }

    @Test func automaticMigrationUsesTheBundlesMappingModelForItsStepAndInfersTheOthers() throws {
        NSEntityMigrationPolicy.register(MakerFromNamePolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let folder = try Self.resources("cdm-automatic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let v3 = try #require(NSManagedObjectModel(contentsOf: folder.appendingPathComponent("SampleModel.momd/SampleModel3.mom")))
        let v2 = try Self.version("SampleModel2")
        // Version 2 → 3 through the mapping model; version 1 → 2 inferred, then 2 → 3 mapped.
        for fixture in ["SampleModel_V2.sqlite", "SampleModel_V1.sqlite"] {
            let store = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/\(fixture)", to: folder))
            let expected = fixture == "SampleModel_V2.sqlite" ? try Self.cars(at: store, v2) : nil
            try Self.addMigrating(store, v3)
            let migrated = try Self.cars(at: store, v3)
            #expect(migrated.count == 125, "\(fixture)")
            #expect(migrated.values.allSatisfy { $0.maker != nil }, "every car of \(fixture) has its Maker")
            if let expected {
                for (plate, car) in expected { #expect(migrated[plate]?.maker == car.maker, "\(plate)") }
            }
            #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
        }
    }

    /// Fails the migration at its first car.
    final class FailingPolicy: NSEntityMigrationPolicy {
        override func createDestinationInstances(
            forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
        ) throws {
            throw NSError(domain: "CompiledMappingModelTests", code: 3)
        }
    }

    @Test func aFailedMappedMigrationLeavesTheStoreByteForByte() throws {
        let folder = try Self.resources("cdm-failing")
        defer {
            NSEntityMigrationPolicy.register(MakerFromNamePolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
            try? FileManager.default.removeItem(at: folder)
        }
        NSEntityMigrationPolicy.register(FailingPolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let v3 = try #require(NSManagedObjectModel(contentsOf: folder.appendingPathComponent("SampleModel.momd/SampleModel3.mom")))
        let store = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder))
        let before = try Data(contentsOf: store)
        #expect {
            try Self.addMigrating(store, v3)
        } throws: { ($0 as NSError).domain == "CompiledMappingModelTests" }
        #expect(try Data(contentsOf: store) == before)
        #expect((FileManager.default.contents(atPath: store.path + "-wal") ?? Data()).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))
    }

    @Test func withoutInferenceAStepWithoutAMappingModelIsRefusedUntouched() throws {
        let folder = try Self.resources("cdm-no-inference")
        defer { try? FileManager.default.removeItem(at: folder) }
        let v3 = try #require(NSManagedObjectModel(contentsOf: folder.appendingPathComponent("SampleModel.momd/SampleModel3.mom")))
        let store = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder))
        let before = try Data(contentsOf: store)
        #expect {
            try Self.addMigrating(store, v3, infer: false)
        } throws: { error in
            let error = error as NSError
            return error.code == NSMigrationMissingMappingModelError
                && error.localizedDescription.contains("'SampleModel' to 'SampleModel2'")
        }
        #expect(try Data(contentsOf: store) == before)
    }

    @Test func modelgensCompiledMappingModelMigratesTheStoreAsXcodesDoes() throws {
        NSEntityMigrationPolicy.register(MakerFromNamePolicy.self, as: "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        let folder = try Fixtures.temporaryFolder("cdm-modelgen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = Pipeline.compileMappingModel(
            Fixtures.coredata.appendingPathComponent("mapping-models/CoreDataPlus-SampleModel/V2toV3.xcmappingmodel").path,
            modelPath: Self.fixture.appendingPathComponent("SampleModel.xcdatamodeld").path, outputFolder: folder.path)
        #expect(!output.hasErrors, "\(output.diagnostics)")
        try OutputFiles.write(output.files, under: folder.path)
        let ours = try #require(NSMappingModel(contentsOf: folder.appendingPathComponent("V2toV3.cdm")))
        let (v2, v3) = (try Self.version("SampleModel2"), try Self.version("SampleModel3"))
        var results: [[String: CarValues]] = []
        for (label, mapping) in [("xcode", try #require(NSMappingModel(contentsOf: Self.cdm))), ("modelgen", ours)] {
            let source = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder))
            let destination = folder.appendingPathComponent("\(label).sqlite")
            try NSMigrationManager(sourceModel: v2, destinationModel: v3).migrateStore(
                from: source, sourceType: NSSQLiteStoreType, options: nil, with: mapping, toDestinationURL: destination,
                destinationType: NSSQLiteStoreType, destinationOptions: nil)
            results.append(try Self.cars(at: destination, v3))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: source.path + suffix) }
        }
        #expect(results[0].count == 125)
        #expect(results[0] == results[1])
    }

    struct CarValues: Equatable {
        var entity: String
        var model: String?
        var markedForDeletion: Date?
        var limited: Bool?
        var owner: String?
        var previousOwners: Set<String>
        var maker: String?
    }

    static func context(_ url: URL, _ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Every car by number plate, with its owner named by first name, last name and update date.
    static func cars(at url: URL, _ model: NSManagedObjectModel) throws -> [String: CarValues] {
        let context = try context(url, model)
        return try context.performAndWait {
            func person(_ object: Any?) -> String? {
                guard let person = object as? NSManagedObject else { return nil }
                let date = (person.value(forKey: "updatedAt") as? Date)?.timeIntervalSinceReferenceDate ?? 0
                return "\(person.value(forKey: "firstName") as? String ?? "") \(person.value(forKey: "lastName") as? String ?? "") \(date)"
            }
            var result: [String: CarValues] = [:]
            for car in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")) {
                let hasMaker = car.entity.propertiesByName["maker"] != nil
                let previous =
                    car.entity.propertiesByName["previousOwners"] != nil
                    ? car.value(forKey: "previousOwners") as? Set<NSManagedObject> ?? [] : []
                result[car.value(forKey: "numberPlate") as? String ?? ""] = CarValues(
                    entity: car.entity.name ?? "", model: car.value(forKey: "model") as? String,
                    markedForDeletion: car.value(forKey: "markedForDeletionAsOf") as? Date,
                    limited: car.entity.propertiesByName["isLimitedEdition"] != nil
                        ? (car.value(forKey: "isLimitedEdition") as? NSNumber)?.boolValue : nil,
                    owner: person(car.value(forKey: "owner")), previousOwners: Set(previous.compactMap { person($0) }),
                    maker: hasMaker
                        ? car.value(forKey: "maker") as? String
                        : (car.value(forKey: "createdBy") as? NSManagedObject)?.value(forKey: "name") as? String)
            }
            return result
        }
    }
}
#endif

import Foundation
import ModelSchema
import TestSupport
import Testing

@testable import ModelgenCLI

#if !canImport(CoreData)
import ModelRuntime
#endif

/// The model's mapping models in the commands: `migrations` names the step each one migrates,
/// `validate` checks them and stops warning about a step one migrates, and `migrate-store` runs
/// them (`MappedMigrateStoreCommandTests`).
struct MappedMigrationCommandTests {
    static let sampleModel = Fixtures.coredata.appendingPathComponent(FixtureStores.sampleModel)
    static let xcodeMapping = Fixtures.coredata.appendingPathComponent("mapping-models/CoreDataPlus-SampleModel/V2toV3.xcmappingmodel")

    /// A folder with a copy of the CoreDataPlus sample model and, beside it, `mapping` (when given)
    /// as `V2toV3.xcmappingmodel`.
    static func sampleModelFolder(_ label: String, mapping: URL? = xcodeMapping) throws -> (folder: URL, model: String) {
        let folder = try Fixtures.temporaryFolder(label)
        let model = folder.appendingPathComponent("SampleModel.xcdatamodeld")
        try FileManager.default.copyItem(at: sampleModel, to: model)
        if let mapping { try FileManager.default.copyItem(at: mapping, to: folder.appendingPathComponent("V2toV3.xcmappingmodel")) }
        return (folder, model.path)
    }

    /// `Orders.modeld`: an order's `count` is a string in version 1 and a number in version 2, a
    /// change lightweight migration cannot infer; `mappings` are written into the folder.
    static func ordersModel(in folder: URL, mappings: [String: String] = [:]) throws -> String {
        let model = folder.appendingPathComponent("Orders.modeld")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        let files = [
            "versions.yaml": "versions:\n  - Orders 1\n  - Orders 2\ncurrent: Orders 2\n",
            "Orders 1.model.yaml": "entities:\n  Order:\n    attributes:\n      count: String\n",
            "Orders 2.model.yaml": "entities:\n  Order:\n    attributes:\n      count: Integer 32\n",
        ].merging(mappings) { _, new in new }
        for (name, text) in files { try Data(text.utf8).write(to: model.appendingPathComponent(name)) }
        return model.path
    }

    static let countMapping = """
        from: Orders 1
        to: Orders 2
        entities:
          - source: Order
            destination: Order
            attributes:
              count: 'FUNCTION($source.count, "integerValue")'

        """

    @Test func migrationsNamesTheMappingModelOfItsStep() throws {
        let (folder, model) = try Self.sampleModelFolder("migrations-mapping")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = CapturedRun(["migrations", model])
        #expect(text.status == 0, "\(text.errors)")
        let verdicts = text.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(
            verdicts == [
                "SampleModel → SampleModel2: lightweight migration (inferred)",
                "SampleModel2 → SampleModel3: mapping model 'V2toV3' (lightweight migration could infer it)",
            ])
        let json = CapturedRun(["migrations", model, "--json"])
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let steps = try #require(plan["steps"] as? [[String: Any]])
        #expect(steps.map { $0["mappingModel"] as? String } == [nil, "V2toV3"])
        #expect(steps.first?["mappingModel"] is NSNull)
    }

    @Test func aStepItsMappingModelMigratesIsNoLongerAWarning() throws {
        let folder = try Fixtures.temporaryFolder("validate-mapping")
        defer { try? FileManager.default.removeItem(at: folder) }
        let unmapped = CapturedRun(["validate", try Self.ordersModel(in: folder)])
        #expect(unmapped.status == 0)
        #expect(
            unmapped.errors.contains(
                "warning: lightweight migration from 'Orders 1' to 'Orders 2' cannot be inferred: attribute 'Order.count'"))
        #expect(unmapped.errors.contains("add a mapping model for this step"))
        let model = try Self.ordersModel(in: folder, mappings: ["Count.mapping.yaml": Self.countMapping])
        let mapped = CapturedRun(["validate", model])
        #expect(mapped.status == 0)
        #expect(mapped.errors.isEmpty)
        #expect(
            CapturedRun(["migrations", model]).output.hasPrefix(
                "Orders 1 → Orders 2: mapping model 'Count' (lightweight migration cannot infer it)\n"))
        let dump = try JSONSerialization.jsonObject(with: Data(CapturedRun(["dump", model]).output.utf8)) as? [String: Any]
        #expect(dump?["mappingModels"] as? [[String: String]] == [["from": "Orders 1", "name": "Count", "to": "Orders 2"]])
    }

    @Test func validateChecksTheMappingModelsBesideTheModel() throws {
        let folder = try Fixtures.temporaryFolder("validate-broken-mapping")
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = Self.countMapping.replacingOccurrences(of: "$source.count", with: "$source.cuont")
        let model = try Self.ordersModel(in: folder, mappings: ["Count.mapping.yaml": broken])
        let run = CapturedRun(["validate", model])
        #expect(run.status == 1)
        #expect(run.errors.contains("\(model)/Count.mapping.yaml:"))
        #expect(run.errors.contains("cuont"))
    }

    @Test func twoMappingModelsForOneStepAreAWarning() throws {
        let folder = try Fixtures.temporaryFolder("validate-two-mappings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.ordersModel(in: folder, mappings: ["A.mapping.yaml": Self.countMapping, "B.mapping.yaml": Self.countMapping])
        let run = CapturedRun(["validate", model])
        #expect(run.status == 0)
        #expect(
            run.errors.contains(
                "\(model)/B.mapping.yaml:1:7: warning: mapping models 'A' and 'B' both map 'Orders 1' to 'Orders 2': automatic migration uses only one of them"
            ))
    }

    @Test func aMappingModelBetweenVersionsThatAreNotConsecutiveIsAWarning() throws {
        let (folder, _) = try Self.sampleModelFolder("validate-skipping-mapping", mapping: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("SampleModel.xcdatamodeld").path
        let yaml = "from: SampleModel\nto: SampleModel3\nentities:\n  - source: Person\n    destination: Person\n"
        try Data(yaml.utf8).write(to: folder.appendingPathComponent("Skip.mapping.yaml"))
        let exported = CapturedRun([
            "export", folder.appendingPathComponent("Skip.mapping.yaml").path, "--model", model, "--output",
            folder.appendingPathComponent("Skip.xcmappingmodel").path,
        ])
        #expect(exported.status == 0, "\(exported.errors)")
        let run = CapturedRun(["validate", model])
        #expect(
            run.errors.contains(
                "warning: mapping model 'Skip' maps 'SampleModel' to 'SampleModel3', which are not consecutive versions: automatic migration migrates one version at a time and never uses it"
            ))
    }
}

/// `modelgen migrate-store` through the model's mapping models: each step with one runs through
/// the runtime's `NSMigrationManager`, the others are lightweight, all on one copy of the store;
/// a step the app's own code must migrate is refused before anything is written.
struct MappedMigrateStoreCommandTests {
    /// Xcode's `V2toV3` mapping of the CoreDataPlus sample without its migration policy (which is
    /// the app's code): people's cars become each car's previous owners and each person's
    /// previous cars.
    static let mappingWithoutPolicy = """
        from: SampleModel2
        to: SampleModel3
        entities:
          - source: Car
            destination: Car
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - source: LuxuryCar
            destination: LuxuryCar
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - source: Person
            destination: Person
            relationships:
              previousCars: 'FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:" , "cars", $source.cars)'
          - source: SportCar
            destination: SportCar
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - destination: Maker

        """

    /// The sample model with `mappingWithoutPolicy` beside it as `V2toV3.xcmappingmodel`.
    static func modelWithMapping(in label: String) throws -> (folder: URL, model: String) {
        let (folder, model) = try MappedMigrationCommandTests.sampleModelFolder(label, mapping: nil)
        let yaml = folder.appendingPathComponent("V2toV3.mapping.yaml")
        try Data(Self.mappingWithoutPolicy.utf8).write(to: yaml)
        let exported = CapturedRun([
            "export", yaml.path, "--model", model, "--output", folder.appendingPathComponent("V2toV3.xcmappingmodel").path,
        ])
        try #require(exported.status == 0, "\(exported.errors)")
        try FileManager.default.removeItem(at: yaml)
        return (folder, model)
    }

    @Test func aStepWithTheAppsMigrationPolicyIsRefusedAndTheStoreIsUntouched() throws {
        let (folder, model) = try MappedMigrationCommandTests.sampleModelFolder("migrate-store-policy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder)
        let before = MigrateStoreCommandTests.files(store)
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"])
        #expect(run.status == 1)
        #expect(
            run.errors.hasPrefix(
                "\(store): error: cannot migrate from 'SampleModel2' to 'SampleModel3': mapping model 'V2toV3' names the migration policy class 'REPLACE_AT_RUNTIME.V2to3MakerPolicy', which is the app's code"
            ))
        #expect(MigrateStoreCommandTests.files(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))
        #expect(!FileManager.default.fileExists(atPath: store + ".migration"))
    }

    @Test func withoutARuntimeAStepWithAMappingModelIsRefused() throws {
        let (folder, model) = try Self.modelWithMapping(in: "migrate-store-no-runtime")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder)
        let before = MigrateStoreCommandTests.files(store)
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"], migrator: nil)
        #expect(run.status == 1)
        #expect(run.errors.contains("it goes through mapping model 'V2toV3', and this modelgen links no runtime to run mapping models"))
        #expect(MigrateStoreCommandTests.files(store) == before)
    }

    @Test func aDryRunShowsWhichStepsGoThroughMappingModels() throws {
        let (folder, model) = try Self.modelWithMapping(in: "migrate-store-dry-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3", "--dry-run"])
        #expect(run.status == 0, "\(run.errors)")
        let verdicts = run.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(
            verdicts == [
                "store written by 'SampleModel'; 2 steps to 'SampleModel3':",
                "SampleModel → SampleModel2: lightweight migration (inferred)",
                "SampleModel2 → SampleModel3: mapping model 'V2toV3' (lightweight migration could infer it)",
            ])
    }

    #if !canImport(CoreData)
    @Test func appleStoreMigratesThroughAnInferredAndAMappedStepWithEveryValue() throws {
        let (folder, model) = try Self.modelWithMapping(in: "migrate-store-mapped")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let before = MigrateStoreCommandTests.files(store)
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output
                == "migrated '\(store)' from 'SampleModel' to 'SampleModel3' through 2 steps (1 through mapping models); the original is in '\(store).backup'\n"
        )
        #expect(MigrateStoreCommandTests.files(store + ".backup") == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".migration"))
        let inspect = CapturedRun(["inspect-store", store, "--model", model])
        #expect(inspect.output.hasSuffix("written by model version: SampleModel3\n"), "\(inspect.output)")

        let old = try StoreValues.cars(at: store + ".backup", version: "SampleModel")
        let new = try StoreValues.cars(at: store, version: "SampleModel3")
        #expect(old.count == 125)
        #expect(new.count == old.count)
        let renamed = ["ExpensiveSportCar": "LuxuryCar"]
        for (plate, car) in old {
            let migrated = try #require(new[plate], "car \(plate)")
            #expect(migrated.entity == renamed[car.entity, default: car.entity], "\(plate)")
            #expect(migrated.model == car.model, "\(plate)")
            #expect(migrated.markedForDeletion == car.markedForDeletion, "\(plate)")
            #expect(migrated.owner == car.owner, "\(plate)")
            #expect(migrated.previousOwners == (car.owner.map { [$0] } ?? []), "\(plate)")
        }
        let people = try StoreValues.previousCars(at: store)
        #expect(people.count == 20)
        for (person, cars) in people { #expect(cars.previous == cars.current, "\(person)") }
    }

    /// An `Orders 1` store of two orders, written through the runtime with the compiled model.
    static func ordersStore(in folder: URL, model: String) throws -> String {
        let compiled = CapturedRun(["compile", model, "--output", folder.path])
        try #require(compiled.status == 0, "\(compiled.errors)")
        let mom = folder.appendingPathComponent("Orders.momd/Orders 1.mom")
        let version = try #require(NSManagedObjectModel(contentsOf: mom))
        let store = folder.appendingPathComponent("Orders.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for count in ["3", "12"] {
                NSEntityDescription.insertNewObject(forEntityName: "Order", into: context).setValue(count, forKey: "count")
            }
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        return store.path
    }

    @Test func aStepLightweightMigrationCannotInferMigratesThroughItsMappingModel() throws {
        let folder = try Fixtures.temporaryFolder("migrate-store-orders")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try MappedMigrationCommandTests.ordersModel(
            in: folder, mappings: ["Count.mapping.yaml": MappedMigrationCommandTests.countMapping])
        let store = try Self.ordersStore(in: folder, model: model)
        let run = CapturedRun(["migrate-store", store, "--model", model])
        #expect(run.status == 0, "\(run.errors)")
        let context = try StoreValues.context(store, model: folder.appendingPathComponent("Orders.momd/Orders 2.mom"))
        let counts = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Order")).compactMap { $0.value(forKey: "count") as? Int }
        }
        #expect(counts.sorted() == [3, 12])
    }

    @Test func aFailingMappedStepLeavesTheStoreAsItWas() throws {
        let folder = try Fixtures.temporaryFolder("migrate-store-orders-failing")
        defer { try? FileManager.default.removeItem(at: folder) }
        // No value for a required attribute: the destination fails validation when it is saved.
        let noValue = MappedMigrationCommandTests.countMapping.replacingOccurrences(
            of: #"'FUNCTION($source.count, "integerValue")'"#, with: "null")
        let model = try MappedMigrationCommandTests.ordersModel(in: folder, mappings: ["Count.mapping.yaml": noValue])
        let store = try Self.ordersStore(in: folder, model: model)
        let before = MigrateStoreCommandTests.files(store)
        let run = CapturedRun(["migrate-store", store, "--model", model])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(store): error: "))
        #expect(run.errors.contains("count: a value is required"), "\(run.errors)")
        #expect(MigrateStoreCommandTests.files(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".migration"))
    }
    #endif
}

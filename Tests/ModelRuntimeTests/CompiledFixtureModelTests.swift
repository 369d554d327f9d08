#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// Every fixture model (real ones and the Xcode pattern models), compiled by modelgen and loaded as an `NSManagedObjectModel`, has the
/// entity and property version hashes of the model it was compiled from: the objects carry
/// everything that is hashed (composites nested, derived attributes, inheritance, modifiers).
struct CompiledFixtureModelTests {
    static let root = Fixtures.packageRoot
    static let coredata = Fixtures.coredata

    static let models: [String] =
        [
            root.appendingPathComponent("Samples/Trips/Trips.modeld").path,
            root.appendingPathComponent("Samples/CheckedIn/Sources/Notes/Notes.model.yaml").path,
            coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path,
            coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld").path,
            coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld").path,
            coredata.appendingPathComponent("composite-xml/phimage-MomXML-Tests-Model.contents").path,
            coredata.appendingPathComponent("composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents").path,
        ]
        + [
            "ModuleClasses.xcdatamodel", "GenericEntities.xcdatamodel", "LeftoverTransformers.xcdatamodel", "CapitalisedNames.xcdatamodel",
            "ToManyFetchIndex.xcdatamodel", "UndefinedAttributes.xcdatamodel", "CompoundIndexes.xcdatamodel",
            "FetchedProperties.xcdatamodel",
            "Library.xcdatamodeld",
        ].map { root.appendingPathComponent("Tests/Fixtures/xcode-patterns/\($0)").path }

    @Test(arguments: models)
    func loadedModelsHashLikeTheVersionTheyWereCompiledFrom(_ path: String) throws {
        let model = try #require(Pipeline.load(path).model)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for version in model.versions {
            let url = folder.appendingPathComponent("\(version.name).mom")
            try Data(CompiledModel.mom(for: version)).write(to: url)
            let loaded = try #require(NSManagedObjectModel(contentsOf: url), "\(version.name)")
            let expected = VersionHashes(version)
            #expect(loaded.entityVersionHashesByName == expected.entityHashes.mapValues { Data($0) }, "\(version.name)")
            #expect(loaded.versionChecksum == expected.versionChecksum, "\(version.name)")
            let propertyHashes = VersionHashes.propertyHashes(version)
            for entity in loaded.entities {
                for property in entity.properties where property.entity === entity {
                    #expect(
                        property.versionHash == Data(propertyHashes[entity.name ?? ""]?[property.name] ?? []),
                        "\(version.name): \(entity.name ?? "").\(property.name)")
                }
            }
        }
    }
}
#endif

import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Every fixture model, compiled by modelgen and read back, is what a `.mom` carries of it
/// (`CompiledModel.momContent(of:)`), and hashes as it did before compiling.
struct MomRoundTripTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    static let models: [String] =
        [
            Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path,
            Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Notes.model.yaml").path,
            coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path,
            coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld").path,
            coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld").path,
            coredata.appendingPathComponent("composite-xml/phimage-MomXML-Tests-Model.contents").path,
            coredata.appendingPathComponent("composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents").path,
        ] + XcodePatternTests.models.map { XcodePatternTests.folder.appendingPathComponent($0).path }

    @Test(arguments: models)
    func compiledVersionsReadBackAsWhatAMomCarries(_ path: String) throws {
        let model = try #require(Pipeline.load(path).model)
        for version in model.versions {
            let decoded = try CompiledModel.decodeMom(CompiledModel.mom(for: version), versionName: version.name)
            let expected = CompiledModel.momContent(of: version)
            #expect(decoded.version == expected, "\(version.name)")
            #expect(VersionHashes(decoded.version) == VersionHashes(version), "\(version.name)")
            for (entity, expectedEntity) in zip(decoded.version.entities, expected.entities) where entity != expectedEntity {
                Issue.record("\(version.name).\(entity.name):\n\(entity)\nexpected\n\(expectedEntity)")
            }
        }
    }
}

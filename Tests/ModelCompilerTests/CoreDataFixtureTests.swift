import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Ground truth from Apple's tools: every version of every fixture model, imported from its
/// `.xcdatamodeld`, hashes to exactly what `momc` wrote into the `.momd`'s VersionInfo.plist.
struct CoreDataFixtureTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    /// (model folder, compiled bundle) pairs of the fixtures that have both.
    static let compiledModels: [(model: String, bundle: String)] = [
        ("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", "CoreDataPlus-SampleModel/SampleModel.momd"),
        ("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld", "CoreDataPlus-SampleModel3/SampleModel3.momd"),
    ]

    static func versionInfo(_ bundle: String) throws -> VersionInfo {
        try VersionInfo(plist: Data(contentsOf: coredata.appendingPathComponent(bundle).appendingPathComponent(VersionInfo.fileName)))
    }

    @Test(arguments: compiledModels.map(\.model))
    func importedVersionsHashLikeMomc(_ modelPath: String) throws {
        let bundle = try #require(Self.compiledModels.first { $0.model == modelPath }?.bundle)
        let info = try Self.versionInfo(bundle)
        let model = try #require(Pipeline.load(Self.coredata.appendingPathComponent(modelPath).path).model)
        #expect(Set(model.versions.map(\.name)) == Set(info.versionHashes.keys))
        #expect(model.currentVersionName == info.currentVersionName)
        for version in model.versions {
            let hashes = VersionHashes(version)
            for (entity, expected) in info.versionHashes[version.name] ?? [:] {
                #expect(hashes.entityHashes[entity] == expected, "\(version.name)/\(entity)")
            }
            #expect(Set(hashes.entityHashes.keys) == Set((info.versionHashes[version.name] ?? [:]).keys))
            if let checksum = info.versionChecksums[version.name] {
                #expect(hashes.versionChecksum == checksum, "\(version.name)")
            }
        }
    }
}

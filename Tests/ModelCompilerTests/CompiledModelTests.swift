import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// `modelgen compile` writes the object graph momc writes: each fixture version, imported from
/// its `.xcdatamodeld` and compiled, decodes to the same classes, keys and values as the
/// momc-written `.mom` beside it (object order and UIDs aside).
struct CompiledModelTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    static func momcGraph(_ bundle: String, _ version: String) throws -> ArchiveGraph {
        let bytes = try [UInt8](Data(contentsOf: coredata.appendingPathComponent("\(bundle)/\(version).mom")))
        return ArchiveGraph(try BinaryPropertyList.decode(bytes))
    }

    @Test(arguments: CoreDataFixtureTests.compiledModels.map(\.model))
    func compiledVersionsMatchMomcsArchives(_ modelPath: String) throws {
        let bundle = try #require(CoreDataFixtureTests.compiledModels.first { $0.model == modelPath }?.bundle)
        let model = try #require(Pipeline.load(Self.coredata.appendingPathComponent(modelPath).path).model)
        for version in model.versions {
            let ours = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
            let theirs = try Self.momcGraph(bundle, version.name)
            let properties = version.entities.reduce(0) { $0 + $1.attributes.count + $1.relationships.count }
            let indexes = version.entities.reduce(0) { $0 + $1.fetchIndexes.count }
            #expect(theirs.entries.count == 1 + version.entities.count + properties + indexes, "\(version.name)")
            let differences = ArchiveGraph.differences(ours, theirs).filter { !Self.isKnownDifference($0) }
            #expect(differences.isEmpty, "\(version.name):\n\(differences.joined(separator: "\n"))")
        }
    }

    /// Differences from momc that are deliberate; each is listed in docs/CompiledModel.md.
    static func isKnownDifference(_ line: String) -> Bool {
        line.hasPrefix("model CDMCompilerToolVersion:") || line.hasPrefix("model CDMCompilerXcodeVersion:")
    }
}

struct CompiledBundleTests {
    @Test(arguments: CoreDataFixtureTests.compiledModels.map(\.model))
    func versionInfoCarriesMomcsHashes(_ modelPath: String) throws {
        let bundle = try #require(CoreDataFixtureTests.compiledModels.first { $0.model == modelPath }?.bundle)
        let model = try #require(Pipeline.load(CompiledModelTests.coredata.appendingPathComponent(modelPath).path).model)
        let ours = try VersionInfo(plist: Data(CompiledModel.versionInfo(for: model)))
        let theirs = try CoreDataFixtureTests.versionInfo(bundle)
        #expect(ours.currentVersionName == theirs.currentVersionName)
        #expect(ours.versionHashes == theirs.versionHashes)
        for (version, checksum) in theirs.versionChecksums { #expect(ours.versionChecksums[version] == checksum) }
    }

    @Test func compilingTwiceGivesTheSameBytes() throws {
        let sample = try #require(Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path).model)
        let first = CompiledModel.files(for: sample)
        let second = CompiledModel.files(for: sample)
        #expect(first.map(\.path) == ["Trips.momd/Trips 1.mom", "Trips.momd/Trips 2.mom", "Trips.momd/VersionInfo.plist"])
        #expect(first.map(\.bytes) == second.map(\.bytes))
    }

    @Test func compiledSampleDecodesWithEveryEntityAndProperty() throws {
        let sample = try #require(Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path).model)
        let version = try #require(sample.currentVersion)
        let graph = ArchiveGraph(try BinaryPropertyList.decode(CompiledModel.mom(for: version)))
        #expect(graph.entries["entity Trip"]?["NSIsAbstract"] == nil)
        #expect(graph.entries["property Trip.stops"]?["NSIsOrdered"] == .scalar("true"))
        #expect(graph.entries["property Trip.stops"]?["NSDeleteRule"] == .scalar("2"))
        #expect(graph.entries["property Trip.stopCount"]?["NSDerivationExpression"] == .scalar("count:(stops)"))
        #expect(graph.entries["property Stop.location"]?["$class"] == .scalar("NSCompositeAttributeDescription"))
    }
}

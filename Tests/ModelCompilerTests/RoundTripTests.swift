import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// Xcode model → YAML → model keeps every fact the YAML format holds, and every hash.
struct RoundTripTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    static let xcodeModels = [
        "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld",
        "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld",
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld",
        "composite-xml/phimage-MomXML-Tests-Model.contents",
        "composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents",
    ]

    static func temporaryFolder() throws -> URL {
        try Fixtures.temporaryFolder("roundtrip")
    }

    /// Writes the model as YAML under a temporary folder and loads it back.
    static func throughYAML(_ model: Model) throws -> Pipeline.Result {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = YAMLModelWriter.files(for: model)
        try OutputFiles.write(files.map { OutputFile(path: $0.path, text: $0.text) }, under: folder.path)
        return Pipeline.load(folder.appendingPathComponent(files[0].path.components(separatedBy: "/")[0]).path)
    }

    @Test(arguments: xcodeModels)
    func importedModelSurvivesYAML(_ path: String) throws {
        let imported = try #require(Pipeline.load(Self.coredata.appendingPathComponent(path).path).model)
        let reread = try Self.throughYAML(imported)
        #expect(!reread.hasErrors, "\(reread.diagnostics)")
        let model = try #require(reread.model)
        #expect(ModelDump.json(model) == ModelDump.json(imported))
        for (original, copy) in zip(imported.versions, model.versions) {
            #expect(VersionHashes(original) == VersionHashes(copy), "\(original.name)")
        }
    }

    @Test func sampleSurvivesYAML() throws {
        let sample = try #require(Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path).model)
        let reread = try #require(try Self.throughYAML(sample).model)
        #expect(ModelDump.json(reread) == ModelDump.json(sample))
    }

    @Test func writerQuotesWhatPlainScalarsCannotSay() {
        #expect(YAMLModelWriter.scalar("Trips 2") == "Trips 2")
        #expect(YAMLModelWriter.scalar("yes") == "\"yes\"")
        #expect(YAMLModelWriter.scalar("12") == "\"12\"")
        #expect(YAMLModelWriter.scalar("a: b") == "\"a: b\"")
        #expect(YAMLModelWriter.scalar("#FFAA00") == "\"#FFAA00\"")
        #expect(YAMLModelWriter.scalar("line\nbreak") == "\"line\\nbreak\"")
        #expect(YAMLModelWriter.scalar("") == "\"\"")
    }
}

/// Model → Xcode's XML → model: what Xcode's format holds survives, and so does every hash.
struct XcodeExportRoundTripTests {
    static func throughXcode(_ model: Model) throws -> Model {
        let folder = try RoundTripTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = XcodeModelWriter.files(for: model)
        try OutputFiles.write(files.map { OutputFile(path: $0.path, text: $0.text) }, under: folder.path)
        let result = Pipeline.load(folder.appendingPathComponent("\(model.name).xcdatamodeld").path)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        return try #require(result.model)
    }

    @Test(arguments: RoundTripTests.xcodeModels)
    func importExportImportKeepsTheModel(_ path: String) throws {
        let imported = try #require(Pipeline.load(RoundTripTests.coredata.appendingPathComponent(path).path).model)
        var again = try Self.throughXcode(imported)
        #expect(again.currentVersionName == imported.currentVersionName)
        // A single `contents` file has no version folder name of its own to keep.
        again.name = imported.name
        #expect(ModelDump.json(again) == ModelDump.json(imported))
    }

    @Test func yamlModelExportsWithTheSameHashes() throws {
        let sample = try #require(Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path).model)
        let exported = try Self.throughXcode(sample)
        #expect(exported.versions.map(\.name) == sample.versions.map(\.name))
        for (original, copy) in zip(sample.versions, exported.versions) {
            #expect(VersionHashes(original) == VersionHashes(copy), "\(original.name)")
        }
    }

    @Test func exportWritesWhatXcodeWrites() throws {
        let version = try #require(
            Pipeline.load(
                text: "entities:\n  Trip:\n    attributes:\n      isFavorite: { type: Boolean, default: true }\n", path: "T.model.yaml"
            ).model?
            .versions.first)
        #expect(
            XcodeModelWriter.contents(of: version).contains(
                #"<attribute name="isFavorite" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>"#))
    }
}

/// Models Xcode 15 saved come back out of `modelgen export` line for line: only the `<model>`
/// header differs where it names the Xcode build that saved the file.
struct XcodeExportFidelityTests {
    static let modern = [
        "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld",
        "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld",
    ]

    @Test(arguments: modern)
    func exportReproducesXcodesContents(_ path: String) throws {
        let folder = RoundTripTests.coredata.appendingPathComponent(path)
        let model = try #require(Pipeline.load(folder.path).model)
        for version in model.versions {
            let original = try String(
                contentsOf: folder.appendingPathComponent("\(version.name).xcdatamodel/contents"), encoding: .utf8)
            let exported = XcodeModelWriter.contents(of: version)
            let originalLines = original.components(separatedBy: "\n")
            let exportedLines = exported.components(separatedBy: "\n")
            #expect(originalLines.count == exportedLines.count, "\(version.name)")
            for (index, (a, b)) in zip(originalLines, exportedLines).enumerated() where index != 1 {
                #expect(a == b, "\(version.name) line \(index + 1)")
            }
            #expect(
                originalLines[1].replacingOccurrences(of: "lastSavedToolsVersion=\"22757\"", with: "lastSavedToolsVersion=\"22758\"")
                    == exportedLines[1])
        }
    }
}

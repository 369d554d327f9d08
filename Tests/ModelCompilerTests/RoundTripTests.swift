import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// Xcode model → YAML → model keeps every fact the YAML format holds, and every hash.
struct RoundTripTests {
    static let coredata = Fixtures.shared.appendingPathComponent("coredata")

    static let xcodeModels = [
        "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld",
        "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld",
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld",
        "composite-xml/phimage-MomXML-Tests-Model.contents",
        "composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents",
    ]

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes the model as YAML under a temporary folder and loads it back.
    static func throughYAML(_ model: Model) throws -> Pipeline.Result {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = YAMLModelWriter.files(for: model)
        try OutputFiles.write(files.map { ($0.path, Array($0.text.utf8)) }, under: folder.path)
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

import Foundation
import ModelSchema
import Testing

@testable import ModelgenCLI

/// `modelgen compile` with mapping models: one compiled on its own with `--model`, and the
/// missing or misplaced `--model` as usage errors.
struct MappingCommandTests {
    static let mappings = Fixtures.coredata.appendingPathComponent("mapping-models/CoreDataPlus-SampleModel")
    static let model = Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path

    @Test func compilingAMappingModelWritesItsCDMOnceAndThenLeavesIt() throws {
        let folder = try Fixtures.temporaryFolder("compile-mapping")
        let mapping = Self.mappings.appendingPathComponent("V2toV3.xcmappingmodel").path
        let first = CapturedRun(["compile", mapping, "--model", Self.model, "--output", folder.path])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output == "wrote \(folder.path)/V2toV3.cdm\n")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("V2toV3.cdm")))
        let xcodes = [UInt8](try Data(contentsOf: Self.mappings.appendingPathComponent("V2toV3.cdm")))
        #expect(try MappingModelArchive.decode(bytes) == MappingModelArchive.decode(xcodes))
        let second = CapturedRun(["compile", mapping, "--model", Self.model, "--output", folder.path])
        #expect(second.output == "\(folder.path)/V2toV3.cdm is up to date\n")
    }

    @Test func aMappingModelWithoutItsModelIsAUsageError() throws {
        let run = CapturedRun([
            "compile", Self.mappings.appendingPathComponent("V2toV3.xcmappingmodel").path, "--output", "unwritten-output",
        ])
        #expect(run.status == 2)
        #expect(run.errors.contains("needs '--model <model>'"))
    }

    @Test func modelWithoutAMappingModelIsAUsageError() {
        let run = CapturedRun(["compile", Self.model, "--model", Self.model, "--output", "unwritten-output"])
        #expect(run.status == 2)
        #expect(run.errors.contains("'--model' goes with a mapping model"))
    }
}

/// `modelgen import` and `modelgen export` of mapping models: Xcode's form to YAML and back.
struct MappingImportExportCommandTests {
    @Test func importThenExportGivesAMappingModelThatCompilesAsXcodesDoes() throws {
        let folder = try Fixtures.temporaryFolder("mapping-import-export")
        let mapping = MappingCommandTests.mappings.appendingPathComponent("V2toV3.xcmappingmodel").path
        let imported = CapturedRun(["import", mapping, "--model", MappingCommandTests.model, "--output", folder.path])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "wrote \(folder.path)/V2toV3.mapping.yaml\n")
        let exportedFolder = folder.appendingPathComponent("Again.xcmappingmodel").path
        let exported = CapturedRun([
            "export", folder.appendingPathComponent("V2toV3.mapping.yaml").path, "--model", MappingCommandTests.model, "--output",
            exportedFolder,
        ])
        #expect(exported.status == 0, "\(exported.errors)")
        let compiled = CapturedRun(["compile", exportedFolder, "--model", MappingCommandTests.model, "--output", folder.path])
        #expect(compiled.status == 0, "\(compiled.errors)")
        let ours = [UInt8](try Data(contentsOf: folder.appendingPathComponent("Again.cdm")))
        let xcodes = [UInt8](try Data(contentsOf: MappingCommandTests.mappings.appendingPathComponent("V2toV3.cdm")))
        #expect(try MappingModelArchive.decode(ours) == MappingModelArchive.decode(xcodes))
    }

    @Test func aMappingModelIsExportedOnlyToAnXcmappingmodelFolder() {
        let run = CapturedRun([
            "export", "V2toV3.mapping.yaml", "--model", MappingCommandTests.model, "--output", "Out.xcdatamodeld",
        ])
        #expect(run.status == 2)
        #expect(run.errors.contains("a mapping model is exported to a .xcmappingmodel folder"))
    }
}

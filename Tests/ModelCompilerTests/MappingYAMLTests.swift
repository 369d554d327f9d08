import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// The YAML form of mapping models: CoreDataPlus's `V2toV3` imported from Xcode's editor keeps
/// only what Xcode does not generate, and compiling the YAML gives the `.cdm` Xcode compiled.
struct MappingYAMLTests {
    static let mappings = MappingCompilerTests.mappings
    static let model = MappingCompilerTests.sampleModel

    static let expectedYAML = """
        from: SampleModel2
        to: SampleModel3
        entities:
          - source: Car
            destination: Car
            policy: REPLACE_AT_RUNTIME.V2to3MakerPolicy
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - source: LuxuryCar
            destination: LuxuryCar
            policy: REPLACE_AT_RUNTIME.V2to3MakerPolicy
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - source: Person
            destination: Person
            relationships:
              previousCars: 'FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:" , "cars", $source.cars)'
          - source: SportCar
            destination: SportCar
            policy: REPLACE_AT_RUNTIME.V2to3MakerPolicy
            relationships:
              previousOwners: 'FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)'
          - destination: Maker

        """

    @Test func importingXcodesMappingKeepsOnlyWhatXcodeDoesNotGenerate() throws {
        let output = Pipeline.importMappingModel(
            MappingCompilerTests.sampleMapping.path, modelPath: Self.model.path, outputFolder: "out")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let file = try #require(output.files.first)
        #expect(file.path == "V2toV3.mapping.yaml")
        #expect(String(decoding: file.bytes, as: UTF8.self) == Self.expectedYAML)
    }

    @Test func theYAMLFormCompilesToTheMappingModelXcodeCompiled() throws {
        let folder = try Fixtures.temporaryFolder("mapping-yaml")
        let path = folder.appendingPathComponent("V2toV3.mapping.yaml")
        try Self.expectedYAML.write(to: path, atomically: true, encoding: .utf8)
        let output = Pipeline.compileMappingModel(path.path, modelPath: Self.model.path, outputFolder: "out")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let file = try #require(output.files.first)
        #expect(file.path == "V2toV3.cdm")
        #expect(
            try MappingModelArchive.decode(file.bytes)
                == MappingModelArchive.decode([UInt8](Data(contentsOf: MappingCompilerTests.sampleCDM))))
    }

    @Test func mappingModelsInsideAModeldFolderCompileWithTheModel() throws {
        let folder = try Fixtures.temporaryFolder("mapping-modeld")
        let imported = Pipeline.run(
            Pipeline.Request(modelPath: Self.model.path, product: .yamlModel, outputFolder: folder.path))
        try OutputFiles.apply(imported.files, removing: [], under: folder.path)
        let modeld = folder.appendingPathComponent("SampleModel.modeld")
        try Self.expectedYAML.write(to: modeld.appendingPathComponent("V2toV3.mapping.yaml"), atomically: true, encoding: .utf8)
        let output = Pipeline.run(Pipeline.Request(modelPath: modeld.path, product: .compiledModel, outputFolder: folder.path + "/out"))
        #expect(!output.hasErrors, "\(output.diagnostics)")
        #expect(output.diagnostics.allSatisfy { !$0.message.contains("V2toV3") }, "\(output.diagnostics)")
        let cdm = try #require(output.files.first { $0.path == "V2toV3.cdm" })
        #expect(
            try MappingModelArchive.decode(cdm.bytes)
                == MappingModelArchive.decode([UInt8](Data(contentsOf: MappingCompilerTests.sampleCDM))))
    }
}

/// Exporting the YAML form to Xcode's editor format: the `.xcmappingmodel` written compiles to
/// the same `.cdm` as the YAML, and is the same text each time.
struct MappingExportTests {
    @Test func anExportedMappingModelCompilesAsItsYAMLDoes() throws {
        let folder = try Fixtures.temporaryFolder("mapping-export")
        let yaml = folder.appendingPathComponent("V2toV3.mapping.yaml")
        let text = MappingYAMLTests.expectedYAML.replacingOccurrences(
            of: "  - destination: Maker\n",
            with: "  - destination: Maker\n    attributes:\n      name: '\"unknown\"'\n    relationships:\n      cars: null\n")
        try text.write(to: yaml, atomically: true, encoding: .utf8)
        let exported = Pipeline.exportMappingModel(yaml.path, modelPath: MappingYAMLTests.model.path)
        #expect(exported.diagnostics.isEmpty, "\(exported.diagnostics)")
        let xcmapping = folder.appendingPathComponent("V2toV3.xcmappingmodel")
        try OutputFiles.apply(exported.files, removing: [], under: xcmapping.path)
        #expect(exported.files == Pipeline.exportMappingModel(yaml.path, modelPath: MappingYAMLTests.model.path).files)

        let fromXcode = Pipeline.compileMappingModel(xcmapping.path, modelPath: MappingYAMLTests.model.path, outputFolder: "out")
        let fromYAML = Pipeline.compileMappingModel(yaml.path, modelPath: MappingYAMLTests.model.path, outputFolder: "out")
        #expect(fromXcode.diagnostics.isEmpty, "\(fromXcode.diagnostics)")
        let compiled = try MappingModelArchive.decode(try #require(fromXcode.files.first).bytes)
        #expect(compiled == (try MappingModelArchive.decode(try #require(fromYAML.files.first).bytes)))
        let maker = try #require(compiled.entityMappings.last)
        #expect(maker.attributeMappings == [.init(name: "name", valueExpression: .constant(.string("unknown")))])
        #expect(maker.relationshipMappings == [.init(name: "cars")])
        #expect(Pipeline.mappingModels(besideModel: folder.appendingPathComponent("SampleModel.xcdatamodeld").path) == [xcmapping.path])
    }
}

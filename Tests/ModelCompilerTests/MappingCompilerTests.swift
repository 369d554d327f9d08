import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Compiling Xcode's `.xcmappingmodel` files against their models: CoreDataPlus's `V2toV3`
/// compiles to the `.cdm` Xcode compiled from it, value for value, and wibosco's `Migration2to3`,
/// made for a later revision of the model the fixtures hold, is reported as not matching it.
struct MappingCompilerTests {
    static let mappings = Fixtures.coredata.appendingPathComponent("mapping-models")
    static let sampleModel = Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")
    static let sampleMapping = mappings.appendingPathComponent("CoreDataPlus-SampleModel/V2toV3.xcmappingmodel")
    static let sampleCDM = mappings.appendingPathComponent("CoreDataPlus-SampleModel/V2toV3.cdm")

    static func compile(_ mapping: URL, model: URL) -> Pipeline.Output {
        Pipeline.compileMappingModel(mapping.path, modelPath: model.path, outputFolder: "out")
    }

    @Test func theCoreDataPlusMappingCompilesToTheMappingModelXcodeCompiled() throws {
        let output = Self.compile(Self.sampleMapping, model: Self.sampleModel)
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let file = try #require(output.files.first)
        #expect(file.path == "V2toV3.cdm")
        let ours = try MappingModelArchive.decode(file.bytes)
        let xcodes = try MappingModelArchive.decode([UInt8](Data(contentsOf: Self.sampleCDM)))
        for (mine, theirs) in zip(ours.entityMappings, xcodes.entityMappings) {
            #expect(mine == theirs, "\(mine.name)")
        }
        #expect(ours == xcodes)
    }

    @Test func compilingTwiceGivesTheSameBytes() throws {
        let first = try #require(Self.compile(Self.sampleMapping, model: Self.sampleModel).files.first)
        let second = try #require(Self.compile(Self.sampleMapping, model: Self.sampleModel).files.first)
        #expect(first.bytes == second.bytes)
    }

    @Test func theWiboscoMappingIsForAnotherRevisionOfItsModel() throws {
        let model = Fixtures.coredata.appendingPathComponent(
            "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld")
        let mapping = Self.mappings.appendingPathComponent(
            "wibosco-CoreDataMigration-Example/Migration2to3ModelMapping.xcmappingmodel")
        let output = Self.compile(mapping, model: model)
        #expect(output.files.isEmpty)
        let errors = output.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.location.file.hasSuffix("Migration2to3ModelMapping.xcmappingmodel/xcmapping.xml") })
        let messages = errors.map(\.message)
        #expect(
            messages.first?.hasPrefix("the mapping was made from another source model than version 'CoreDataMigration_Example 2'") == true)
        #expect(messages.first?.contains("attribute 'Post.content' is not in version 'CoreDataMigration_Example 2'") == true)
        #expect(
            messages.last?.hasPrefix("the mapping was made from another destination model than version 'CoreDataMigration_Example 3'")
                == true)
        #expect(messages.allSatisfy { $0.hasSuffix("it matches no version of model 'CoreDataMigration_Example'") })
    }

    @Test func mappingModelsBesideAnXcodeModelAreTheOnesNamingIt() throws {
        let folder = try Fixtures.temporaryFolder("mapping-beside")
        let fileManager = FileManager.default
        try fileManager.copyItem(at: Self.sampleModel, to: folder.appendingPathComponent("SampleModel.xcdatamodeld"))
        try fileManager.copyItem(at: Self.sampleMapping, to: folder.appendingPathComponent("V2toV3.xcmappingmodel"))
        let other = Self.mappings.appendingPathComponent("wibosco-CoreDataMigration-Example/Migration2to3ModelMapping.xcmappingmodel")
        try fileManager.copyItem(at: other, to: folder.appendingPathComponent("Other.xcmappingmodel"))
        let modelPath = folder.appendingPathComponent("SampleModel.xcdatamodeld").path
        #expect(Pipeline.mappingModels(besideModel: modelPath) == [folder.appendingPathComponent("V2toV3.xcmappingmodel").path])
        let output = Pipeline.run(Pipeline.Request(modelPath: modelPath, product: .compiledModel, outputFolder: folder.path + "/out"))
        #expect(!output.hasErrors, "\(output.diagnostics)")
        let cdm = try #require(output.files.first { $0.path == "V2toV3.cdm" })
        #expect(try MappingModelArchive.decode(cdm.bytes) == MappingModelArchive.decode([UInt8](Data(contentsOf: Self.sampleCDM))))
    }
}

/// Damaged `.xcmappingmodel` files are diagnostics at the place of the damage, never crashes.
struct DamagedXcodeMappingTests {
    static func compile(_ xml: String) throws -> [String] {
        let folder = try Fixtures.temporaryFolder("damaged-mapping").appendingPathComponent("Bad.xcmappingmodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try xml.write(to: folder.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        let output = Pipeline.compileMappingModel(folder.path, modelPath: MappingCompilerTests.sampleModel.path, outputFolder: "out")
        #expect(output.files.isEmpty)
        return output.diagnostics.filter { $0.severity == .error || $0.location.file.hasSuffix("xcmapping.xml") }.map {
            "\($0.location.line):\($0.location.column): \($0.severity == .error ? "" : "\($0.severity.rawValue): ")\($0.message)"
        }
    }

    static func fixtureXML() throws -> String {
        try String(contentsOf: MappingCompilerTests.sampleMapping.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
    }

    @Test func malformedXMLIsAnErrorWhereTheParserStopped() throws {
        let errors = try Self.compile("<database>\n  <object type=\"XDDEVMAPPINGMODEL\">\n</database>")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("3:") == true && errors.first?.contains("the mapping model is not valid XML") == true)
    }

    @Test func aStoreWithoutAMappingModelObjectIsAnError() throws {
        #expect(try Self.compile("<database>\n</database>\n") == ["1:1: the mapping model holds no XDDEVMAPPINGMODEL object"])
    }

    @Test func aValueExpressionThatIsNotAnArchiveIsAnErrorAtItsAttribute() throws {
        let xml = try Self.fixtureXML()
        let start = try #require(xml.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"))
        let end = try #require(xml[start.upperBound...].range(of: "</attribute>"))
        let damaged = xml.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "YnBsaXN0MDAAAAAA")
        let line = xml[..<start.lowerBound].filter { $0 == "\n" }.count + 1
        let errors = try Self.compile(damaged)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("\(line):9: the value expression cannot be read: not an archived expression") == true, "\(errors)")
    }

    @Test func anEmbeddedModelThatCannotBeReadIsAWarningAndTheVersionIsStillChecked() throws {
        let xml = try Self.fixtureXML()
        let start = try #require(xml.range(of: "<attribute name=\"sourcemodeldata\" type=\"binary\">"))
        let end = try #require(xml[start.upperBound...].range(of: "</attribute>"))
        let damaged = xml.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "AAAA")
            .replacingOccurrences(
                of: "<attribute name=\"sourcename\" type=\"string\">Person</attribute>",
                with: "<attribute name=\"sourcename\" type=\"string\">Human</attribute>")
        let errors = try Self.compile(damaged)
        #expect(errors.contains { $0.hasSuffix("source entity 'Human' is not in version 'SampleModel2'") }, "\(errors)")
        #expect(
            errors.contains { $0.contains("warning: Xcode's copy of the source model cannot be read; it is not compared with the model") },
            "\(errors)")
    }
}

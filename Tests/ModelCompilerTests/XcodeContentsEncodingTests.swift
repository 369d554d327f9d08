import Foundation
import ModelCompiler
import Testing

/// Model contents that are not UTF-8 are rejected, with the position of the first bad byte,
/// before they reach FoundationXML (which stops the process on such attribute names and
/// processing-instruction targets).
struct XcodeContentsEncodingTests {
    static func load(_ bytes: [UInt8]) throws -> Pipeline.Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(bytes).write(to: url.appendingPathComponent("contents"))
        return Pipeline.load(url.path)
    }

    static let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)

    @Test func attributeNameThatIsNotUTF8IsALocatedError() throws {
        let result = try Self.load(Self.header + Array("<model><entity n".utf8) + [0xFF] + Array("ame=\"X\"/></model>\n".utf8))
        let error = try #require(result.diagnostics.first)
        #expect(error.message.hasPrefix("the model contents are not valid XML: byte 0xFF at line 2, column 17 is not UTF-8"))
        #expect(error.location.line == 2 && error.location.column == 17)
        #expect(result.model == nil)
    }

    @Test func processingInstructionTargetThatIsNotUTF8IsAnError() throws {
        let result = try Self.load(Self.header + Array("<model><?t".utf8) + [0xC3, 0x28] + Array(" x?></model>\n".utf8))
        #expect(result.diagnostics.first?.message.contains("byte 0xC3 at line 2, column 11 is not UTF-8") == true)
    }

    @Test func overlongAndSurrogateEncodingsAreNotUTF8() throws {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let result = try Self.load(Self.header + Array("<model><entity name=\"".utf8) + bad + Array("\"/></model>".utf8))
            #expect(result.diagnostics.first?.message.contains("is not UTF-8") == true)
        }
    }

    @Test func multibyteCharactersAreAcceptedAndCountedAsOneColumn() throws {
        let result = try Self.load(
            Self.header + Array("<model><entity name=\"Café\"/>\n<entity n".utf8) + [0xFF] + Array("=\"\"/></model>".utf8))
        #expect(result.diagnostics.first?.location.line == 3)
        #expect(result.diagnostics.first?.location.column == 10)
        let fine = try Self.load(Self.header + Array("<model><entity name=\"Café\" representedClassName=\"Café\"/></model>".utf8))
        #expect(fine.diagnostics.allSatisfy { !$0.message.contains("UTF-8") })
    }
}

/// A processing instruction without data (`<?a?>`) stopped the process inside FoundationXML
/// (found by modelgen-fuzz); it is a located error before parsing.
struct XcodeProcessingInstructionTests {
    @Test(arguments: ["<?a?><model/>", "<model>\n  <?xm?></model>", "<model/><?a?>"])
    func processingInstructionWithoutDataIsALocatedError(_ text: String) throws {
        let result = try XcodeModelReaderTests.load(text)
        let error = try #require(result.diagnostics.first)
        #expect(error.message.contains("has no data"))
        #expect(result.model == nil)
    }

    @Test func theFuzzerInputIsLocated() throws {
        let result = try XcodeModelReaderTests.load("<?xm?>\n<model type=\"x\"")
        #expect(result.diagnostics.first?.location.line == 1 && result.diagnostics.first?.location.column == 1)
    }

    @Test func instructionsInCommentsAndInstructionsWithDataAreLeftToTheParser() throws {
        let result = try XcodeModelReaderTests.load("<model><!-- <?a?> --><![CDATA[<?b?>]]><?c d?></model>")
        #expect(result.diagnostics.allSatisfy { !$0.message.contains("has no data") })
    }
}

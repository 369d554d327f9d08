import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// Text XML can carry survives every output; text it cannot carry is refused where it is written.
struct ControlCharacterTests {
    static func load(_ yaml: String) throws -> Pipeline.Result {
        let folder = try RoundTripTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Notes.model.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return Pipeline.load(path)
    }

    static let allowedText = """
        entities:
          Note:
            documentation: "First line\\r\\nsecond line\\rthird line\\u2028fourth line"
            attributes:
              body: { type: String, default: "tab\\there, return\\r, delete \\x7f, next line \\x85", documentation: "ok" }
        enums:
          Mark:
            cases: { tab: "a\\tb", delete: "c\\x7fd", nextLine: "e\\x85f" }
        """

    @Test func everyLineBreakInDocumentationStartsANewCommentLine() throws {
        let model = try #require(try Self.load(Self.allowedText).model)
        let files = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
        let source = files.map(\.contents).joined()
        #expect(!source.unicodeScalars.contains { $0 == "\r" || $0 == "\u{2028}" })
        for line in ["/// First line", "/// second line", "/// third line", "/// fourth line"] {
            #expect(source.contains(line + "\n"), "\(line)")
        }
        #expect(source.contains(#"case tab = "a\tb""#))
        #expect(source.contains(#"case delete = "c\u{7f}d""#))
        #expect(source.contains("case nextLine = \"e\u{85}f\""))
    }

    @Test func controlCharactersXMLCanCarryRoundTripThroughExport() throws {
        let model = try #require(try Self.load(Self.allowedText).model)
        let again = try XcodeExportRoundTripTests.throughXcode(model)
        let body = try #require(again.currentVersion?.entities.first?.attributes.first)
        #expect(body.defaultValue == .string("tab\there, return\r, delete \u{7f}, next line \u{85}"))
    }

    @Test func charactersXMLCannotCarryAreLocatedErrors() throws {
        let result = try Self.load("entities:\n  Note:\n    documentation: \"a\\0b\"\n    attributes:\n      \"bo\\x01dy\": String\n")
        #expect(result.model == nil || result.hasErrors)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(Set(errors.map(\.location.line)) == [3, 5])
        #expect(errors.first?.message.contains("U+0000") == true)
    }

    @Test func xmlCharacterRuleFollowsXML10() {
        #expect(XMLCharacterCheck.firstForbiddenScalar(in: "tab\tline\nreturn\r\u{7F}\u{85}\u{FFFD}é") == nil)
        #expect(XMLCharacterCheck.firstForbiddenScalar(in: "x\u{0B}") == "\u{0B}")
        #expect(XMLCharacterCheck.firstForbiddenScalar(in: "x\u{FFFE}") == "\u{FFFE}")
        #expect(XMLCharacterCheck.firstForbiddenScalar(in: "\u{1F}") == "\u{1F}")
    }
}

import Testing

@testable import ModelCompiler

/// A model file that is not well-formed XML is reported in words, never as a bare parser code.
struct XMLErrorMessageTests {
    static let cases: [(xml: String, words: String)] = [
        ("<model>&foo;</model>", "it refers to an entity that is not declared (write '&amp;' for a literal '&')"),
        (
            "<!DOCTYPE model [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><model>&a;</model>",
            "its entities refer to each other in a loop or expand too much"
        ),
        ("<model a='1' a='2'/>", "an element has the same attribute twice"),
        ("<model><entity></entry></model>", "an end tag does not match its start tag"),
        ("<model a=\"<\"/>", "a name is missing or starts with a character names cannot start with"),
        ("<model>&#0;</model>", "it contains a character XML does not allow"),
        ("<model a/>", "an attribute has no quoted value"),
        ("<model>]]></model>", "it contains ']]>' outside a CDATA section"),
        ("<?xml version=\"1.0\" encoding=\"nope\"?><model/>", "its character encoding is unknown or its bytes do not match it"),
    ]

    @Test(arguments: cases.indices)
    func malformedContentsAreDescribedInWords(_ index: Int) throws {
        let (xml, words) = Self.cases[index]
        let result = try XcodeModelReaderTests.load(xml)
        let message = try #require(result.diagnostics.first?.message)
        #expect(message == "the model contents are not valid XML: \(words)")
    }

    @Test func everyParserErrorCodeHasAnExplanation() {
        for code in 1...111 {
            let words = XMLErrorDescription.words(for: code)
            #expect(!words.isEmpty)
            #expect(!words.hasPrefix("XML syntax error"))
        }
    }
}

import Foundation
import ModelSchema
import Mustache
import Testing

@testable import ModelCompiler

/// `docs/Generation.md` lists the keys templates receive; custom templates are written from that
/// list, so it must name exactly the keys of the declared context shape (`SwiftTemplateContext`),
/// which is what strict rendering checks templates against.
struct TemplateContextDocumentationTests {
    static let documentation = Fixtures.packageRoot.appendingPathComponent("docs/Generation.md")

    /// The backquoted names in the "Template context" section (template file names and options
    /// are not names, so they are skipped).
    static func documentedKeys() throws -> Set<String> {
        let text = try String(contentsOf: documentation, encoding: .utf8)
        let start = try #require(text.range(of: "### Template context"))
        let rest = text[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        var keys: Set<String> = []
        for (index, part) in section.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        where index % 2 == 1 && !part.isEmpty && part.allSatisfy({ $0.isLetter }) {
            keys.insert(String(part))
        }
        return keys
    }

    /// Every key the declared context shape offers, at any level, for every template rendered
    /// as a file.
    static func providedKeys() -> Set<String> {
        SwiftTemplateContext.fileShapes.values.reduce(into: []) { keys, stack in
            for shape in stack { keys.formUnion(shape.allKeys) }
        }
    }

    @Test func everyDocumentedTemplateKeyIsInTheContext() throws {
        let missing = try Self.documentedKeys().subtracting(Self.providedKeys())
        #expect(missing.isEmpty, "documented in docs/Generation.md but not provided: \(missing.sorted())")
    }

    @Test func everyContextKeyIsDocumented() throws {
        let undocumented = Self.providedKeys().subtracting(try Self.documentedKeys())
        #expect(undocumented.isEmpty, "provided but not documented in docs/Generation.md: \(undocumented.sorted())")
    }
}

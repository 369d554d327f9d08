import Foundation
import ModelSchema
import Mustache
import Testing

@testable import ModelCompiler

/// `docs/Generation.md` lists the keys templates receive; custom templates are written from that
/// list, so it must name exactly the keys the generator provides.
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

    static func keys(of value: MustacheValue) -> Set<String> {
        switch value {
        case .object(let members): members.keys.reduce(into: Set(members.keys)) { $0.formUnion(keys(of: members[$1]!)) }
        case .list(let items): items.reduce(into: []) { $0.formUnion(keys(of: $1)) }
        default: []
        }
    }

    /// Keys of every context the generator builds, over models using every feature (both layouts).
    static func providedKeys() throws -> Set<String> {
        var keys: Set<String> = []
        for path in [
            "Samples/Trips/Trips.modeld", "Tests/ModelCompilerTests/Golden/Models/Drawings.model.yaml",
            "Tests/ModelCompilerTests/Golden/Models/Itinerary.modeld",
            // A step that cannot be inferred and is not declared custom.
            "Tests/Fixtures/coredata/wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld",
        ] {
            let model = try #require(Pipeline.load(Fixtures.packageRoot.appendingPathComponent(path).path).model)
            for layout in [SwiftGenerator.Layout.entity, .model] {
                var options = SwiftGenerator.Options()
                options.layout = layout
                for rendering in SwiftGenerator.renderings(model, options: options) { keys.formUnion(Self.keys(of: rendering.context)) }
            }
        }
        return keys
    }

    @Test func everyDocumentedTemplateKeyIsInTheContext() throws {
        let missing = try Self.documentedKeys().subtracting(Self.providedKeys())
        #expect(missing.isEmpty, "documented in docs/Generation.md but not provided: \(missing.sorted())")
    }

    @Test func everyContextKeyIsDocumented() throws {
        let undocumented = try Self.providedKeys().subtracting(Self.documentedKeys())
        #expect(undocumented.isEmpty, "provided but not documented in docs/Generation.md: \(undocumented.sorted())")
    }
}

import Foundation
import ModelSchema
import Mustache
import Testing

@testable import ModelCompiler

/// The embedded templates render strictly against the declared context shape (an unknown key is
/// an error naming template, line, column and key); templates a user supplies render leniently
/// (one warning per unknown key, and the files are still written).
struct StrictTemplateTests {
    static var embedded: MustacheLibrary { MustacheLibrary(sources: EmbeddedTemplates.sources) }

    static func model(_ path: String) throws -> Model {
        let result = Pipeline.load(Fixtures.packageRoot.appendingPathComponent(path).path)
        return try #require(result.model, "\(result.diagnostics)")
    }

    /// `entityClass.mustache` with `{{className}}` misspelt once, on its class declaration.
    static let misspeltEntityClass: String = {
        let source = EmbeddedTemplates.sources["entityClass"] ?? ""
        guard let range = source.range(of: "class {{className}}:") else { return source }
        return source.replacingCharacters(in: range, with: "class {{clasName}}:")
    }()

    /// Where the misspelt tag is in the template: 1-based line and column.
    static var misspeltLocation: (line: Int, column: Int) {
        let lines = misspeltEntityClass.components(separatedBy: "\n")
        let index = lines.firstIndex { $0.contains("{{clasName}}") } ?? 0
        let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: "{{clasName}}")!.lowerBound) + 1
        return (index + 1, column)
    }

    @Test func everyTemplateRenderedAsAFileDeclaresOnlyKeysOfTheContextShape() throws {
        for (template, stack) in SwiftTemplateContext.fileShapes {
            let unknown = try Self.embedded.unknownNames(in: template, stack: stack)
            #expect(unknown.isEmpty, "\(template): \(unknown.map { "\($0.template):\($0.location) \($0.name)" })")
        }
    }

    @Test func theContextShapeHasTheDeclaredLevels() {
        let entity = SwiftTemplateContext.entityFileShape.last?.members
        #expect(entity?["objcName"] == .optional(.value))
        #expect(entity?["attributes"]?.pushed.members?["rawValueAccessor"]?.members?["attributeName"] == .value)
        #expect(SwiftTemplateContext.modelFileShape.last?.members?["migration"]?.members?["hasCustomSteps"] == .bool)
    }

    @Test(arguments: [
        "Samples/Trips/Trips.modeld", "Samples/CheckedIn/Sources/Notes/Notes.model.yaml",
        "Tests/ModelCompilerTests/Golden/Models/Drawings.model.yaml", "Tests/ModelCompilerTests/Golden/Models/Itinerary.modeld",
    ])
    func goldenModelsRenderStrictlyWithoutWarningsInBothLayouts(_ path: String) throws {
        let model = try Self.model(path)
        for layout in SwiftGenerator.Layout.allCases {
            var options = SwiftGenerator.Options()
            options.layout = layout
            var warnings: [Diagnostic] = []
            let files = try SwiftGenerator.generate(model, options: options, warnings: &warnings)
            #expect(!files.isEmpty)
            #expect(warnings.isEmpty)
        }
    }

    @Test func aMisspeltKeyInAnEmbeddedStyleTemplateIsAnErrorWithItsLocation() throws {
        var sources = EmbeddedTemplates.sources
        sources["entityClass"] = Self.misspeltEntityClass
        #expect(sources["entityClass"] != EmbeddedTemplates.sources["entityClass"])
        let library = MustacheLibrary(sources: sources)
        let error = try #require(throws: SwiftGenerator.TemplateError.self) {
            _ = try SwiftTemplateCheck.check("entity", templates: library, options: SwiftGenerator.Options())
        }
        let (line, column) = Self.misspeltLocation
        #expect(error.template == "entityClass")
        #expect(error.location == SourceLocation(file: "entityClass.mustache", line: line, column: column))
        #expect(error.message == "'clasName' is not a key of the template context (included from entity.mustache)")
    }

    @Test func aMisspeltKeyInAUserTemplateIsOneWarningAndTheFilesAreStillGenerated() throws {
        let model = try Self.model("Samples/Trips/Trips.modeld")
        var options = SwiftGenerator.Options()
        options.templateOverrides = ["entityClass": Self.misspeltEntityClass]
        options.templatesFolder = "MyTemplates"
        var warnings: [Diagnostic] = []
        let files = try SwiftGenerator.generate(model, options: options, warnings: &warnings)
        let (line, column) = Self.misspeltLocation
        #expect(
            warnings == [
                Diagnostic(
                    .warning, "'clasName' is not a key of the template context (included from entity.mustache); it renders as empty text",
                    at: SourceLocation(file: "MyTemplates/entityClass.mustache", line: line, column: column))
            ])
        let trip = try #require(files.first { $0.name == "Trip+CoreData.swift" })
        #expect(trip.contents.contains("public class : "))
    }

    @Test func anEmbeddedTemplateIncludedFromAUserTemplateIsCheckedLeniently() throws {
        // The user's model template includes the embedded class template where no entity is on
        // the stack: what the class template cannot find there is the user's doing.
        let model = try Self.model("Samples/Trips/Trips.modeld")
        var options = SwiftGenerator.Options()
        options.templateOverrides = ["model": "{{>entityClass}}\n{{titel}}\n"]
        var warnings: [Diagnostic] = []
        _ = try SwiftGenerator.generate(model, options: options, warnings: &warnings)
        #expect(warnings.contains { $0.location == SourceLocation(file: "model.mustache", line: 2, column: 1) })
        #expect(warnings.contains { $0.location.file == "entityClass.mustache" && $0.message.hasPrefix("'className' is not a key") })
        #expect(warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func aUserTemplateThatDoesNotParseIsStillAnError() throws {
        let model = try Self.model("Samples/Trips/Trips.modeld")
        var options = SwiftGenerator.Options()
        options.templateOverrides = ["header": "{{#open}}"]
        #expect(throws: SwiftGenerator.GenerationError.self) { try SwiftGenerator.generate(model, options: options) }
    }
}

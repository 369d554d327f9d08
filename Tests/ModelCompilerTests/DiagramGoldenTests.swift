import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// `modelgen diagram`'s Mermaid and DOT text for the samples, an Xcode model with inheritance,
/// abstract entities and configurations, and `--diff`s, compared with the files in
/// `Golden/Diagrams`. Run with `MODELGEN_UPDATE_GOLDEN=1` to rewrite them.
struct DiagramGoldenTests {
    static let directory = Fixtures.golden.appendingPathComponent("Diagrams")

    /// A golden case: its file name, the model and what is drawn.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let model: String
        /// nil for the current version.
        let version: String?
        let diff: (from: String, to: String)?

        var testDescription: String { name }
    }

    static let cases =
        [
            Case(name: "Trips", model: Fixtures.tripsModel.path, version: nil, diff: nil),
            Case(name: "Trips-1", model: Fixtures.tripsModel.path, version: "Trips 1", diff: nil),
            Case(
                name: "Notes", model: Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Notes.model.yaml").path,
                version: nil,
                diff: nil),
            Case(
                name: "AbstractEntities", model: Fixtures.root.appendingPathComponent("xcode-patterns/AbstractEntities.xcdatamodel").path,
                version: nil, diff: nil),
            Case(name: "Trips-diff", model: Fixtures.tripsModel.path, version: nil, diff: ("Trips 1", "Trips 2")),
            Case(
                name: "SampleModel-diff", model: Fixtures.coredata.appendingPathComponent(FixtureStores.sampleModel).path, version: nil,
                diff: ("SampleModel", "SampleModel3")),
        ]
        + [
            "attribute-renamed", "attribute-type-changed", "relationship-delete-rule-changed", "entity-removed-with-its-relationship",
            "entity-renamed", "inheritance-new-parent", "entity-becomes-abstract",
        ].map { name in
            Case(
                name: name + "-diff", model: Fixtures.golden.appendingPathComponent("Migrations/\(name).modeld").path, version: nil,
                diff: ("V1", "V2"))
        }

    static func diagram(_ testCase: Case) throws -> Diagram {
        let result = Pipeline.load(testCase.model)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let model = try #require(result.model)
        if let diff = testCase.diff { return try #require(ModelDiagram.diff(of: model, from: diff.from, to: diff.to)) }
        return try #require(ModelDiagram.diagram(of: model, version: testCase.version))
    }

    static func compare(_ actual: String, toGolden file: String) throws {
        #expect(actual == (try Golden.expected(actual, at: directory.appendingPathComponent(file))))
    }

    @Test(arguments: cases)
    func mermaidMatchesGoldenFile(_ testCase: Case) throws {
        try Self.compare(ModelDiagram.text(try Self.diagram(testCase), format: .mermaid), toGolden: testCase.name + ".mmd")
    }

    @Test(arguments: cases)
    func dotMatchesGoldenFile(_ testCase: Case) throws {
        try Self.compare(ModelDiagram.text(try Self.diagram(testCase), format: .dot), toGolden: testCase.name + ".dot")
    }

    @Test(arguments: cases)
    func mermaidIsInTheSyntaxMermaidParses(_ testCase: Case) throws {
        let text = ModelDiagram.text(try Self.diagram(testCase), format: .mermaid)
        #expect(MermaidSyntax.problems(in: text) == [])
    }

    @Test(arguments: cases)
    func everyEntityAndRelationshipIsDrawn(_ testCase: Case) throws {
        let diagram = try Self.diagram(testCase)
        let mermaid = ModelDiagram.text(diagram, format: .mermaid)
        let dot = ModelDiagram.text(diagram, format: .dot)
        for entity in diagram.entities {
            #expect(mermaid.contains("class \(entity.name)"), "\(entity.name)")
            #expect(dot.contains("\"\(entity.name)\" [label=<"), "\(entity.name)")
        }
        for link in diagram.links {
            for relationship in [link.forward] + (link.inverse.map { [$0] } ?? []) {
                #expect(mermaid.contains("\(relationship.name) ("), "\(relationship.name)")
                #expect(dot.contains("\(relationship.name) ("), "\(relationship.name)")
            }
        }
    }

    /// Every version of every fixture model and every step between versions, DuckDuckGo's
    /// six-version models included.
    @Test(arguments: RoundTripTests.xcodeModels + [FixtureStores.bookmarks, FixtureStores.syncMetadata])
    func everyFixtureVersionAndStepIsValidMermaid(_ path: String) throws {
        let model = try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(path).path).model)
        var diagrams = try model.versions.map { try #require(ModelDiagram.diagram(of: model, version: $0.name)) }
        for (old, new) in zip(model.versions, model.versions.dropFirst()) {
            diagrams.append(try #require(ModelDiagram.diff(of: model, from: old.name, to: new.name)))
        }
        for diagram in diagrams {
            #expect(MermaidSyntax.problems(in: ModelDiagram.text(diagram, format: .mermaid)) == [], "\(diagram.title)")
            // The newer (or only) version's entities are all drawn; a diff adds the removed ones.
            let newest = try #require(model.versions.first { $0.name == diagram.versions.last })
            #expect(Set(diagram.entities.map(\.name)).isSuperset(of: newest.entities.map(\.name)))
        }
    }

    @Test func theSameDiagramIsWrittenOnEveryRun() throws {
        let first = try Self.diagram(Self.cases[0])
        let second = try Self.diagram(Self.cases[0])
        #expect(ModelDiagram.text(first, format: .mermaid) == ModelDiagram.text(second, format: .mermaid))
        #expect(ModelDiagram.text(first, format: .dot) == ModelDiagram.text(second, format: .dot))
    }
}

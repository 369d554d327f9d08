import Foundation
import ModelCompiler
import Testing

@testable import ModelgenCLI

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Whether the SVG tests run: when Graphviz's `dot` is on `PATH`, and always with
/// `MODELGEN_REQUIRE_GRAPHVIZ=1` (as CI sets it), where a missing `dot` fails them.
enum GraphvizAvailability {
    static let dot = GraphvizRenderer.locate(searchPath: ProcessInfo.processInfo.environment["PATH"])
    static let isRequired = ProcessInfo.processInfo.environment["MODELGEN_REQUIRE_GRAPHVIZ"] == "1"
    static var testsRun: Bool { dot != nil || isRequired }
}

/// The SVG `modelgen diagram --format svg` gets from Graphviz, checked by reading it as XML: every
/// entity is a node, and every relationship name is drawn. (Graphviz's SVG differs between its
/// versions, so it is not compared with a golden file.)
@Suite(.enabled(if: GraphvizAvailability.testsRun, "needs Graphviz's dot on PATH"))
struct DiagramSVGTests {
    static let models = [
        ["diagram", Fixtures.tripsModel.path], ["diagram", Fixtures.tripsModel.path, "--diff", "Trips 1", "Trips 2"],
        ["diagram", Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Notes.model.yaml").path],
        ["diagram", Fixtures.root.appendingPathComponent("xcode-patterns/AbstractEntities.xcdatamodel").path],
        ["diagram", Fixtures.coredata.appendingPathComponent(FixtureStores.sampleModel).path, "--diff", "SampleModel", "SampleModel3"],
    ]

    @Test(arguments: models)
    func svgDrawsEveryEntityAndRelationship(_ arguments: [String]) throws {
        try #require(GraphvizAvailability.dot != nil, "MODELGEN_REQUIRE_GRAPHVIZ=1, but Graphviz's dot is not on PATH")
        let run = CapturedRun(arguments + ["--format", "svg"])
        #expect(run.status == 0, "\(run.errors)")
        let svg = try SVGContent(run.output)
        let model = try #require(Pipeline.load(arguments[1]).model)
        let diagram = try #require(
            arguments.count > 2 ? ModelDiagram.diff(of: model, from: arguments[3], to: arguments[4]) : ModelDiagram.diagram(of: model))
        #expect(Set(svg.nodeTitles).isSuperset(of: diagram.entities.map(\.name)))
        #expect(svg.edgeTitles.count == diagram.links.count + diagram.inheritance.count)
        for link in diagram.links {
            for relationship in [link.forward] + (link.inverse.map { [$0] } ?? []) {
                #expect(svg.texts.contains { $0.contains("\(relationship.name) (") }, "\(relationship.name)")
            }
        }
        for entity in diagram.entities {
            for attribute in entity.attributes {
                #expect(svg.texts.contains { $0.hasPrefix("\(attribute.name): \(attribute.typeName)") }, "\(entity.name).\(attribute.name)")
            }
        }
    }

    @Test func namesThatNeedEscapingAreDrawnAsWritten() throws {
        try #require(GraphvizAvailability.dot != nil, "MODELGEN_REQUIRE_GRAPHVIZ=1, but Graphviz's dot is not on PATH")
        let names = ["A \"quoted\" name", "<b>Bold</b> & co", "Back\\slash", "New\\nline", "Semi;colon:{Brace}"]
        let entities = names.map { DiagramEntity(name: $0, parentName: nil, isAbstract: false, attributes: []) }
        let diagram = Diagram(modelName: "Tricky", versions: ["V1"], entities: entities, links: [], groups: [], isDiff: false)
        let svg = try SVGContent(try GraphvizRenderer.svg(fromDOT: ModelDiagram.text(diagram, format: .dot)))
        for name in names { #expect(svg.texts.contains(name), "\(name)") }
    }

    @Test func graphvizFailingIsReportedWithItsMessage() throws {
        try #require(GraphvizAvailability.dot != nil, "MODELGEN_REQUIRE_GRAPHVIZ=1, but Graphviz's dot is not on PATH")
        #expect {
            try GraphvizRenderer.svg(fromDOT: "digraph { a -> }")
        } throws: { error in
            (error as? GraphvizRenderer.Failure)?.message.contains("-Tsvg' failed with status") == true
        }
    }
}

/// What an SVG drawn by Graphviz shows: the titles of its node and edge groups, and every text.
final class SVGContent: NSObject, XMLParserDelegate {
    private(set) var nodeTitles: [String] = []
    private(set) var edgeTitles: [String] = []
    private(set) var texts: [String] = []
    private var groupClasses: [String?] = []
    private var buffer = ""

    struct NotXML: Error {
        let description: String
    }

    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else { throw NotXML(description: "\(parser.parserError.map { "\($0)" } ?? "unknown error")") }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if elementName == "g" { groupClasses.append(attributes["class"]) }
        if elementName == "title" || elementName == "text" { buffer = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { buffer += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "g": groupClasses.removeLast()
        case "title" where groupClasses.last == "node": nodeTitles.append(buffer)
        case "title" where groupClasses.last == "edge": edgeTitles.append(buffer)
        case "text": texts.append(buffer)
        default: break
        }
    }
}

import Foundation
import ModelSchema
import Testing

@testable import ModelCompiler

/// Names Mermaid or DOT would misread (keywords, quotes, the characters that end labels or open
/// bodies, HTML) are written so that the text still parses and shows them as written. Xcode
/// models may use such names; YAML models cannot.
struct DiagramEscapingTests {
    static let trickyNames = [
        "o", "class", "note", "Order", "Crème", "A \"quoted\" name", "Semi;colon:Colon", "Hash#Tag", "<b>Bold</b> & co",
        "Back\\slash", "Percent%%", "Tick`Tock", "{Brace}",
    ]

    /// Every tricky name as an entity, with tricky attribute and relationship names, linked in a
    /// ring, each one the parent of the next, in a configuration whose name is not an identifier.
    static func trickyDiagram(isDiff: Bool = false) -> Diagram {
        let names = trickyNames
        let entities = names.enumerated().map { index, name in
            DiagramEntity(
                name: name, parentName: index > 0 ? names[index - 1] : nil, isAbstract: index == 0,
                attributes: [
                    DiagramAttribute(name: "(method)", typeName: "~Generic~", isOptional: true),
                    DiagramAttribute(name: "+plus", typeName: "Cost$", isOptional: false, change: isDiff ? .added : .unchanged),
                    DiagramAttribute(name: name, typeName: "[String: Any]*", isOptional: false),
                ], change: isDiff ? .renamed(from: name + "\"old") : .unchanged)
        }
        let changes: [DiagramChange] =
            isDiff ? [.changed(aspects: ["deleteRule", "minCount"]), .renamed(from: "old:name;"), .removed] : [.unchanged]
        let links = names.enumerated().map { index, name in
            DiagramLink(
                forward: DiagramRelationship(
                    Relationship(name: "to:\(name);", destinationName: names[(index + 1) % names.count], isToMany: true), of: name,
                    change: changes[index % changes.count]),
                inverse: nil)
        }
        return Diagram(
            modelName: "Tricky \"Model\"", versions: isDiff ? ["V 1", "V;2"] : ["V;1"], entities: entities, links: links,
            groups: [DiagramGroup(configurations: ["My Config", "Other"], entityNames: [names[3], names[4]])], isDiff: isDiff)
    }

    @Test(arguments: [false, true])
    func mermaidOfTrickyNamesIsInTheSyntaxMermaidParses(_ isDiff: Bool) {
        let text = MermaidWriter.text(Self.trickyDiagram(isDiff: isDiff))
        #expect(MermaidSyntax.problems(in: text) == [], "\(text)")
    }

    @Test func mermaidEscapesEveryCharacterItGivesAMeaningAsAnEntityCode() {
        #expect(MermaidEscaping.text("a\"b;c:d#e") == "a#34;b#59;c#58;d#35;e")
        #expect(MermaidEscaping.text("(x)~y~{z}") == "#40;x#41;#126;y#126;#123;z#125;")
        #expect(MermaidEscaping.text("<b>&`%") == "#60;b#62;#38;#96;#37;")
        #expect(MermaidEscaping.text("Integer 16_x.y") == "Integer 16_x.y")
        #expect(MermaidEscaping.text("Crème") == "Cr#232;me")
    }

    @Test func namesThatAreNotMermaidIdentifiersGetNumberedClassesLabelledWithTheName() {
        let ids = MermaidEscaping.identifiers(for: ["o", "Entity1", "Trip", "class", "Order"])
        #expect(ids == ["o": "Entity2", "Entity1": "Entity1", "Trip": "Trip", "class": "Entity3", "Order": "Order"])
        let text = MermaidWriter.text(Self.trickyDiagram())
        #expect(text.contains("  class Entity1[\"o\"] {\n"))
        #expect(text.contains("    class Order {\n"))
        #expect(text.contains("  class Entity4[\"Cr#232;me\"] {\n"))
        #expect(text.contains("[\"A #34;quoted#34; name\"]"))
        #expect(text.contains("  namespace `My Config #43; Other` {\n"))
    }

    @Test func dotQuotesIdentifiersAndEscapesHTMLLabels() {
        #expect(DotEscaping.quoted("A \"q\" \\n\nx\u{1}") == "\"A \\\"q\\\" \\\\n\\nx\"")
        #expect(DotEscaping.html("<b>&\"x\"</b>") == "&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;")
        let text = DotWriter.text(Self.trickyDiagram())
        #expect(text.contains("digraph \"Tricky \\\"Model\\\"\" {"))
        #expect(text.contains("\"Back\\\\slash\" [label=<"))
        #expect(text.contains("<b>&lt;b&gt;Bold&lt;/b&gt; &amp; co</b>"))
        #expect(text.contains("subgraph \"cluster_My Config + Other\" {"))
        #expect(text.contains("\"A \\\"quoted\\\" name\" -> \"Semi;colon:Colon\" [arrowhead=crowodot"))
    }
}

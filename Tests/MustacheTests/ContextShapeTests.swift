import Mustache
import Testing

/// Declared context shapes: derived from `Decodable` types, encoded values that keep declared
/// nil keys as null, and the check that finds tags naming undeclared keys.
struct ContextShapeTests {
    struct Item: Codable {
        var title: String
        var note: String?
        var isDone: Bool
        var count: Int
    }

    struct Page: Codable {
        var heading: String
        var items: [Item]
        var tags: [String]
        var footer: Item?
    }

    static let pageShape: MustacheShape = .object([
        "heading": .value,
        "items": .list(.object(["title": .value, "note": .optional(.value), "isDone": .bool, "count": .value])),
        "tags": .list(.value),
        "footer": .optional(.object(["title": .value, "note": .optional(.value), "isDone": .bool, "count": .value])),
    ])

    static func unknown(_ template: String, partials: [String: String] = [:]) throws -> [MustacheUnknownName] {
        try MustacheLibrary(sources: partials.merging(["main": template]) { $1 }).unknownNames(in: "main", stack: [pageShape])
    }

    @Test func theShapeOfADecodableTypeListsEveryPropertyWithItsKind() throws {
        #expect(try MustacheShape(of: Page.self) == Self.pageShape)
    }

    @Test func encodingKeepsANilPropertyAsNullSoItDoesNotFallThroughToOuterContexts() throws {
        let item = try MustacheValue(encoding: Item(title: "a", note: nil, isDone: true, count: 2))
        #expect(item == ["title": "a", "note": .null, "isDone": true, "count": .int(2)])
        let rendered = try MustacheLibrary(sources: ["main": "{{#item}}[{{note}}]{{/item}}"]).render(
            "main", stack: [["note": "outer"], ["item": item]])
        #expect(rendered == "[]")
    }

    @Test func declaredKeysAreKnownEvenWhenTheirValuesWouldBeNullOrEmpty() throws {
        let template = """
            {{heading}}{{#items}}{{title}}{{note}}{{#isDone}}{{count}}{{/isDone}}{{^note}}-{{/note}}{{/items}}
            {{#tags}}{{.}}{{/tags}}{{#footer}}{{title}}{{heading}}{{/footer}}{{footer.note}}
            """
        #expect(try Self.unknown(template).isEmpty)
    }

    @Test func anUndeclaredKeyIsReportedWithItsTemplateLineAndColumn() throws {
        let found = try Self.unknown("{{heading}}\n  {{#items}}{{titel}}{{/items}}")
        #expect(found.count == 1)
        #expect(found.first?.name == "titel")
        #expect(found.first?.kind == .key)
        #expect(found.first?.template == "main")
        #expect(found.first?.location == MustacheLocation(line: 2, column: 13))
    }

    @Test func aKeyOfAnInnerLevelIsUnknownOutsideIt() throws {
        // `title` belongs to the items, not to the page.
        #expect(try Self.unknown("{{title}}").map(\.name) == ["title"])
        #expect(try Self.unknown("{{footer.heading}}").map(\.name) == ["footer.heading"])
    }

    @Test func tagsInsideAnUnknownSectionAreNotReportedAgain() throws {
        #expect(try Self.unknown("{{#entries}}{{title}}{{anything}}{{/entries}}").map(\.name) == ["entries"])
    }

    @Test func partialsAreCheckedWithTheStackWhereTheyAreIncludedAndNamedInTheChain() throws {
        let found = try Self.unknown("{{#items}}\n{{>row}}\n{{/items}}", partials: ["row": "{{title}} {{heading}} {{colour}}"])
        #expect(found.map(\.name) == ["colour"])
        #expect(found.first?.template == "row")
        #expect(found.first?.templates == ["main", "row"])
        #expect(found.first?.location == MustacheLocation(line: 1, column: 23))
    }

    @Test func aMissingPartialIsReported() throws {
        let found = try Self.unknown("{{>nowhere}}")
        #expect(found.map(\.kind) == [.partial])
        #expect(found.map(\.name) == ["nowhere"])
    }

    @Test func recursivePartialsAreCheckedOnceAndTheCheckEnds() throws {
        let found = try Self.unknown("{{>self}}", partials: ["self": "{{#items}}{{>self}}{{/items}}{{#.}}{{>self}}{{/.}}{{nope}}"])
        #expect(found.map(\.name) == ["nope"])
    }

    @Test func aCustomDelimiterDoesNotHideAnUnknownKey() throws {
        #expect(try Self.unknown("{{=<% %>=}}<% heading %><% headline %>").map(\.name) == ["headline"])
    }
}

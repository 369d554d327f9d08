import ModelCompiler
import Testing

struct YAMLParserTests {
    static func parse(_ text: String) throws(YAMLError) -> YAMLNode {
        try YAMLParser().parseStream(text, path: "test.yaml")[0]
    }

    static func keys(_ node: YAMLNode?) -> [String] {
        node?.mappingEntries?.compactMap(\.key.scalarValue) ?? []
    }

    static func value(_ node: YAMLNode, _ key: String) -> YAMLNode? {
        node.mappingEntries?.first { $0.key.scalarValue == key }?.value
    }

    @Test func nodesCarryOneBasedLinesAndColumns() throws {
        let root = try Self.parse("a:\n  b: [1, two]\n")
        let b = try #require(Self.value(root, "a").flatMap { Self.value($0, "b") })
        #expect(b.location.line == 2 && b.location.column == 6)
        #expect(b.sequenceItems?[1].location.column == 10)
    }

    @Test func mergeKeysAddMissingKeysAndExplicitKeysWin() throws {
        let root = try Self.parse("base: &b { x: 1, y: 2 }\nderived:\n  <<: *b\n  y: 3\n")
        let derived = try #require(Self.value(root, "derived"))
        #expect(Self.keys(derived) == ["y", "x"])
        #expect(Self.value(derived, "y")?.scalarValue == "3")
    }

    @Test func mergeKeyAcceptsASequenceAndEarlierMappingsWin() throws {
        let root = try Self.parse("a: &a { k: a }\nb: &b { k: b, m: b }\nc:\n  <<: [*a, *b]\n")
        let c = try #require(Self.value(root, "c"))
        #expect(Self.value(c, "k")?.scalarValue == "a")
        #expect(Self.value(c, "m")?.scalarValue == "b")
    }

    @Test func mergeKeyOfAScalarIsAnError() {
        #expect(throws: YAMLError.self) { try Self.parse("a:\n  <<: 5\n") }
    }

    @Test func aliasNodesKeepTheAnchorsLocation() throws {
        let root = try Self.parse("a: &x hello\nb: *x\n")
        #expect(Self.value(root, "b")?.location.line == 1)
    }

    @Test func quotingDoesNotMakeKeysDifferent() {
        #expect(throws: YAMLError(message: "duplicate key 'name' in mapping", location: .init(file: "test.yaml", line: 2, column: 1))) {
            try Self.parse("name: a\n\"name\": b\n")
        }
    }

    @Test func coreSchemaResolvesPlainScalarsOnly() throws {
        let root = try Self.parse("a: true\nb: 'true'\nc: 0x1F\nd: -.inf\ne: ~\nf: ! 12\ng: !!str 12\nh: 1e3\n")
        #expect(Self.value(root, "a")?.coreValue == .bool(true))
        #expect(Self.value(root, "b")?.coreValue == .string("true"))
        #expect(Self.value(root, "c")?.coreValue == .int(31))
        #expect(Self.value(root, "d")?.coreValue == .float(-.infinity))
        #expect(Self.value(root, "e")?.coreValue == .null)
        #expect(Self.value(root, "f")?.coreValue == .string("12"))
        #expect(Self.value(root, "g")?.coreValue == .string("12"))
        #expect(Self.value(root, "h")?.coreValue == .float(1000))
    }

    @Test func multipleDocumentsAreReturnedInOrder() throws {
        let documents = try YAMLParser().parseStream("--- a\n--- b\n...\n", path: "t.yaml")
        #expect(documents.map(\.scalarValue) == ["a", "b"])
    }

    @Test func syntaxErrorsNameTheirPosition() {
        do {
            _ = try Self.parse("a: [1, 2\nb: 3\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.location.line >= 1)
            #expect(error.message.contains("flow sequence"))
        }
    }
}

import Foundation
import Testing

/// The getting-started article of the `ModelRuntime` documentation shows a program that CI builds
/// and runs: `trips-getting-started` in `Samples/Trips`. These tests keep the article's code and
/// the program the same text, so neither can change without the other.
struct GettingStartedArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let article = root.appendingPathComponent("Sources/ModelRuntime/ModelRuntime.docc/GettingStarted.md")
    static let program = root.appendingPathComponent("Samples/Trips/Sources/trips-getting-started/main.swift")

    /// The Swift code blocks of a Markdown text, each without its fences.
    static func swiftCodeBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theArticleShowsTheSampleProgramWhole() throws {
        let markdown = try String(contentsOf: Self.article, encoding: .utf8)
        let program = try String(contentsOf: Self.program, encoding: .utf8)
        #expect(
            Self.swiftCodeBlocks(in: markdown).contains(program),
            "copy Samples/Trips/Sources/trips-getting-started/main.swift into GettingStarted.md's \"Save and fetch\" code block")
    }

    @Test func codeBlocksAreFoundBetweenTheirFences() {
        let markdown = "Text\n\n```swift\nlet a = 1\n\nprint(a)\n```\n\n```\nnot swift\n```\n```swift\nb\n```\n"
        #expect(Self.swiftCodeBlocks(in: markdown) == ["let a = 1\n\nprint(a)\n", "b\n"])
    }
}

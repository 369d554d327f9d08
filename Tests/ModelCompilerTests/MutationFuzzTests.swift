import Foundation
import ModelCompiler
import Testing

/// Feeds thousands of deterministic random mutations of the sample model through validation.
/// The assertion is that the process survives every one of them and that every rejected input
/// gets a located error.
struct MutationFuzzTests {
    static let sample = Fixtures.samples.appendingPathComponent("Trips/Trips.modeld/Trips 2.model.yaml")

    static let fragments = [
        ":", "- ", "{", "}", "[", "]", ",", "&a ", "*a", "<<: *a", "!!str ", "? ", "|", ">", "#", "'", "\"", "\t", "\n",
        "  ", "~", "null", "true", "0x1F", "-1", "99999999999999999999", "String?", "Integer 16", "to: Trip",
        "inverse: stops", "toMany: true", "default: x", "parent: Trip", "\u{FEFF}", "\u{0}", "é", "%YAML 1.1\n", "---\n",
    ]

    enum Mutation: CaseIterable {
        case deleteLine, duplicateLine, swapLines, insertFragment, deleteCharacter, truncate, indent, dedent
    }

    static func mutate(_ lines: [String], using generator: inout SplitMix64) -> [String] {
        var lines = lines
        guard !lines.isEmpty else { return lines }
        let index = Int.random(in: 0..<lines.count, using: &generator)
        switch Mutation.allCases.randomElement(using: &generator)! {
        case .deleteLine: lines.remove(at: index)
        case .duplicateLine: lines.insert(lines[index], at: index)
        case .swapLines: lines.swapAt(index, Int.random(in: 0..<lines.count, using: &generator))
        case .insertFragment:
            var line = Array(lines[index])
            let position = Int.random(in: 0...line.count, using: &generator)
            line.insert(contentsOf: fragments.randomElement(using: &generator)!, at: position)
            lines[index] = String(line)
        case .deleteCharacter:
            var line = Array(lines[index])
            if !line.isEmpty { line.remove(at: Int.random(in: 0..<line.count, using: &generator)) }
            lines[index] = String(line)
        case .truncate: lines = Array(lines.prefix(index))
        case .indent: lines[index] = "  " + lines[index]
        case .dedent: lines[index] = String(lines[index].drop { $0 == " " })
        }
        return lines
    }

    @Test func threeThousandMutationsOfTheSampleNeverCrash() throws {
        let original = try String(contentsOf: Self.sample, encoding: .utf8).components(separatedBy: "\n")
        var generator = SplitMix64(seed: 2024)
        var rejected = 0
        for _ in 0..<3_000 {
            var lines = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) { lines = Self.mutate(lines, using: &generator) }
            let result = Pipeline.load(text: lines.joined(separator: "\n"), path: "mutant.model.yaml")
            if result.hasErrors {
                rejected += 1
                #expect(result.diagnostics.allSatisfy { $0.location.line >= 1 && $0.location.column >= 1 })
            }
        }
        // Most mutations break the model; if none did, the mutator would be broken.
        #expect(rejected > 1_000)
    }
}

import ModelSchema
import Testing

@testable import ModelCompiler

/// The version checks that used to be quadratic or cubic in the size of a model give the same
/// diagnostics as the straightforward algorithms they replace, here kept as references and
/// compared on random models. (Their speed is measured by Benchmarks/robustness.sh.)
struct NearLinearCheckTests {
    /// The original inheritance cycle search: walk every entity's parents, report a cycle the
    /// first time it is met.
    static func referenceInheritanceCycles(_ entities: [(name: String, parent: String?)]) -> [String] {
        var firstByName: [String: (name: String, parent: String?)] = [:]
        for entity in entities where firstByName[entity.name] == nil { firstByName[entity.name] = entity }
        var reported: Set<String> = []
        var messages: [String] = []
        for entity in entities {
            var seen = [entity.name]
            var current = entity
            while let parentName = current.parent, let parent = firstByName[parentName] {
                if let start = seen.firstIndex(of: parentName) {
                    let cycle = Array(seen[start...])
                    if reported.isDisjoint(with: cycle) {
                        reported.formUnion(cycle)
                        messages.append("inheritance cycle: \((cycle + [parentName]).joined(separator: " → "))")
                    }
                    break
                }
                seen.append(parentName)
                current = parent
            }
        }
        return messages
    }

    static func yaml(_ entities: [(name: String, parent: String?)]) -> String {
        var text = "entities:\n"
        for entity in entities {
            text += "  \(entity.name):\n    attributes:\n      value: String?\n"
            if let parent = entity.parent { text += "    parent: \(parent)\n" }
        }
        return text
    }

    /// Random parent links, unknown parents and entities sharing a name (checked directly, since
    /// YAML cannot hold two entities of one name).
    @Test func inheritanceCyclesMatchTheReferenceOnRandomModels() {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let count = Int.random(in: 1...9, using: &generator)
            let names = (0..<count).map { "E\($0)" } + ["Missing"]
            let entities: [(name: String, parent: String?)] = (0..<count).map { index in
                let name = Int.random(in: 0...5, using: &generator) == 0 ? names.randomElement(using: &generator)! : names[index]
                let parent = Int.random(in: 0...4, using: &generator) == 0 ? nil : names.randomElement(using: &generator)
                return (name, parent)
            }
            let version = ModelVersion(name: "V", entities: entities.map { Entity(name: $0.name, parentName: $0.parent) })
            let diagnostics = DiagnosticCollector()
            VersionChecker(version: version, locations: LocationTable(), diagnostics: diagnostics).check()
            let found = diagnostics.diagnostics.map(\.message).filter { $0.hasPrefix("inheritance cycle") }
            #expect(found == Self.referenceInheritanceCycles(entities), "\(entities)")
        }
    }

    @Test func aCycleOfFiveHundredEntitiesIsReportedOnce() {
        let count = 500
        let entities = (0..<count).map { (name: "E\($0)", parent: Optional("E\(($0 + 1) % count)")) }
        let result = Pipeline.load(text: Self.yaml(entities), path: "cycle.model.yaml")
        let cycles = result.diagnostics.filter { $0.message.hasPrefix("inheritance cycle") }
        #expect(cycles.count == 1)
        #expect(cycles.first?.message.hasSuffix("E499 → E0") == true)
    }

    @Test func aCompositeCycleOfTwoThousandIsReportedOnce() {
        var text = "entities:\n  Holder:\n    attributes:\n      c: { type: C0 }\ncomposites:\n"
        for index in 0..<2_000 { text += "  C\(index):\n    c\(index): C\((index + 1) % 2_000)\n" }
        let result = Pipeline.load(text: text, path: "composites.model.yaml")
        let cycles = result.diagnostics.filter { $0.message.hasPrefix("composite cycle") }
        #expect(cycles.count == 1)
        #expect(cycles.first?.message.hasPrefix("composite cycle: C0 → C1 → C2") == true)
    }

    /// The original suggestion: the smallest edit distance over all candidates, ties to the
    /// smallest name, accepted within a third of the shorter length.
    static func referenceClosest(to word: String, in candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = Suggestions.editDistance(word.lowercased(), candidate.lowercased())
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (candidate, distance)
            }
        }
        guard let best else { return nil }
        return best.distance <= max(1, min(word.count, best.name.count) / 3) ? best.name : nil
    }

    @Test func suggestionsMatchTheReferenceOnRandomNames() {
        var generator = SplitMix64(seed: 5)
        let alphabet = Array("abcAB1é")
        func word() -> String {
            String((0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for _ in 0..<500 {
            let candidates = (0..<Int.random(in: 0...12, using: &generator)).map { _ in word() }
            let query = word()
            #expect(Suggestions.closest(to: query, in: candidates) == Self.referenceClosest(to: query, in: candidates))
        }
    }

    @Test func editDistanceIsLevenshtein() {
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
        #expect(Suggestions.editDistance("", "abc") == 3)
        #expect(Suggestions.editDistance("Trip", "Trip") == 0)
    }
}

import Foundation
import ModelCompiler
import Testing

/// Each `.mapping.yaml` in `Golden/MappingDiagnostics` is a specification of what modelgen
/// reports for one kind of mistake in a mapping model of `Shop.modeld`: its diagnostics, as the
/// CLI prints them, must equal the `.diagnostics` file beside it (`valid` has none). Run with
/// `MODELGEN_UPDATE_GOLDEN=1` to rewrite the expected files, then review the diff.
struct MappingDiagnosticGoldenTests {
    static let directory = Fixtures.golden.appendingPathComponent("MappingDiagnostics")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".mapping.yaml") }.sorted()
    }

    static func renderedDiagnostics(for name: String) -> (text: String, compiled: Bool) {
        let prefix = directory.path + "/"
        let output = Pipeline.compileMappingModel(prefix + name, modelPath: prefix + "Shop.modeld", outputFolder: "out")
        let text = output.diagnostics.map { $0.description.replacingOccurrences(of: prefix, with: "") + "\n" }.joined()
        return (text, !output.files.isEmpty)
    }

    @Test func everyMistakeHasACase() {
        #expect(Self.caseNames.count >= 8)
    }

    @Test(arguments: caseNames)
    func diagnosticsMatchGoldenFile(_ name: String) throws {
        let (actual, compiled) = Self.renderedDiagnostics(for: name)
        let expectedURL = Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".mapping.yaml", with: ".diagnostics"))
        #expect(actual == (try Golden.expected(actual, at: expectedURL)))
        #expect(compiled == (name == "valid.mapping.yaml"))
    }
}

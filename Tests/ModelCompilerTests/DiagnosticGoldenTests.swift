import Foundation
import ModelCompiler
import Testing

/// Each model in `Golden/Diagnostics` is a specification of what modelgen reports for one kind
/// of mistake: its diagnostics, rendered as the CLI prints them, must equal the `.diagnostics`
/// file beside it. Run with `MODELGEN_UPDATE_GOLDEN=1` to rewrite the expected files, then
/// review the diff.
struct DiagnosticGoldenTests {
    static let directory = Fixtures.golden.appendingPathComponent("Diagnostics")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".model.yaml") || $0.hasSuffix(".modeld") }.sorted()
    }

    /// Diagnostics as `modelgen validate` prints them, with paths relative to the golden folder.
    static func renderedDiagnostics(for name: String) -> String {
        let prefix = directory.path + "/"
        let result = Pipeline.load(prefix + name)
        return result.diagnostics.map { $0.description.replacingOccurrences(of: prefix, with: "") + "\n" }.joined()
    }

    @Test func thereAreAtLeastFortyDiagnosticCases() {
        #expect(Self.caseNames.count >= 40)
    }

    @Test(arguments: caseNames)
    func diagnosticsMatchGoldenFile(_ name: String) throws {
        let actual = Self.renderedDiagnostics(for: name)
        let expectedURL = Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".model.yaml", with: "") + ".diagnostics")
        #expect(actual == (try Golden.expected(actual, at: expectedURL)))
    }
}

import Foundation
import ModelCompiler
import Testing

/// Generated sources name the version of `ModelRuntime`'s API for generated code they use: with
/// a runtime of another version, the build stops at that declaration, whose comment says what to
/// do, rather than at some member the generated classes call.
struct GeneratedCodeAPICheckTests {
    @Test func sourcesGeneratedForAnotherRuntimeStopAtTheVersionCheck() throws {
        try #require(
            FileManager.default.fileExists(
                atPath: GeneratedCodeTests.builtModules.appendingPathComponent("ModelRuntime.swiftmodule").path),
            "build the package first: no ModelRuntime module in \(GeneratedCodeTests.builtModules.path)")
        let folder = try GeneratedCodeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let current = "_ModelgenGeneratedCodeVersion\(ModelgenVersion.generatedCodeAPI)"
        let files = try GeneratedCodeTests.generate(GeneratedCodeTests.cases[1])
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(file.contents.contains("private struct GeneratedCodeAPICheck: ModelRuntime.\(current) {}"))
        // The same sources as a later modelgen would write them, for a runtime this one is not.
        let later = file.contents.replacingOccurrences(of: current, with: "_ModelgenGeneratedCodeVersion999")
        try later.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        let result = try Swiftc.run(
            ["-typecheck", "-swift-version", "6"] + GeneratedCodeTests.runtimeSearchPaths() + [file.name], in: folder)
        #expect(result.status != 0)
        let errors = result.output.split(separator: "\n").filter { $0.contains(".swift:") && $0.contains(" error: ") }
        #expect(errors.count == 1 && errors[0].contains("_ModelgenGeneratedCodeVersion999"), "\(errors.joined(separator: "\n"))")
    }
}

import Foundation
import Synchronization
import Testing

@testable import ModelgenCLI

/// Runs the CLI in-process and captures what it prints.
final class CapturedRun: Sendable {
    let status: Int32
    let output: String
    let errors: String

    init(_ arguments: [String]) {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            standardOutput: { text in out.withLock { $0 += text } },
            standardError: { text in err.withLock { $0 += text } })
        status = Modelgen.main(arguments: arguments, console: console)
        output = out.withLock { $0 }
        errors = err.withLock { $0 }
    }
}

struct CommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sample = root.appendingPathComponent("Samples/Trips/Trips.modeld").path
    static let golden = root.appendingPathComponent("Tests/ModelCompilerTests/Golden/Diagnostics")

    @Test func validateExitsZeroForTheSample() {
        let run = CapturedRun(["validate", Self.sample])
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("valid (2 versions, current 'Trips 2', 3 entities)\n"))
        #expect(run.errors.isEmpty)
    }

    @Test func validateExitsOneAndPrintsCompilerStyleDiagnostics() {
        let path = Self.golden.appendingPathComponent("missing-inverse.model.yaml").path
        let run = CapturedRun(["validate", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("\(path):4:7: error: relationship 'Trip.stops' has no inverse"))
        #expect(run.errors.hasSuffix("2 errors generated.\n"))
    }

    @Test func validateReportsEveryModelOfARun() {
        let bad = Self.golden.appendingPathComponent("unknown-parent.model.yaml").path
        let run = CapturedRun(["validate", "--quiet", Self.sample, bad])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("unknown parent entity 'Vehicl'"))
    }

    @Test func warningsFailOnlyWithWarningsAsErrors() {
        let path = Self.golden.appendingPathComponent("one-way-to-many-warning.model.yaml").path
        #expect(CapturedRun(["validate", path]).status == 0)
        let strict = CapturedRun(["validate", "--warnings-as-errors", path])
        #expect(strict.status == 1)
        #expect(strict.errors.hasSuffix("1 warning generated.\n"))
    }

    @Test func dumpPrintsTheSameBytesEveryTime() {
        let first = CapturedRun(["dump", Self.sample])
        let second = CapturedRun(["dump", Self.sample])
        #expect(first.status == 0)
        #expect(first.output == second.output)
        #expect(first.output.hasPrefix("{\n  \"currentVersion\": \"Trips 2\",\n"))
    }

    @Test func dumpPrintsNothingForAnInvalidModel() {
        let run = CapturedRun(["dump", Self.golden.appendingPathComponent("inheritance-cycle.model.yaml").path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
    }

    @Test func usageErrorsExitTwo() {
        #expect(CapturedRun([]).status == 2)
        #expect(CapturedRun(["validate"]).status == 2)
        #expect(CapturedRun(["dump", "a", "b"]).status == 2)
        let unknown = CapturedRun(["valdate", "x"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("error: unknown command 'valdate'; did you mean 'validate'?"))
    }

    @Test func helpAndVersionExitZero() {
        let help = CapturedRun(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("validate"))
        #expect(help.output.contains("dump"))
        let commandHelp = CapturedRun(["validate", "--help"])
        #expect(commandHelp.status == 0)
        #expect(commandHelp.output.hasPrefix("OVERVIEW: Check models"))
        let version = CapturedRun(["--version"])
        #expect(version.output == "modelgen \(Modelgen.version)\n")
    }
}

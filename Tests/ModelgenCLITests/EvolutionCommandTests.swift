import Foundation
import Testing

@testable import ModelgenCLI

/// `modelgen migrations` and `modelgen ship` from the command line.
struct EvolutionCommandTests {
    static let migrations = CommandTests.root.appendingPathComponent("Tests/ModelCompilerTests/Golden/Migrations")

    @Test func migrationsPrintsTheTripsPlanAsText() {
        let run = CapturedRun(["migrations", CommandTests.sample])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Trips 1 → Trips 2: lightweight migration (inferred)\n"))
        #expect(run.errors.isEmpty)
    }

    @Test func migrationsJSONEqualsTheGoldenPlan() throws {
        let model = Self.migrations.appendingPathComponent("attribute-type-changed.modeld").path
        let run = CapturedRun(["migrations", "--json", model])
        #expect(run.status == 0)
        let golden = try String(contentsOf: Self.migrations.appendingPathComponent("attribute-type-changed.plan.json"), encoding: .utf8)
        #expect(run.output == golden)
        #expect(run.errors.contains("warning: lightweight migration from 'V1' to 'V2' cannot be inferred"))
    }

    @Test func migrationsFromAndToSelectTheSteps() {
        let model = Self.migrations.appendingPathComponent("attribute-renamed-twice.modeld").path
        let second = CapturedRun(["migrations", "--from", "V2", model])
        #expect(second.output.hasPrefix("V2 → V3:"))
        #expect(!second.output.contains("V1 → V2"))
        let first = CapturedRun(["migrations", "--to", "V2", model])
        #expect(first.output.hasPrefix("V1 → V2:"))
        #expect(!first.output.contains("V2 → V3"))
        let none = CapturedRun(["migrations", "--from", "V2", "--to", "V2", model])
        #expect(none.status == 0)
        #expect(none.output.isEmpty)
    }

    @Test func migrationsRejectsUnknownAndReversedVersionsAsUsageErrors() {
        let model = Self.migrations.appendingPathComponent("attribute-renamed-twice.modeld").path
        let unknown = CapturedRun(["migrations", "--from", "V9", model])
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("Error: The value 'V9' is invalid for '--from <version>': the model has no version 'V9'"))
        let reversed = CapturedRun(["migrations", "--from", "V3", "--to", "V1", model])
        #expect(reversed.status == 2)
    }

    @Test func shipWritesTheFilesAndValidateThenPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-ship-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Trips.modeld")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CommandTests.sample).resolvingSymlinksInPath(), to: model)
        try FileManager.default.removeItem(at: model.appendingPathComponent("versions.lock"))
        try "versions: [Trips 1, Trips 2]\ncurrent: Trips 2\n".write(
            to: model.appendingPathComponent("versions.yaml"), atomically: true, encoding: .utf8)
        let run = CapturedRun(["ship", model.path, "Trips 1"])
        #expect(run.status == 0)
        #expect(run.output.contains("recorded 'Trips 1' as shipped: checksum Q9aSQ7MA4Ri+IeOcQkUNZF/p1HLQHgJRPjstBJtcyec="))
        let lock = try String(contentsOf: model.appendingPathComponent("versions.lock"), encoding: .utf8)
        let sampleLock = try String(
            contentsOf: URL(fileURLWithPath: CommandTests.sample).resolvingSymlinksInPath().appendingPathComponent("versions.lock"),
            encoding: .utf8)
        #expect(lock == sampleLock)
        #expect(CapturedRun(["validate", "--warnings-as-errors", model.path]).status == 0)
    }

    @Test func shipOfASingleFileModelIsAModelError() {
        let run = CapturedRun(["ship", CommandTests.golden.appendingPathComponent("version-history.modeld/V1.model.yaml").path])
        #expect(run.status == 1)
        #expect(run.errors.contains("single-file model"))
    }
}

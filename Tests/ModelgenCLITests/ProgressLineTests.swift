import Foundation
import ModelSchema
import Testing

@testable import ModelgenCLI

/// `compile` and `migrate-store` draw one updating progress line on standard error when it is a
/// terminal, and nothing when it is not or with `--quiet`; standard output never sees it.
struct ProgressLineTests {
    static let clear = "\r\u{1B}[K"

    static func compile(terminal: Bool, quiet: Bool = false) throws -> (run: CapturedRun, folder: URL) {
        let folder = try GenerateCommandTests.temporaryFolder()
        let run = CapturedRun(
            ["compile", CommandTests.sample, "--output", folder.path] + (quiet ? ["--quiet"] : []), terminal: terminal)
        return (run, folder)
    }

    @Test func compileOnATerminalDrawsStepsOnStandardErrorAndClearsTheLine() throws {
        let (run, folder) = try Self.compile(terminal: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errors.hasPrefix(Self.clear + "[1/8] reading 'Trips 1'"))
        #expect(run.errors.contains(Self.clear + "[8/8] compiling VersionInfo.plist"))
        #expect(run.errors.hasSuffix(Self.clear))
        #expect(run.output == "wrote \(folder.appendingPathComponent("Trips.momd").path)\n")
    }

    @Test func compileWithQuietDrawsNothing() throws {
        let (run, folder) = try Self.compile(terminal: true, quiet: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
    }

    @Test func compileNotOnATerminalDrawsNothing() throws {
        let (run, folder) = try Self.compile(terminal: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
        #expect(run.output == "wrote \(folder.appendingPathComponent("Trips.momd").path)\n")
    }

    @Test func migrateStoreOnATerminalShowsStepsAndRowsCopied() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try MigrateStoreCommandTests.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let model = MigrateStoreCommandTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"], terminal: true)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.hasPrefix(Self.clear + "[0/4] copying the store"))
        #expect(run.errors.contains("[4/4] migrated"))
        #expect(run.errors.hasSuffix(Self.clear))
        #expect(run.output.hasPrefix("migrated '\(store)'"))
    }

    @Test func migrateStoreWithQuietDrawsNothing() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try MigrateStoreCommandTests.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let model = MigrateStoreCommandTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3", "--quiet"], terminal: true)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty)
    }

    @Test func theLineNamesTheStepAndTheRowsCopied() {
        #expect(ProgressLine.text(.init(completed: 2, total: 4, step: "migrating 'A' to 'B'")) == "[2/4] migrating 'A' to 'B'")
        #expect(
            ProgressLine.text(.init(completed: 2, total: 4, step: "migrating 'A' to 'B'", rowsCopied: 1200))
                == "[2/4] migrating 'A' to 'B', 1200 rows copied")
        #expect(
            ProgressLine.text(.init(completed: 2, total: 4, step: "migrating 'A' to 'B'", stepFraction: 0.4666))
                == "[2/4] migrating 'A' to 'B', 46%")
    }
}

import Foundation
import ModelgenMigrationEngine
import Synchronization
import Testing

@testable import ModelgenCLI

/// Runs the CLI in-process and captures what it prints.
final class CapturedRun: Sendable {
    let status: Int32
    let output: String
    let errors: String

    /// `terminal`: the run's standard error is a terminal, where progress lines are drawn.
    /// `migrator`: the `modelgen` executable's by default; nil for the plugins' tool, which links
    /// no runtime.
    init(_ arguments: [String], terminal: Bool = false, migrator: (any MappedStoreMigrating)? = RuntimeStoreMigrator()) {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            standardOutput: { text in out.withLock { $0 += text } },
            standardError: { text in err.withLock { $0 += text } }, standardErrorIsTerminal: terminal, mappedStoreMigrator: migrator)
        status = Modelgen.main(arguments: arguments, console: console)
        output = out.withLock { $0 }
        errors = err.withLock { $0 }
    }
}

struct CommandTests {
    static let root = Fixtures.packageRoot
    static let sample = Fixtures.tripsModel.path
    static let golden = Fixtures.golden.appendingPathComponent("Diagnostics")

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
        #expect(unknown.errors.hasPrefix("Error: Unknown subcommand 'valdate'. Did you mean 'validate'?\n"))
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
        let helpForCommand = CapturedRun(["help", "generate"])
        #expect(helpForCommand.status == 0)
        #expect(helpForCommand.output.hasPrefix("OVERVIEW: "))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() {
        let run = CapturedRun(["help", "nosuch"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: Unknown subcommand 'nosuch'\n"))
        let typo = CapturedRun(["help", "valdate"])
        #expect(typo.status == 2)
        #expect(typo.errors.contains("Did you mean 'validate'?"))
        #expect(CapturedRun(["help", "validate", "extra"]).status == 2)
        #expect(CapturedRun(["help", "--help"]).status == 0)
    }

    @Test func emptyOutputIsAUsageError() {
        let run = CapturedRun(["generate", Self.sample, "--output="])
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("Error: The value '' is invalid for '--output <dir>': an empty value is not allowed\n"))
    }
}

struct CoreDataCommandTests {
    static let coredata = CommandTests.root.appendingPathComponent("Tests/Fixtures/coredata")

    @Test func checksumJSONHasTheDocumentedShape() {
        let run = CapturedRun([
            "checksum", "--json", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd").path,
        ])
        #expect(run.status == 0)
        #expect(run.output.contains("\"currentVersion\": \"SampleModel3\""))
        #expect(run.output.contains("\"checksum\": \"u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=\""))
        #expect(run.output.contains("\"User\": \"6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798\""))
    }

    @Test func checksumOfTheXcodeModelEqualsTheCompiledBundle() {
        let model = CapturedRun([
            "checksum", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld").path,
        ])
        let bundle = CapturedRun(["checksum", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd").path])
        #expect(model.status == 0 && !model.output.isEmpty)
        #expect(model.output == bundle.output)
    }

    @Test func inspectStoreNamesTheWritingVersion() {
        let folder = Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3")
        let run = CapturedRun([
            "inspect-store", folder.appendingPathComponent("SampleModel3_V1.sqlite").path, "--model",
            folder.appendingPathComponent("SampleModel3.xcdatamodeld").path,
        ])
        #expect(run.status == 0)
        #expect(run.output.contains("store UUID: 5443A63D-EF0E-44C2-B216-AE8B5ED2FD09"))
        #expect(run.output.contains("framework version: 1344"))
        #expect(run.output.hasSuffix("written by model version: SampleModel3\n"))
    }

    @Test func inspectStoreExplainsAMismatch() {
        let run = CapturedRun([
            "inspect-store", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite").path, "--model",
            CommandTests.sample,
        ])
        #expect(run.status == 1)
        #expect(run.output.contains("no model version matches; closest is"))
        #expect(run.output.contains("User: only in the store"))
    }

    @Test func inspectStoreRejectsWhatIsNotAStore() {
        let missing = CapturedRun(["inspect-store", "missing.sqlite"])
        #expect(missing.status == 1)
        #expect(missing.errors == "missing.sqlite: error: no such file\n")
        let notSQLite = CapturedRun(["inspect-store", CommandTests.sample + "/versions.yaml"])
        #expect(notSQLite.errors.hasSuffix("error: not a SQLite database\n"))
    }

    /// A FIFO would block a reader forever: it is refused up front with exit status 1.
    @Test func inspectStoreRefusesAFIFO() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("store.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = CapturedRun(["inspect-store", fifo])
        #expect(run.status == 1)
        #expect(run.errors.contains("is not a regular file"))
    }

    @Test func importThenCompileWritesABundle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = CapturedRun([
            "import", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path, "--output",
            folder.path,
        ])
        #expect(imported.status == 0)
        let compiled = CapturedRun(["compile", folder.appendingPathComponent("SampleModel.modeld").path, "--output", folder.path])
        #expect(compiled.status == 0)
        let checksum = CapturedRun(["checksum", folder.appendingPathComponent("SampleModel.momd").path])
        let original = CapturedRun([
            "checksum", Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path,
        ])
        #expect(checksum.output == original.output)
    }

    @Test func outputOptionsAreRequired() {
        #expect(CapturedRun(["compile", CommandTests.sample]).status == 2)
        #expect(CapturedRun(["import", "x.xcdatamodeld"]).status == 2)
        let export = CapturedRun(["export", CommandTests.sample, "--output", "x"])
        #expect(export.status == 2)
        #expect(
            export.errors.hasPrefix(
                "Error: The value 'x' is invalid for '--output <X.xcdatamodeld>': it must name a folder ending in .xcdatamodeld\n"))
    }
}

struct GenerateCommandTests {
    static func temporaryFolder() throws -> URL {
        try Fixtures.temporaryFolder("generate")
    }

    /// A copy of the sample model that a test may edit.
    static func copyOfSample(in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("Trips.modeld")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CommandTests.sample).resolvingSymlinksInPath(), to: copy)
        return copy
    }

    @Test func checkPassesRightAfterGenerating() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("Generated").path
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output]).status == 0)
        let check = CapturedRun(["generate", CommandTests.sample, "--output", output, "--check"])
        #expect(check.status == 0)
        #expect(check.errors.isEmpty)
    }

    @Test func checkDetectsAHandEdit() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("Generated")
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output.path]).status == 0)
        let file = output.appendingPathComponent("Trip+CoreData.swift")
        try (try String(contentsOf: file, encoding: .utf8) + "// edited\n").write(to: file, atomically: true, encoding: .utf8)
        let check = CapturedRun(["generate", CommandTests.sample, "--output", output.path, "--check"])
        #expect(check.status == 1)
        #expect(check.errors.contains("Trip+CoreData.swift: out of date"))
        #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix("// edited\n"), "--check writes nothing")
    }

    @Test func checkDetectsAModelChange() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.copyOfSample(in: folder)
        let output = folder.appendingPathComponent("Generated").path
        #expect(CapturedRun(["generate", model.path, "--output", output]).status == 0)
        let version = model.appendingPathComponent("Trips 2.model.yaml")
        let text = try String(contentsOf: version, encoding: .utf8).replacingOccurrences(
            of: "      notes: String?\n", with: "      notes: String?\n      rank: Integer 32?\n")
        try text.write(to: version, atomically: true, encoding: .utf8)
        let check = CapturedRun(["generate", model.path, "--output", output, "--check"])
        #expect(check.status == 1)
        #expect(check.errors.contains("Stop+CoreData.swift: out of date"))
    }

    @Test func staleFilesOfThisModelAreRemovedAndOtherFilesKept() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let stale = output.appendingPathComponent("Removed+CoreData.swift")
        try "// Generated by modelgen 0.0.1 from Trips.modeld (model checksum abc=). Do not edit.\n".write(
            to: stale, atomically: true, encoding: .utf8)
        let otherModel = output.appendingPathComponent("Note+CoreData.swift")
        try "// Generated by modelgen 0.0.1 from Notes.modeld (model checksum abc=). Do not edit.\n".write(
            to: otherModel, atomically: true, encoding: .utf8)
        let handWritten = output.appendingPathComponent("Trip+Extras.swift")
        try "extension Trip {}\n".write(to: handWritten, atomically: true, encoding: .utf8)
        let check = CapturedRun(["generate", CommandTests.sample, "--output", output.path, "--check"])
        #expect(check.errors.contains("Removed+CoreData.swift: no longer generated"))
        #expect(!check.errors.contains("Note+CoreData.swift"))
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: otherModel.path))
        #expect(FileManager.default.fileExists(atPath: handWritten.path))
    }

    @Test func unchangedFilesAreNotRewritten() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("Generated")
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output.path]).status == 0)
        let file = output.appendingPathComponent("Trips+Model.swift").path
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file)
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output.path]).status == 0)
        let date = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        #expect(date == past)
    }

    @Test func templatesFolderOverridesADefaultTemplate() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "// {{generatedNotice}}\n// Property of Example Corp.\n".write(
            to: templates.appendingPathComponent("header.mustache"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Generated")
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", output.path, "--templates", templates.path]).status == 0)
        let text = try String(contentsOf: output.appendingPathComponent("Trip+CoreData.swift"), encoding: .utf8)
        #expect(text.contains("// Property of Example Corp.\n"))
    }

    @Test func unknownTemplateNamesAndOptionValuesAreRejected() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "x".write(to: folder.appendingPathComponent("entitty.mustache"), atomically: true, encoding: .utf8)
        let run = CapturedRun(["generate", CommandTests.sample, "--output", folder.path, "--templates", folder.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("unknown template 'entitty.mustache'"))
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", folder.path, "--access", "open"]).status == 2)
        #expect(CapturedRun(["generate", CommandTests.sample, "--output", folder.path, "--layout", "flat"]).status == 2)
    }
}

struct ConfigurationFileTests {
    @Test func modelgenYAMLBesideTheModelSetsOptionsAndTheCommandLineWins() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try GenerateCommandTests.copyOfSample(in: folder)
        try "access: internal\nclassPrefix: CD\nimports: [Combine]\n".write(
            to: folder.appendingPathComponent("modelgen.yaml"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Generated")
        #expect(CapturedRun(["generate", model.path, "--output", output.path]).status == 0)
        let trip = try String(contentsOf: output.appendingPathComponent("CDTrip+CoreData.swift"), encoding: .utf8)
        #expect(trip.contains("@objc(CDTrip)\ninternal class CDTrip: NSManagedObject {"))
        #expect(trip.contains("import Combine\n"))
        let overridden = folder.appendingPathComponent("Overridden")
        #expect(CapturedRun(["generate", model.path, "--output", overridden.path, "--access", "public", "--class-prefix", ""]).status == 0)
        let plain = try String(contentsOf: overridden.appendingPathComponent("Trip+CoreData.swift"), encoding: .utf8)
        #expect(plain.contains("public class Trip: NSManagedObject {"))
    }

    @Test func compiledClassNamesFollowTheClassPrefix() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(CapturedRun(["build", CommandTests.sample, "--output", folder.path, "--class-prefix", "CD"]).status == 0)
        let mom = try Data(contentsOf: folder.appendingPathComponent("Trips.momd/Trips 2.mom"))
        #expect(String(decoding: mom, as: UTF8.self).contains("CDTrip"))
        let source = try String(contentsOf: folder.appendingPathComponent("Trips+Model.swift"), encoding: .utf8)
        #expect(source.contains("public class CDTrip: NSManagedObject {"))
    }

    @Test func theModelBundleOptionAddsTheOnceLoadedModelAndTheOneLineContainer() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Trips+Model.swift")
        #expect(CapturedRun(["build", CommandTests.sample, "--output", folder.path]).status == 0)
        let plain = try String(contentsOf: source, encoding: .utf8)
        #expect(plain.contains("public static func makeContainer(managedObjectModel model: NSManagedObjectModel, name: String = name)"))
        #expect(!plain.contains("static let managedObjectModel") && !plain.contains("(in: Bundle.module)"))
        #expect(CapturedRun(["build", CommandTests.sample, "--output", folder.path, "--model-bundle", "module"]).status == 0)
        let bundled = try String(contentsOf: source, encoding: .utf8)
        #expect(bundled.contains("nonisolated(unsafe) public static let managedObjectModel: NSManagedObjectModel"))
        #expect(bundled.contains("managedObjectModel(in: Bundle.module)"))
        #expect(bundled.contains("public static func makeContainer(name: String = name) -> NSPersistentContainer"))
        let wrong = CapturedRun(["build", CommandTests.sample, "--output", folder.path, "--model-bundle", "app"])
        #expect(wrong.status == 2)
        #expect(
            wrong.errors.hasPrefix(
                "Error: The value 'app' is invalid for '--model-bundle <bundle>'. Please provide one of 'module' or 'main'.\n"))
    }

    @Test func aBrokenConfigurationIsReportedWithItsLocation() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("modelgen.yaml")
        try "acess: public\nlayout: flat\n".write(to: config, atomically: true, encoding: .utf8)
        let run = CapturedRun(["generate", CommandTests.sample, "--output", folder.path, "--config", config.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("modelgen.yaml:1:1: error: unknown key 'acess' in the configuration; did you mean 'access'?"))
        #expect(run.errors.contains("modelgen.yaml:2:9: error: 'layout' must be entity or model, not 'flat'"))
    }
}

struct CheckedInSampleTests {
    static let notes = CommandTests.root.appendingPathComponent("Samples/CheckedIn/Sources/Notes")

    /// Changing a template or the generator without regenerating the checked-in sample fails here
    /// (and in CI): run `swift package --allow-writing-to-package-directory generate-model-sources`
    /// in Samples/CheckedIn.
    @Test func checkedInSampleIsUpToDate() {
        let run = CapturedRun([
            "generate", Self.notes.appendingPathComponent("Notes.model.yaml").path, "--output",
            Self.notes.appendingPathComponent("Generated").path, "--check",
        ])
        #expect(run.status == 0, "\(run.errors)")
    }
}

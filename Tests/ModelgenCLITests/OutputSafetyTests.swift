import Foundation
import Testing

@testable import ModelgenCLI

/// Crafted names never make a command read or write outside the folders the user named, and
/// a model whose generated code would not compile is an error before anything is written.
struct OutputSafetyTests {
    /// A scratch folder with the model at `a/b/` and outputs under `a/b/out`, so that a path
    /// escaping the output folder by up to three levels still lands inside the scratch folder
    /// where the test can see it.
    final class Scratch {
        let root: URL
        var base: String { root.appendingPathComponent("a/b").path }
        var output: String { base + "/out" }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-safety-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        @discardableResult
        func write(_ relative: String, _ text: String) throws -> String {
            let file = URL(fileURLWithPath: base).appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }

        /// Every file in the scratch folder, relative to it.
        var files: Set<String> {
            var result: Set<String> = []
            let enumerator = FileManager.default.enumerator(atPath: root.path)
            while let next = enumerator?.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: root.appendingPathComponent(next).path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    result.insert(next)
                }
            }
            return result
        }
    }

    static let tripText = "entities:\n  Trip:\n    attributes:\n      name: String\n"

    @Test func aVersionNamedWithAPathIsALocatedErrorAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let model = try scratch.write("Trips.modeld/versions.yaml", "versions: [\"../../evil\"]\ncurrent: \"../../evil\"\n")
        // Not a model: were it read, its error would name it.
        try scratch.write("Trips.modeld/../../evil.model.yaml", "entities: [unclosed\n")
        let before = scratch.files
        let validate = CapturedRun(["validate", (model as NSString).deletingLastPathComponent])
        #expect(validate.status == 1)
        #expect(!validate.errors.contains("evil.model.yaml"))
        #expect(
            validate.errors.contains(
                "versions.yaml:1:12: error: version name '../../evil' is not a file name: a file name cannot contain '/'"))
        let modelFolder = (model as NSString).deletingLastPathComponent
        #expect(CapturedRun(["compile", modelFolder, "--output", scratch.output]).status == 1)
        #expect(CapturedRun(["build", modelFolder, "--output", scratch.output]).status == 1)
        #expect(CapturedRun(["export", modelFolder, "--output", scratch.output + "/T.xcdatamodeld"]).status == 1)
        #expect(scratch.files == before)
    }

    @Test func emptyVersionNamesAndNamesWithSlashesAreLocatedErrors() throws {
        let scratch = try Scratch()
        try scratch.write("Trips.modeld/versions.yaml", "versions:\n  - \"\"\n  - a/b\ncurrent: a/b\n")
        let run = CapturedRun(["validate", scratch.base + "/Trips.modeld"])
        #expect(run.status == 1)
        #expect(run.errors.contains("versions.yaml:2:5: error: a version name cannot be empty"))
        #expect(run.errors.contains("versions.yaml:3:5: error: version name 'a/b' is not a file name: a file name cannot contain '/'"))
    }

    @Test func anXcodeClassNameWithAPathIsAnErrorAndNothingIsWritten() throws {
        let scratch = try Scratch()
        try scratch.write(
            "X.xcdatamodeld/X.xcdatamodel/contents",
            #"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel"><entity name="Trip" representedClassName="../../../x"/></model>"#
        )
        let before = scratch.files
        let run = CapturedRun(["generate", scratch.base + "/X.xcdatamodeld", "--output", scratch.output])
        #expect(run.status == 1)
        #expect(run.errors.contains("error: class name '../../../x' of entity 'Trip' cannot be named in Swift"))
        #expect(scratch.files == before)
    }

    @Test func aModelFileNameWithALineBreakIsAnErrorAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let model = try scratch.write("Trips\nimport Evil.model.yaml", Self.tripText)
        let before = scratch.files
        let run = CapturedRun(["generate", model, "--output", scratch.output])
        #expect(run.status == 1)
        #expect(run.errors.contains("is not a file name: a file name cannot contain control characters"))
        #expect(scratch.files == before)
    }

    @Test func theClassPrefixIsAppliedBeforeTheChecks() throws {
        let scratch = try Scratch()
        let model = try scratch.write(
            "Trips.model.yaml", Self.tripText + "  Journey:\n    class: CDTrip\n    attributes:\n      name: String\n")
        let before = scratch.files
        let run = CapturedRun(["generate", model, "--output", scratch.output, "--class-prefix", "CD"])
        #expect(run.status == 1)
        #expect(run.errors.contains("type name 'CDTrip' is used twice: by the class of entity 'Trip' and by the class of entity 'Journey'"))
        #expect(scratch.files == before)
        #expect(CapturedRun(["generate", model, "--output", scratch.output, "--class-prefix", "App"]).status == 0)
        #expect(scratch.files.contains("a/b/out/AppTrip+CoreData.swift"))
        #expect(scratch.files.contains("a/b/out/CDTrip+CoreData.swift"))
    }

    @Test func aClassPrefixOnTheCommandLineMustStartAnIdentifier() throws {
        let scratch = try Scratch()
        let model = try scratch.write("Trips.model.yaml", Self.tripText)
        for command in ["generate", "build", "compile"] {
            let run = CapturedRun([command, model, "--output", scratch.output, "--class-prefix", "../"])
            #expect(run.status == 2)
            #expect(
                run.errors.hasPrefix(
                    "Error: The value '../' is invalid for '--class-prefix <prefix>': '../' is not the start of a Swift identifier\n"))
        }
        #expect(!scratch.files.contains { $0.hasPrefix("a/b/out") || !$0.hasPrefix("a/b/") })
    }

    @Test func importedModulesAreModuleNames() throws {
        let scratch = try Scratch()
        let model = try scratch.write("Trips.model.yaml", Self.tripText)
        let injected = CapturedRun(["generate", model, "--output", scratch.output, "--import", "Foundation\nlet injected = 1"])
        #expect(injected.status == 2)
        #expect(injected.errors.contains("is not a module name"))
        try scratch.write("modelgen.yaml", "imports: [\"Kit\\nlet injected = 1\"]\n")
        let configured = CapturedRun(["generate", model, "--output", scratch.output])
        #expect(configured.status == 1)
        #expect(configured.errors.contains("modelgen.yaml:1:11: error: 'imports': 'Kit\nlet injected = 1' is not a module name"))
        try scratch.write("modelgen.yaml", "imports: [MyKit, Darwin.C]\n")
        #expect(CapturedRun(["generate", model, "--output", scratch.output]).status == 0)
        let source = try String(contentsOfFile: scratch.output + "/Trip+CoreData.swift", encoding: .utf8)
        #expect(source.contains("import MyKit\n") && source.contains("import Darwin.C\n"))
    }

    @Test func generateRemovesOnlyFilesItsOwnModelGenerated() throws {
        let scratch = try Scratch()
        let trips = try scratch.write("Trips.model.yaml", Self.tripText + "  Stop:\n    attributes:\n      name: String\n")
        let notes = try scratch.write("Notes.model.yaml", "entities:\n  Note:\n    attributes:\n      text: String\n")
        #expect(CapturedRun(["generate", trips, "--output", scratch.output]).status == 0)
        #expect(CapturedRun(["generate", notes, "--output", scratch.output]).status == 0)
        try scratch.write("Trips.model.yaml", Self.tripText)
        #expect(
            CapturedRun(["generate", trips, "--output", scratch.output, "--check"]).errors.contains(
                "Stop+CoreData.swift: no longer generated"))
        #expect(CapturedRun(["generate", trips, "--output", scratch.output]).status == 0)
        #expect(
            Set(scratch.files.filter { $0.hasPrefix("a/b/out/") }) == [
                "a/b/out/Trip+CoreData.swift", "a/b/out/Trips+Model.swift", "a/b/out/Note+CoreData.swift", "a/b/out/Notes+Model.swift",
            ])
        #expect(CapturedRun(["generate", notes, "--output", scratch.output, "--check"]).status == 0)
    }
}

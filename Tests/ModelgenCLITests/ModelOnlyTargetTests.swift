import Foundation
import Testing

/// `modelgen validate` on a model in a SwiftPM target folder without a Swift file says what to
/// add: SwiftPM drops such a target before the build plugin runs, so no plugin can say it.
struct ModelOnlyTargetTests {
    static func package(withSwiftFile: Bool) throws -> URL {
        let root = try GenerateCommandTests.temporaryFolder()
        let target = root.appendingPathComponent("Sources/Trips")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let model = "entities:\n  Trip:\n    attributes:\n      name: String\n"
        try model.write(to: target.appendingPathComponent("Trips.model.yaml"), atomically: true, encoding: .utf8)
        if withSwiftFile { try Data().write(to: target.appendingPathComponent("Trips.swift")) }
        return root
    }

    @Test func aModelWithoutASwiftFileBesideItGetsAWarningNamingTheFileToAdd() throws {
        let root = try Self.package(withSwiftFile: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("Sources/Trips/Trips.model.yaml").path
        let run = CapturedRun(["validate", path])
        #expect(run.status == 0)
        #expect(run.errors.contains("\(path):1:1: warning: target 'Trips' has no Swift file"))
        #expect(run.errors.contains("add one beside the model, such as '\(root.path)/Sources/Trips/Trips.swift'"))
        #expect(CapturedRun(["validate", path, "--warnings-as-errors"]).status == 1)
    }

    @Test func aTargetWithASwiftFileGetsNoWarning() throws {
        let root = try Self.package(withSwiftFile: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let run = CapturedRun(["validate", root.appendingPathComponent("Sources/Trips/Trips.model.yaml").path])
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
    }

    @Test func aModelOutsideATargetFolderGetsNoWarning() {
        let run = CapturedRun(["validate", CommandTests.sample])
        #expect(run.errors.isEmpty)
    }
}

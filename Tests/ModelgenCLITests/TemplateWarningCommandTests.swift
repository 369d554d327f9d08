import Foundation
import Testing

/// A template in the `--templates` folder that names a key the template context lacks: the
/// command warns, naming the key and where it is, and still writes the files.
struct TemplateWarningCommandTests {
    @Test func anUnknownKeyInAUserTemplateIsAWarningNotAFailure() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "// {{generatedNotice}}\n// {{copyrightHolder}}\n".write(
            to: templates.appendingPathComponent("header.mustache"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Generated")
        let run = CapturedRun(["generate", CommandTests.sample, "--output", output.path, "--templates", templates.path])
        #expect(run.status == 0)
        #expect(run.errors.contains("header.mustache:2:4: warning: 'copyrightHolder' is not a key of the template context"))
        #expect(run.errors.components(separatedBy: "copyrightHolder").count == 2, "one warning: \(run.errors)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("Trip+CoreData.swift").path))
    }
}

import Foundation
import Testing

@testable import ModelCompiler

/// The templates compiled into the binary are exactly the files in `Templates/`.
struct EmbeddedTemplatesTests {
    @Test func embeddedTemplatesMatchTheTemplatesFolder() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Templates")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".mustache") {
            files[String(name.dropLast(".mustache".count))] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(
            EmbeddedTemplates.sources == files,
            "run: swift run TemplateEmbedder Sources/ModelCompiler/Backends/Swift/EmbeddedTemplates.swift Templates/*.mustache")
    }
}

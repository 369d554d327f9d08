import Foundation
import PackagePlugin

/// Compiles the default templates in `Templates/` into the module as Swift string literals, so
/// the `modelgen` binary carries them and works when copied alone to another machine.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output])
        ]
    }
}

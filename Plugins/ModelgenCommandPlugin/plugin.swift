import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-model-sources [--target X]`:
/// writes, for every model of the chosen targets (all by default), the same sources
/// `modelgen generate` writes into `<target>/Generated/`, and the compiled `<Name>.momd` into the
/// target folder, for teams that check generated code in.
@main
struct ModelgenCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let tool = try context.tool(named: "modelgen-plugin-tool").url
        let targets = context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { targetNames.isEmpty || targetNames.contains($0.name) }
        if let unknown = targetNames.first(where: { name in !targets.contains { $0.name == name } }) {
            Diagnostics.error("no source target named '\(unknown)'")
            return
        }
        for target in targets {
            // Read the folder itself: a target without the build plugin excludes its model files.
            let enumerator = FileManager.default.enumerator(at: target.directoryURL, includingPropertiesForKeys: nil)
            let files = (enumerator?.allObjects as? [URL] ?? []).filter { !$0.pathComponents.contains(".build") }
            // Found as the build plugin finds them (`ModelBuildPlan.swift` is the same file).
            let models = ModelBuildPlan.models(in: files)
            // Only the first model declares the module-wide query typealiases (see ModelgenPlugin).
            for (position, model) in models.enumerated() {
                let extra = ModelBuildPlan.configuration(for: model, targetDirectory: target.directoryURL).arguments
                let aliases = position > 0 ? ["--no-query-typealiases"] : []
                // modelgen says which files it wrote, or that they were up to date.
                print("\(target.name): model \(model.name)")
                try run(
                    tool,
                    ["generate", model.url.path, "--output", target.directoryURL.appendingPathComponent("Generated").path] + extra
                        + aliases)
                try run(tool, ["compile", model.url.path, "--output", target.directoryURL.path] + extra)
            }
        }
    }

    func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("modelgen \(arguments.first ?? "") failed with status \(process.terminationStatus)")
        }
    }
}

import Foundation
import PackagePlugin

/// Compiles the Core Data models of a target during the build: for each `<Name>.model.yaml` file
/// and `<Name>.modeld` folder it runs `modelgen build`, which writes `<Name>+Model.swift`
/// (compiled into the target) and `<Name>.momd` (a resource of the target, found through
/// `Bundle.module`). The output names depend only on the model's name, so they are declared up
/// front; the build system reruns the command only when a model file, the configuration or the
/// `modelgen` binary changes.
@main
struct ModelgenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        return try ModelBuildCommands.commands(
            files: target.sourceFiles.map(\.url), targetDirectory: target.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL, tool: try context.tool(named: "modelgen").url, modelBundle: "module")
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ModelgenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try ModelBuildCommands.commands(
            files: target.inputFiles.map(\.url), targetDirectory: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL, tool: try context.tool(named: "modelgen").url, modelBundle: "main")
    }
}
#endif

enum ModelBuildCommands {
    struct ModelSource {
        let url: URL
        let name: String
        var inputs: [URL]
    }

    /// Models among a target's files: `.model.yaml` files outside `.modeld` folders, and the
    /// `.modeld` folders (with every file in them as inputs).
    static func models(in files: [URL]) -> [ModelSource] {
        var folders: [String: ModelSource] = [:]
        var singles: [ModelSource] = []
        for file in files {
            let components = file.pathComponents
            if let index = components.lastIndex(where: { $0.hasSuffix(".modeld") }) {
                let folder = URL(fileURLWithPath: components[...index].joined(separator: "/").replacingOccurrences(of: "//", with: "/"))
                let name = String(components[index].dropLast(".modeld".count))
                folders[folder.path, default: ModelSource(url: folder, name: name, inputs: [])].inputs.append(file)
            } else if file.lastPathComponent.hasSuffix(".model.yaml") {
                singles.append(ModelSource(url: file, name: String(file.lastPathComponent.dropLast(".model.yaml".count)), inputs: [file]))
            }
        }
        return (singles + folders.values).sorted { $0.url.path < $1.url.path }
    }

    /// `modelBundle` is where the compiled model is at run time: `module` (`Bundle.module`) in a
    /// package target, `main` in an Xcode project's app.
    static func commands(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL, modelBundle: String) throws -> [Command] {
        let targetConfiguration = targetDirectory.appendingPathComponent("modelgen.yaml")
        let hasTargetConfiguration = FileManager.default.fileExists(atPath: targetConfiguration.path)
        return models(in: files).map { model in
            let output = workDirectory.appendingPathComponent(model.name)
            var arguments = ["build", model.url.path, "--output", output.path, "--model-bundle", modelBundle]
            var inputs = model.inputs + [tool]
            let beside = model.url.deletingLastPathComponent().appendingPathComponent("modelgen.yaml")
            if FileManager.default.fileExists(atPath: beside.path) {
                inputs.append(beside)
            } else if hasTargetConfiguration {
                arguments += ["--config", targetConfiguration.path]
                inputs.append(targetConfiguration)
            }
            return .buildCommand(
                displayName: "Compiling Core Data model \(model.name)",
                executable: tool,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [
                    output.appendingPathComponent("\(model.name)+Model.swift"), output.appendingPathComponent("\(model.name).momd"),
                ])
        }
    }
}

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
            workDirectory: context.pluginWorkDirectoryURL, tool: try context.tool(named: "modelgen-plugin-tool").url, modelBundle: "module")
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ModelgenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try ModelBuildCommands.commands(
            files: target.inputFiles.map(\.url), targetDirectory: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL, tool: try context.tool(named: "modelgen-plugin-tool").url, modelBundle: "main")
    }
}
#endif

enum ModelBuildCommands {
    /// `modelBundle` is where the compiled model is at run time: `module` (`Bundle.module`) in a
    /// package target, `main` in an Xcode project's app.
    static func commands(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL, modelBundle: String) throws -> [Command] {
        ModelBuildPlan.steps(
            files: files, targetDirectory: targetDirectory, workDirectory: workDirectory, tool: tool, modelBundle: modelBundle
        ).map { step in
            .buildCommand(
                displayName: step.displayName, executable: tool, arguments: step.arguments, inputFiles: step.inputs,
                outputFiles: step.outputs)
        }
    }
}

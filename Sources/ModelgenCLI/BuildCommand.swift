import ModelCompiler

/// `modelgen build <model> --output <dir>`: what the build-tool plugin runs. Writes the model's
/// Swift sources as one file with a fixed name, `<Name>+Model.swift`, and the compiled
/// `<Name>.momd`, so the plugin can declare its outputs without reading the model.
enum BuildCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "build",
        summary: "Write <Name>+Model.swift and <Name>.momd for a build system (used by the SwiftPM plugin).",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [.init(name: "--output", valueName: "<dir>", help: "The folder for <Name>+Model.swift and <Name>.momd (required).")]
            + GenerationOptions.specs,
        discussion: "The sources always use the one-file layout. Unchanged files are not rewritten.")

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let folder = arguments.values["--output"] else { throw UsageError(message: "'modelgen build' needs --output <dir>") }
        let request = Pipeline.Request(
            modelPath: arguments.arguments[0], product: .buildOutputs, outputFolder: folder,
            overrides: try GenerationOptions.overrides(arguments))
        return PipelineOutput.write(Pipeline.run(request), to: folder, console: console)
    }
}

import ModelCompiler

/// `modelgen build <model> --output <dir>`: what the build-tool plugin runs. Writes the model's
/// Swift sources as one file with a fixed name, `<Name>+Model.swift`, and the compiled
/// `<Name>.momd`, so the plugin can declare its outputs without reading the model.
enum BuildCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "The folder for <Name>+Model.swift and <Name>.momd.")

    static let spec = CommandSpec(
        name: "build",
        summary: "Write <Name>+Model.swift and <Name>.momd for a build system (used by the SwiftPM plugin).",
        discussion: "The sources always use the one-file layout. Unchanged files are not rewritten.",
        arguments: [model, output, GenerationOptions.shared])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let folder = arguments[output]
        let request = Pipeline.Request(
            modelPath: arguments[model], product: .buildOutputs, outputFolder: folder,
            overrides: GenerationOptions.overrides(arguments))
        return PipelineOutput.write(Pipeline.run(request), to: folder, console: console)
    }
}

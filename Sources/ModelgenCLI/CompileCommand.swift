import ModelCompiler

/// `modelgen compile <model> --output <dir>`: the compiled `<Name>.momd` bundle.
enum CompileCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "The folder to write <Name>.momd into.")

    static let spec = CommandSpec(
        name: "compile",
        summary: "Compile a model into <dir>/<Name>.momd, with the version hashes Core Data computes.",
        discussion: """
            Writes one <Version>.mom per version (a keyed archive of the model in the structure momc
            writes) and VersionInfo.plist (current version, entity version hashes, version checksums).
            The output is byte-identical across runs and machines; unchanged files are not rewritten.
            On a terminal, a line on standard error shows the progress (not with --quiet).
            """,
        arguments: [model, output, GenerationOptions.classPrefix, GenerationOptions.configuration, ProgressLine.quiet])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let folder = arguments[output]
        let progress = ProgressLine.make(console: console, quiet: arguments[ProgressLine.quiet])
        let request = Pipeline.Request(
            modelPath: arguments[model], product: .compiledModel, outputFolder: folder,
            overrides: GenerationOptions.overrides(arguments), progress: progress?.handler)
        let output = Pipeline.run(request)
        progress?.finish()
        return PipelineOutput.writeReporting(
            output, to: folder, console: console, summary: PipelineOutput.mainPath(output, in: folder), wholeOutput: true)
    }
}

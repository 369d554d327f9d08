import ModelCompiler

/// `modelgen compile <model> --output <dir>`: the compiled `<Name>.momd` bundle, with a
/// `<X>.cdm` per mapping model beside the model; `modelgen compile <X.xcmappingmodel> --model
/// <model> --output <dir>`: one compiled mapping model (see ``CompileMappingModel``).
enum CompileCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "The folder to write <Name>.momd into.")

    static let mappedModel = Option<String>(
        "--model", valueName: "model", help: "With a mapping model to compile: the model it maps (\(ModelArgument.help))")

    static let spec = CommandSpec(
        name: "compile",
        summary: "Compile a model into <dir>/<Name>.momd, with the version hashes Core Data computes.",
        discussion: """
            Writes one <Version>.mom per version (a keyed archive of the model in the structure momc
            writes) and VersionInfo.plist (current version, entity version hashes, version checksums).
            Mapping models beside the model (.xcmappingmodel folders next to a .xcdatamodeld that name its
            versions, or .mapping.yaml files and .xcmappingmodel folders inside a .modeld folder) are
            compiled into <dir>/<X>.cdm. Given a mapping model and --model, only <dir>/<X>.cdm is written.
            The output is byte-identical across runs and machines; unchanged files are not rewritten.
            On a terminal, a line on standard error shows the progress (not with --quiet).
            """,
        arguments: [model, output, mappedModel, GenerationOptions.classPrefix, GenerationOptions.configuration, ProgressLine.quiet])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let folder = arguments[output]
        if let compiled = try CompileMappingModel.run(arguments, console: console) { return compiled }
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

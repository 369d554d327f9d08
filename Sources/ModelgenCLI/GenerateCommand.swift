import ModelCompiler

/// `modelgen generate <model> --output <dir> [--access …] [--layout …] [--templates <dir>] [--check]`.
enum GenerateCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "The folder to write the sources into.")
    static let check = Flag("--check", help: "Write nothing; exit 1 listing files that are out of date.")

    static let spec = CommandSpec(
        name: "generate",
        summary: "Generate the Swift sources of a model (managed object subclasses, versions, enums, composites).",
        discussion: """
            Writes only files whose bytes change and removes the files this model generated before
            that are no longer generated (recognised by their header, which names the model's file);
            nothing else. With --check, exit status 1 means the folder differs from what would be
            generated. Options also come from a modelgen.yaml beside the model; the command line
            overrides it.
            """,
        arguments: [model, output, GenerationOptions.layout, check, GenerationOptions.shared])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let folder = arguments[Self.output]
        let request = Pipeline.Request(
            modelPath: arguments[model], product: .swiftSources, outputFolder: folder,
            overrides: GenerationOptions.overrides(arguments))
        let output = Pipeline.run(request)
        guard arguments[check] else {
            return PipelineOutput.writeReporting(output, to: folder, console: console, summary: "every generated source in \(folder)")
        }
        Report.diagnostics(output.diagnostics, console: console)
        if output.hasErrors { return Modelgen.ExitStatus.modelErrors }
        let changes = OutputFiles.changes(output.files, removing: output.removals, under: folder)
        guard changes.isEmpty else {
            for name in changes.changed { console.standardError("\(folder)/\(name): out of date\n") }
            for name in changes.missing { console.standardError("\(folder)/\(name): missing\n") }
            for name in changes.removed { console.standardError("\(folder)/\(name): no longer generated\n") }
            console.standardError("error: generated sources are out of date; run 'modelgen generate' and commit the result\n")
            return Modelgen.ExitStatus.modelErrors
        }
        return Modelgen.ExitStatus.success
    }
}

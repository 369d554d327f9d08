import ModelCompiler

/// `modelgen generate <model> --output <dir> [--access …] [--layout …] [--templates <dir>] [--check]`.
enum GenerateCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "generate",
        summary: "Generate the Swift sources of a model (managed object subclasses, versions, enums, composites).",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "The folder to write the sources into (required)."),
            .init(name: "--layout", valueName: "<layout>", help: "entity (a file per entity, default) or model (one file)."),
            .init(name: "--check", valueName: nil, help: "Write nothing; exit 1 listing files that are out of date."),
        ] + GenerationOptions.specs,
        discussion: """
            Writes only files whose bytes change and removes the files this model generated before
            that are no longer generated (recognised by their header, which names the model's file);
            nothing else. With --check, exit status 1 means the folder differs from what would be
            generated. Options also come from a modelgen.yaml beside the model; the command line
            overrides it.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let folder = arguments.values["--output"] else { throw UsageError(message: "'modelgen generate' needs --output <dir>") }
        let request = Pipeline.Request(
            modelPath: arguments.arguments[0], product: .swiftSources, outputFolder: folder,
            overrides: try GenerationOptions.overrides(arguments))
        let output = Pipeline.run(request)
        guard arguments.flags.contains("--check") else { return PipelineOutput.write(output, to: folder, console: console) }
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

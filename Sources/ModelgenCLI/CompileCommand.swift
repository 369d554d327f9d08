import ModelCompiler

/// `modelgen compile <model> --output <dir>`: the compiled `<Name>.momd` bundle.
enum CompileCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "compile",
        summary: "Compile a model into <dir>/<Name>.momd, with the version hashes Core Data computes.",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "The folder to write <Name>.momd into (required)."),
            GenerationOptions.classPrefix, GenerationOptions.configuration,
        ],
        discussion: """
            Writes one <Version>.mom per version (a keyed archive of the model in the structure momc
            writes) and VersionInfo.plist (current version, entity version hashes, version checksums).
            The output is byte-identical across runs and machines; unchanged files are not rewritten.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let folder = arguments.values["--output"] else { throw UsageError(message: "'modelgen compile' needs --output <dir>") }
        let request = Pipeline.Request(
            modelPath: arguments.arguments[0], product: .compiledModel, outputFolder: folder,
            overrides: try GenerationOptions.overrides(arguments))
        let output = Pipeline.run(request)
        let status = PipelineOutput.write(output, to: folder, console: console)
        if status == Modelgen.ExitStatus.success { console.standardOutput("wrote \(PipelineOutput.mainPath(output, in: folder))\n") }
        return status
    }
}

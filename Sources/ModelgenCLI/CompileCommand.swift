import Foundation
import ModelCompiler
import ModelSchema

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
            .init(name: "--class-prefix", valueName: "<prefix>", help: "Prefix class names of entities without an explicit class."),
            .init(name: "--config", valueName: "<file>", help: "A modelgen.yaml to read (default: the one beside the model, if any)."),
        ],
        discussion: """
            Writes one <Version>.mom per version (a keyed archive of the model in the structure momc
            writes) and VersionInfo.plist (current version, entity version hashes, version checksums).
            The output is byte-identical across runs and machines; unchanged files are not rewritten.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"] else { throw UsageError(message: "'modelgen compile' needs --output <dir>") }
        let modelPath = arguments.arguments[0]
        guard let (_, model) = try GenerationSettings.load(arguments, modelPath: modelPath, console: console) else {
            return Modelgen.ExitStatus.modelErrors
        }
        do throws(OutputFiles.WriteError) {
            try OutputFiles.write(CompiledModel.files(for: model), under: output)
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        console.standardOutput("wrote \((output as NSString).appendingPathComponent("\(model.name).momd"))\n")
        return Modelgen.ExitStatus.success
    }
}

import Foundation
import ModelCompiler
import ModelSchema

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
            + GenerationSettings.optionSpecs,
        discussion: "The sources always use the one-file layout. Unchanged files are not rewritten.")

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"] else { throw UsageError(message: "'modelgen build' needs --output <dir>") }
        let modelPath = arguments.arguments[0]
        guard let (settings, model) = try GenerationSettings.load(arguments, modelPath: modelPath, console: console) else {
            return Modelgen.ExitStatus.modelErrors
        }
        var options = settings.options
        options.layout = .model
        do {
            let sources = try SwiftGenerator.generate(model, options: options)
            try OutputFiles.write(sources.map { ($0.name, Array($0.contents.utf8)) } + CompiledModel.files(for: model), under: output)
        } catch let error as SwiftGenerator.GenerationError {
            console.standardError(error.description)
            return Modelgen.ExitStatus.modelErrors
        } catch let error as OutputFiles.WriteError {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        } catch {
            console.standardError("error: \(error)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        return Modelgen.ExitStatus.success
    }
}

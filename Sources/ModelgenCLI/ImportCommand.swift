import Foundation
import ModelCompiler

/// `modelgen import <X.xcdatamodeld|X.xcdatamodel> --output <dir>`.
enum ImportCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "import",
        summary: "Convert an Xcode model (.xcdatamodeld or .xcdatamodel) to a modelgen YAML model.",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [.init(name: "--output", valueName: "<dir>", help: "The folder to write the model into (required).")],
        discussion: """
            Writes <dir>/<Name>.model.yaml for a single version, or <dir>/<Name>.modeld/ with every
            version and versions.yaml. What the YAML format cannot express is reported as a warning
            naming the element. The written model is then validated; exit status 1 means it has errors
            to fix by hand (the files are written all the same).
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"] else { throw UsageError(message: "'modelgen import' needs --output <dir>") }
        let source = arguments.arguments[0]
        guard Pipeline.isXcodeModel(source) else {
            throw UsageError(message: "'\(source)' is not an Xcode model; expected a .xcdatamodeld or .xcdatamodel")
        }
        let result = Pipeline.load(source)
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let files = YAMLModelWriter.files(for: model)
        do throws(OutputFiles.WriteError) {
            try OutputFiles.write(files.map { ($0.path, Array($0.text.utf8)) }, under: output)
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        let written = (output as NSString).appendingPathComponent(files[0].path.components(separatedBy: "/")[0])
        let check = Pipeline.load(written)
        Report.diagnostics(check.diagnostics, console: console)
        console.standardOutput("wrote \(written)\n")
        return check.hasErrors ? Modelgen.ExitStatus.modelErrors : Modelgen.ExitStatus.success
    }
}

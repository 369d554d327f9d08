import Foundation
import ModelCompiler

/// `modelgen export <model> --output <X.xcdatamodeld>`.
enum ExportCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "export",
        summary: "Write a model as an Xcode .xcdatamodeld, to open in Xcode or compile with momc.",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [.init(name: "--output", valueName: "<X.xcdatamodeld>", help: "The .xcdatamodeld folder to write (required).")],
        discussion: """
            Writes one <Version>.xcdatamodel/contents per version and .xccurrentversion. Enums become
            their raw types and documentation is left out: Xcode's format has no place for them.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"]?.trimmingSlashes else {
            throw UsageError(message: "'modelgen export' needs --output <X.xcdatamodeld>")
        }
        guard output.hasSuffix(".xcdatamodeld") else { throw UsageError(message: "--output must name a folder ending in .xcdatamodeld") }
        let result = Pipeline.run(Pipeline.Request(modelPath: arguments.arguments[0], product: .xcodeModel, outputFolder: output))
        let status = PipelineOutput.write(result, to: output, console: console)
        guard status == Modelgen.ExitStatus.success else { return status }
        console.standardOutput("wrote \(output)\n")
        return Modelgen.ExitStatus.success
    }
}

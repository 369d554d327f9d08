import Foundation
import ModelCompiler

/// `modelgen export <model> --output <X.xcdatamodeld>`.
enum ExportCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>(
        "--output", valueName: "X.xcdatamodeld", help: "The .xcdatamodeld folder to write.",
        check: { $0.trimmingSlashes.hasSuffix(".xcdatamodeld") ? nil : "it must name a folder ending in .xcdatamodeld" })

    static let spec = CommandSpec(
        name: "export",
        summary: "Write a model as an Xcode .xcdatamodeld, to open in Xcode or compile with momc.",
        discussion: """
            Writes one <Version>.xcdatamodel/contents per version and .xccurrentversion. Enums become
            their raw types and documentation is left out: Xcode's format has no place for them.
            """,
        arguments: [model, output])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let output = arguments[Self.output].trimmingSlashes
        let result = Pipeline.run(Pipeline.Request(modelPath: arguments[model], product: .xcodeModel, outputFolder: output))
        let status = PipelineOutput.write(result, to: output, console: console)
        guard status == Modelgen.ExitStatus.success else { return status }
        console.standardOutput("wrote \(output)\n")
        return Modelgen.ExitStatus.success
    }
}

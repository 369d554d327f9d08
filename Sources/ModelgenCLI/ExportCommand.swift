import Foundation
import ModelCompiler

/// `modelgen export <model> --output <X.xcdatamodeld>`, and `modelgen export <X.mapping.yaml>
/// --model <model> --output <X.xcmappingmodel>` for a mapping model.
enum ExportCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let output = RequiredOption<String>(
        "--output", valueName: "X.xcdatamodeld", help: "The .xcdatamodeld folder to write (.xcmappingmodel for a mapping model).",
        check: {
            $0.trimmingSlashes.hasSuffix(".xcdatamodeld") || $0.trimmingSlashes.hasSuffix(".xcmappingmodel")
                ? nil : "it must name a folder ending in .xcdatamodeld"
        })
    static let mappedModel = Option<String>(
        "--model", valueName: "model", help: "With a .mapping.yaml: the model it maps (\(ModelArgument.help))")

    static let spec = CommandSpec(
        name: "export",
        summary: "Write a model as an Xcode .xcdatamodeld, to open in Xcode or compile with momc.",
        discussion: """
            Writes one <Version>.xcdatamodel/contents per version and .xccurrentversion. Enums become
            their raw types and documentation is left out: Xcode's format has no place for them.
            A .mapping.yaml given with --model is written as the .xcmappingmodel folder --output names.
            """,
        arguments: [model, output, mappedModel])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let output = arguments[Self.output].trimmingSlashes
        let source = arguments[model]
        let isMapping = source.trimmingSlashes.hasSuffix(".mapping.yaml")
        guard isMapping == output.hasSuffix(".xcmappingmodel") else {
            throw UsageError(
                message: isMapping
                    ? "a mapping model is exported to a .xcmappingmodel folder" : "'--output' must name a folder ending in .xcdatamodeld")
        }
        let result: Pipeline.Output
        if isMapping {
            guard let mapped = arguments[mappedModel] else {
                throw UsageError(message: "exporting the mapping model '\(source)' needs '--model <model>', the model it maps")
            }
            result = Pipeline.exportMappingModel(source, modelPath: mapped)
        } else {
            result = Pipeline.run(Pipeline.Request(modelPath: source, product: .xcodeModel, outputFolder: output))
        }
        let status = PipelineOutput.write(result, to: output, console: console)
        guard status == Modelgen.ExitStatus.success else { return status }
        console.standardOutput("wrote \(output)\n")
        return Modelgen.ExitStatus.success
    }
}

import Foundation
import ModelCompiler

/// `modelgen import <X.xcdatamodeld|X.xcdatamodel> --output <dir>`, and
/// `modelgen import <X.xcmappingmodel> --model <model> --output <dir>` for a mapping model.
enum ImportCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>(
        "model", help: "The Xcode model: a .xcdatamodeld or .xcdatamodel, or a .xcmappingmodel with --model.",
        check: {
            Pipeline.isXcodeModel($0) || Pipeline.isMappingModel($0)
                ? nil : "'\($0)' is not an Xcode model; expected a .xcdatamodeld or .xcdatamodel"
        })
    static let mappedModel = Option<String>(
        "--model", valueName: "model", help: "With a .xcmappingmodel: the model it maps (\(ModelArgument.help))")
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "The folder to write the model into.")

    static let spec = CommandSpec(
        name: "import",
        summary: "Convert an Xcode model (.xcdatamodeld or .xcdatamodel) to a modelgen YAML model.",
        discussion: """
            Writes <dir>/<Name>.model.yaml for a single version, or <dir>/<Name>.modeld/ with every
            version and versions.yaml. What the YAML format cannot express is reported as a warning
            naming the element. The written model is then validated; exit status 1 means it has errors
            to fix by hand (the files are written all the same). A .xcmappingmodel given with --model
            becomes <dir>/<X>.mapping.yaml, with only the expressions that differ from the ones Xcode
            generates.
            """,
        arguments: [model, output, mappedModel])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let output = arguments[Self.output]
        let source = arguments[model]
        let result: Pipeline.Output
        if Pipeline.isMappingModel(source) {
            guard let mapped = arguments[mappedModel] else {
                throw UsageError(message: "importing the mapping model '\(source)' needs '--model <model>', the model it maps")
            }
            result = Pipeline.importMappingModel(source, modelPath: mapped, outputFolder: output)
        } else {
            result = Pipeline.run(Pipeline.Request(modelPath: source, product: .yamlModel, outputFolder: output))
        }
        guard PipelineOutput.writeFiles(result, to: output, console: console) else { return Modelgen.ExitStatus.modelErrors }
        if !result.files.isEmpty { console.standardOutput("wrote \(PipelineOutput.mainPath(result, in: output))\n") }
        return result.hasErrors ? Modelgen.ExitStatus.modelErrors : Modelgen.ExitStatus.success
    }
}

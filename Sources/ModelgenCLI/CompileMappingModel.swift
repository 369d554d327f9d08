import ModelCompiler

/// `modelgen compile <X.xcmappingmodel> --model <model> --output <dir>`: one mapping model
/// compiled against the model it maps into `<dir>/<X>.cdm`.
enum CompileMappingModel {
    /// The exit status when the command's argument is a mapping model; nil for a model.
    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32? {
        let path = arguments[CompileCommand.model]
        guard Pipeline.isMappingModel(path) else {
            if arguments[CompileCommand.mappedModel] != nil {
                throw UsageError(message: "'--model' goes with a mapping model to compile; '\(path)' is not one")
            }
            return nil
        }
        guard let modelPath = arguments[CompileCommand.mappedModel] else {
            throw UsageError(message: "compiling the mapping model '\(path)' needs '--model <model>', the model it maps")
        }
        let folder = arguments[CompileCommand.output]
        let output = Pipeline.compileMappingModel(path, modelPath: modelPath, outputFolder: folder)
        return PipelineOutput.writeReporting(output, to: folder, console: console, summary: PipelineOutput.mainPath(output, in: folder))
    }
}

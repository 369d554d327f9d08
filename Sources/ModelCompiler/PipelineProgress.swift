import ModelSchema

/// Counts the pipeline's steps for a ``Pipeline/Request``'s progress handler: reading and checking
/// each version, the checks across versions, then the backend's steps (compiling each version,
/// its `VersionInfo.plist`, generating the sources). The total is known once the model's files
/// say how many versions there are.
final class PipelineProgress {
    private let handler: ProgressHandler?
    private let backendSteps: (_ versions: Int) -> Int
    private var completed = 0
    private var total = 0

    init(_ handler: ProgressHandler?, product: Pipeline.Product) {
        self.handler = handler
        backendSteps = { versions in
            switch product {
            case .compiledModel: versions + 1
            case .buildOutputs: versions + 2
            case .swiftSources: 1
            case .xcodeModel, .yamlModel: 0
            }
        }
    }

    /// The model has `versions` versions, each read and checked (`readSteps` per version).
    func start(versions: Int, readSteps: Int) {
        total = versions * readSteps + 1 + backendSteps(versions)
    }

    /// `step` is done.
    func finish(_ step: String) {
        guard let handler, total > 0 else { return }
        completed = min(completed + 1, total)
        handler(WorkProgress(completed: completed, total: total, step: step))
    }
}

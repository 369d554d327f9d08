import ModelCompiler

/// `modelgen validate <model>...`: checks models and reports every problem.
enum ValidateCommand {
    static let command = Command(spec: spec, run: run)

    static let models = RepeatingArgument<String>("model", help: ModelArgument.help)
    static let warningsAsErrors = Flag("--warnings-as-errors", help: "Exit with status 1 when there are warnings.")
    static let quiet = Flag("--quiet", help: "Print diagnostics only, no summary line per model.")

    static let spec = CommandSpec(
        name: "validate",
        summary: "Check models and report every problem with its location.",
        discussion:
            "Diagnostics go to standard error as 'file:line:column: error: message'.\nExit status: 0 valid, 1 errors found, 2 usage error.",
        arguments: [models, warningsAsErrors, quiet])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        var failed = false
        var allDiagnostics: [Diagnostic] = []
        for path in arguments[models] {
            let result = Pipeline.load(path)
            let diagnostics = result.diagnostics + (SwiftPMTargetCheck.warning(forModelAt: path).map { [$0] } ?? [])
            allDiagnostics += diagnostics
            let hasWarnings = diagnostics.contains { $0.severity == .warning }
            let modelFailed = result.hasErrors || (arguments[warningsAsErrors] && hasWarnings)
            failed = failed || modelFailed
            if !arguments[quiet], !modelFailed, let model = result.model {
                let entities = model.currentVersion?.entities.count ?? 0
                let versions = model.versions.count == 1 ? "1 version" : "\(model.versions.count) versions"
                console.standardOutput("\(path): valid (\(versions), current '\(model.currentVersionName)', \(entities) entities)\n")
            }
        }
        Report.diagnostics(allDiagnostics, console: console)
        return failed ? Modelgen.ExitStatus.modelErrors : Modelgen.ExitStatus.success
    }
}

/// `modelgen dump <model>`: the validated model as canonical JSON.
enum DumpCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)

    static let spec = CommandSpec(
        name: "dump",
        summary: "Print the validated model as canonical, sorted JSON.",
        discussion:
            "The output is byte-for-byte stable across runs and machines. Nothing is printed to\nstandard output when the model has errors.",
        arguments: [model])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let result = Pipeline.load(arguments[model])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        console.standardOutput(ModelDump.json(model).rendered())
        return Modelgen.ExitStatus.success
    }
}

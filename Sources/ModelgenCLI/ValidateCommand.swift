import ModelCompiler

/// `modelgen validate <model>...`: checks models and reports every problem.
enum ValidateCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "validate",
        summary: "Check models and report every problem with its location.",
        argumentsUsage: "<model>...",
        minimumArguments: 1,
        maximumArguments: nil,
        options: [
            .init(name: "--warnings-as-errors", valueName: nil, help: "Exit with status 1 when there are warnings."),
            .init(name: "--quiet", valueName: nil, help: "Print diagnostics only, no summary line per model."),
        ],
        discussion:
            "Diagnostics go to standard error as 'file:line:column: error: message'.\nExit status: 0 valid, 1 errors found, 2 usage error.")

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        var failed = false
        var allDiagnostics: [Diagnostic] = []
        for path in arguments.arguments {
            let result = Pipeline.load(path)
            allDiagnostics += result.diagnostics
            let hasWarnings = result.diagnostics.contains { $0.severity == .warning }
            let modelFailed = result.hasErrors || (arguments.flags.contains("--warnings-as-errors") && hasWarnings)
            failed = failed || modelFailed
            if !arguments.flags.contains("--quiet"), !modelFailed, let model = result.model {
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

    static let spec = CommandSpec(
        name: "dump",
        summary: "Print the validated model as canonical, sorted JSON.",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [],
        discussion:
            "The output is byte-for-byte stable across runs and machines. Nothing is printed to\nstandard output when the model has errors."
    )

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let result = Pipeline.load(arguments.arguments[0])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        console.standardOutput(ModelDump.json(model).rendered())
        return Modelgen.ExitStatus.success
    }
}

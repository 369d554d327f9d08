import ModelCompiler
import ModelSchema

/// `modelgen migrations <model> [--from <version>] [--to <version>] [--json]`: the migration
/// plan between consecutive versions.
enum MigrationsCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let from = Option<String>("--from", valueName: "version", help: "Start at this version.", default: "the first")
    static let to = Option<String>("--to", valueName: "version", help: "End at this version.", default: "the last")
    static let json = Flag("--json", help: "Print JSON (shape in docs/Migrations.md) instead of text.")

    static let spec = CommandSpec(
        name: "migrations",
        summary: "Print, for each step between versions, whether Core Data can infer the migration, and its mapping.",
        discussion: """
            Each step is between consecutive versions, as staged migration runs them. Exit
            status 0 even when a step cannot be inferred ('modelgen validate' warns about those).
            """,
        arguments: [model, from, to, json])

    /// `The value 'V9' is invalid for '--to <version>': the model has no version 'V9'; did you mean 'V2'?`
    static func unknownVersion(_ name: String, for option: Option<String>, in names: [String]) -> UsageError {
        .invalidValue(
            name, for: option.declaration, reason: "the model has no version '\(name)'\(Suggestions.didYouMean(name, in: names))")
    }

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let result = Pipeline.load(arguments[model])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let names = model.versions.map(\.name)
        guard !names.isEmpty else { return Modelgen.ExitStatus.success }
        var first = 0
        var last = names.count - 1
        if let version = arguments[from] {
            guard let index = names.firstIndex(of: version) else { throw unknownVersion(version, for: from, in: names) }
            first = index
        }
        if let version = arguments[to] {
            guard let index = names.firstIndex(of: version) else { throw unknownVersion(version, for: to, in: names) }
            last = index
        }
        guard first <= last else {
            throw UsageError(message: "'--from' must name a version before '--to' ('\(names[first])' comes after '\(names[last])')")
        }
        var plan = MigrationPlanner.plan(model)
        plan.steps = Array(plan.steps[first..<last])
        console.standardOutput(arguments[json] ? MigrationPlanText.json(plan).rendered() : MigrationPlanText.text(plan))
        return Modelgen.ExitStatus.success
    }
}

import ModelCompiler
import ModelSchema

/// `modelgen migrations <model> [--from <version>] [--to <version>] [--json]`: the migration
/// plan between consecutive versions.
enum MigrationsCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "migrations",
        summary: "Print, for each step between versions, whether Core Data can infer the migration, and its mapping.",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [
            .init(name: "--from", valueName: "<version>", help: "Start at this version (default: the first)."),
            .init(name: "--to", valueName: "<version>", help: "End at this version (default: the last)."),
            .init(name: "--json", valueName: nil, help: "Print JSON (shape in docs/Migrations.md) instead of text."),
        ],
        discussion: """
            Each step is between consecutive versions, as staged migration runs them. Exit
            status 0 even when a step cannot be inferred ('modelgen validate' warns about those).
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let result = Pipeline.load(arguments.arguments[0])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let names = model.versions.map(\.name)
        guard !names.isEmpty else { return Modelgen.ExitStatus.success }
        var first = 0
        var last = names.count - 1
        if let from = arguments.values["--from"] {
            guard let index = names.firstIndex(of: from) else {
                throw UsageError(message: "the model has no version '\(from)'\(Suggestions.didYouMean(from, in: names))")
            }
            first = index
        }
        if let to = arguments.values["--to"] {
            guard let index = names.firstIndex(of: to) else {
                throw UsageError(message: "the model has no version '\(to)'\(Suggestions.didYouMean(to, in: names))")
            }
            last = index
        }
        guard first <= last else {
            throw UsageError(message: "'--from' must name a version before '--to' ('\(names[first])' comes after '\(names[last])')")
        }
        var plan = MigrationPlanner.plan(model)
        plan.steps = Array(plan.steps[first..<last])
        console.standardOutput(arguments.flags.contains("--json") ? MigrationPlanText.json(plan).rendered() : MigrationPlanText.text(plan))
        return Modelgen.ExitStatus.success
    }
}

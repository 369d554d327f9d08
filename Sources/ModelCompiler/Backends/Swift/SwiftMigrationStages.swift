import ModelSchema
import Mustache

/// The stages of `NSStagedMigrationManager` for a model with several versions, as template data:
/// runs of consecutive versions joined by steps not declared custom become lightweight stages,
/// each step declared in `customMigrations` a custom stage whose handlers are methods of the
/// generated `MigrationHandlers` protocol. A step lightweight migration cannot infer and that is
/// not declared custom stays in its lightweight stage, with a comment in the generated code
/// (`modelgen validate` warns about it; the migration would fail at run time).
enum SwiftMigrationStages {
    /// Null for a model with one version.
    static func value(for model: Model, caseNames: [String]) -> MustacheValue {
        guard model.versions.count > 1, caseNames.count == model.versions.count else { return .null }
        let plan = MigrationPlanner.plan(model)
        var stages: [MustacheValue] = []
        var customSteps: [MustacheValue] = []
        var run = [0]
        var uninferable: [String] = []
        func closeRun() {
            if run.count > 1 {
                // Two checksums fit on the stage's line; longer runs get one line each.
                let checksums = run.map { "Version.\(caseNames[$0]).checksum" }
                let lightweight: MustacheValue = [
                    "checksums": checksums.count == 2 ? .string(checksums.joined(separator: ", ")) : .null,
                    "checksumLines": .list(checksums.count == 2 ? [] : checksums.map(MustacheValue.string)),
                    "uninferableSteps": .list(uninferable.map(MustacheValue.string)),
                ]
                stages.append(["lightweight": lightweight])
            }
            uninferable = []
        }
        for (index, step) in plan.steps.enumerated() {
            let next = index + 1
            guard step.isCustom else {
                if !step.isInferable { uninferable.append("\(step.source) → \(step.destination)") }
                run.append(next)
                continue
            }
            closeRun()
            let suffix = methodSuffix(caseNames[index]) + "To" + methodSuffix(caseNames[next])
            let custom: MustacheValue = [
                "fromCase": .string(caseNames[index]), "toCase": .string(caseNames[next]),
                "fromName": .string(step.source), "toName": .string(step.destination),
                "willMethod": .string("willMigrate" + suffix), "didMethod": .string("didMigrate" + suffix),
            ]
            stages.append(["custom": custom])
            customSteps.append(custom)
            run = [next]
        }
        closeRun()
        return [
            "stages": .list(stages), "customSteps": .list(customSteps), "hasCustomSteps": .bool(!customSteps.isEmpty),
        ]
    }

    /// `trips2` → `Trips2`, `` `default` `` → `Default`: a version's case name inside a method name.
    static func methodSuffix(_ caseName: String) -> String {
        SwiftNames.uppercasedFirst(caseName.filter { $0 != "`" })
    }
}

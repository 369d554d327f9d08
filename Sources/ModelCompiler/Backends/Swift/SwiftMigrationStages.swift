import ModelSchema
import Mustache

/// The stages of `NSStagedMigrationManager` for a model with several versions, as template data,
/// in version order: each step declared in `customMigrations` is a custom stage whose handlers are
/// methods of the generated `MigrationHandlers` protocol; the other versions, run by run, are
/// lightweight stages. No checksum is in two stages other than two custom stages meeting at a
/// version: Core Data refuses stages with duplicate checksums (developer forums: "Duplicate
/// version checksums across stages detected"), and moves between consecutive stages by
/// lightweight migration. A step lightweight migration cannot infer that is not declared custom
/// gets a comment in the generated code (`modelgen validate` warns about it; the migration would
/// fail at run time).
enum SwiftMigrationStages {
    /// Null for a model with one version.
    static func value(for model: Model, caseNames: [String]) -> MustacheValue {
        guard model.versions.count > 1, caseNames.count == model.versions.count else { return .null }
        let plan = MigrationPlanner.plan(model)
        var endpoints: Set<Int> = []
        for (index, step) in plan.steps.enumerated() where step.isCustom { endpoints.formUnion([index, index + 1]) }
        var stages: [MustacheValue] = []
        var customSteps: [MustacheValue] = []
        var run: [Int] = []
        func flush() {
            guard !run.isEmpty else { return }
            // Two checksums fit on the stage's line; longer runs get one line each.
            let checksums = run.map { "Version.\(caseNames[$0]).checksum" }
            stages.append([
                "lightweight": [
                    "checksums": checksums.count <= 2 ? .string(checksums.joined(separator: ", ")) : .null,
                    "checksumLines": .list(checksums.count <= 2 ? [] : checksums.map(MustacheValue.string)),
                ]
            ])
            run = []
        }
        for index in caseNames.indices {
            if endpoints.contains(index) { flush() } else { run.append(index) }
            guard index < plan.steps.count else { continue }
            let step = plan.steps[index]
            if step.isCustom {
                let suffix = methodSuffix(caseNames[index]) + "To" + methodSuffix(caseNames[index + 1])
                let custom: MustacheValue = [
                    "fromCase": .string(caseNames[index]), "toCase": .string(caseNames[index + 1]),
                    "fromName": .string(step.source), "toName": .string(step.destination),
                    "willMethod": .string("willMigrate" + suffix), "didMethod": .string("didMigrate" + suffix),
                ]
                stages.append(["custom": custom])
                customSteps.append(custom)
            } else if !step.isInferable {
                stages.append(["uninferable": .string("\(step.source) → \(step.destination)")])
            }
        }
        flush()
        return [
            "stages": .list(stages), "customSteps": .list(customSteps), "hasCustomSteps": .bool(!customSteps.isEmpty),
        ]
    }

    /// `trips2` → `Trips2`, `` `default` `` → `Default`: a version's case name inside a method name.
    static func methodSuffix(_ caseName: String) -> String {
        SwiftNames.uppercasedFirst(caseName.filter { $0 != "`" })
    }
}

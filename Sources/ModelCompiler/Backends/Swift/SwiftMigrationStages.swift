import ModelSchema

/// The stages of `NSStagedMigrationManager` for a model with several versions, as template data,
/// in version order: each step declared in `customMigrations` is a custom stage whose handlers are
/// methods of the generated `MigrationHandlers` protocol; the other versions, run by run, are
/// lightweight stages. No checksum is in two stages other than two custom stages meeting at a
/// version: Core Data refuses stages with duplicate checksums (developer forums: "Duplicate
/// version checksums across stages detected"), and moves between consecutive stages by
/// lightweight migration. A step lightweight migration cannot infer that is not declared custom
/// gets a comment in the generated code (`modelgen validate` warns about it; the migration would
/// fail at run time), and so does a step a mapping model migrates: staged migration runs no
/// mapping model.
enum SwiftMigrationStages {
    /// Null for a model with one version.
    static func value(for model: Model, caseNames: [String]) -> SwiftTemplateContext.Migration? {
        guard model.versions.count > 1, caseNames.count == model.versions.count else { return nil }
        let plan = MigrationPlanner.plan(model)
        var endpoints: Set<Int> = []
        for (index, step) in plan.steps.enumerated() where step.isCustom { endpoints.formUnion([index, index + 1]) }
        var stages: [SwiftTemplateContext.Stage] = []
        var customSteps: [SwiftTemplateContext.CustomStep] = []
        var run: [Int] = []
        func flush() {
            guard !run.isEmpty else { return }
            // Two checksums fit on the stage's line; longer runs get one line each.
            let checksums = run.map { "Version.\(caseNames[$0]).checksum" }
            let stage = SwiftTemplateContext.LightweightStage(
                checksums: checksums.count <= 2 ? checksums.joined(separator: ", ") : nil,
                checksumLines: checksums.count <= 2 ? [] : checksums)
            stages.append(SwiftTemplateContext.Stage(lightweight: stage))
            run = []
        }
        for index in caseNames.indices {
            if endpoints.contains(index) { flush() } else { run.append(index) }
            guard index < plan.steps.count else { continue }
            let step = plan.steps[index]
            if step.isCustom {
                let suffix = methodSuffix(caseNames[index]) + "To" + methodSuffix(caseNames[index + 1])
                let custom = SwiftTemplateContext.CustomStep(
                    fromCase: caseNames[index], toCase: caseNames[index + 1], fromName: step.source, toName: step.destination,
                    willMethod: "willMigrate" + suffix, didMethod: "didMigrate" + suffix)
                stages.append(SwiftTemplateContext.Stage(custom: custom))
                customSteps.append(custom)
            } else if let mapping = step.mappingModel {
                let mapped = SwiftTemplateContext.MappedStep(step: "\(step.source) → \(step.destination)", mappingModel: mapping)
                stages.append(SwiftTemplateContext.Stage(mapped: mapped))
            } else if !step.isInferable {
                stages.append(SwiftTemplateContext.Stage(uninferable: "\(step.source) → \(step.destination)"))
            }
        }
        flush()
        return SwiftTemplateContext.Migration(stages: stages, customSteps: customSteps, hasCustomSteps: !customSteps.isEmpty)
    }

    /// `trips2` → `Trips2`, `` `default` `` → `Default`: a version's case name inside a method name.
    static func methodSuffix(_ caseName: String) -> String {
        SwiftNames.uppercasedFirst(caseName.filter { $0 != "`" })
    }
}

import ModelSchema

/// Checks between consecutive versions: every change lightweight migration cannot infer, in a
/// step the model neither declares as a custom migration nor has a mapping model for, is a
/// warning at the change.
struct VersionHistoryChecker {
    let model: Model
    let diagnostics: DiagnosticCollector

    func check() {
        for step in MigrationPlanner.plan(model).steps where !step.isCustom && step.mappingModel == nil {
            for obstacle in step.obstacles {
                let subject =
                    obstacle.property.map { "\($0.isRelationship ? "relationship" : "attribute") '\(obstacle.entity.name).\($0.name)'" }
                    ?? "entity '\(obstacle.entity.name)'"
                diagnostics.warning(
                    "lightweight migration from '\(step.source)' to '\(step.destination)' cannot be inferred: \(subject): \(obstacle.change.obstacle ?? ""); add a mapping model for this step, declare a custom migration for it ('customMigrations' in versions.yaml) or change the model",
                    at: obstacle.property?.location ?? obstacle.entity.location ?? step.location ?? .file(""))
            }
        }
    }
}

import Foundation
import ModelCompiler
import ModelSchema
import ModelStore

/// `modelgen migrate-store <store.sqlite> --model <model> [--to <version>] [--dry-run]`.
enum MigrateStoreCommand {
    static let command = Command(spec: spec, run: run)

    static let store = Argument<String>("store.sqlite", help: "The Core Data SQLite store to migrate.")
    static let model = RequiredOption<String>("--model", valueName: "model", help: "The model whose version wrote the store.")
    static let to = Option<String>("--to", valueName: "version", help: "Migrate to this version.", default: "the current version")
    static let dryRun = Flag("--dry-run", help: "Print the plan for the store's version; change nothing.")

    static let spec = CommandSpec(
        name: "migrate-store",
        summary: "Migrate a Core Data SQLite store to a version of its model, one version at a time.",
        discussion: """
            The store is migrated through every version between the one that wrote it and the
            target, all or nothing: on any failure the store's files are left as they were. Each
            step goes through the model's mapping model for it (beside the .xcdatamodeld, or in
            the .modeld folder), as Core Data's automatic migration does, or is a lightweight
            migration. Before migrating, the store's files are copied to <store>.backup (then
            .backup.1, …). Refused, because the app migrates them in its own code: a step
            without a mapping model that cannot be inferred or that the model declares in
            customMigrations, and a mapping model that names a migration policy class of the app.
            On a terminal, a line on standard error shows the progress (not with --quiet).
            """,
        arguments: [store, model, to, dryRun, ProgressLine.quiet])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let path = arguments[store]
        let result = Pipeline.load(arguments[model])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let names = model.versions.map(\.name)
        let target = arguments[to] ?? model.currentVersionName
        guard names.contains(target) else { throw MigrationsCommand.unknownVersion(target, for: to, in: names) }
        let metadata: StoreMetadata
        do {
            metadata = try StoreInspector.inspect(path)
        } catch {
            console.standardError("\(path): error: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        let match = StoreModelMatch.match(metadata, against: model)
        guard let source = match.matchingVersion else {
            let reason =
                match.isAmbiguous
                ? InspectStoreCommand.sameHashDescription(match)
                : "no version of the model wrote it (closest is '\(match.closestVersion ?? "")')"
            console.standardError("\(path): error: \(reason)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        guard let versions = StoreMigrator.path(in: model, from: source, to: target) else {
            console.standardError(
                "\(path): error: the store was written by '\(source)', which comes after '\(target)'; stores are not migrated backwards\n")
            return Modelgen.ExitStatus.modelErrors
        }
        let first = model.versions.firstIndex { $0.name == source } ?? 0
        let plan = MigrationPlan(model: model.name, steps: Array(MigrationPlanner.plan(model).steps[first..<(first + versions.count - 1)]))
        if arguments[dryRun] || versions.count == 1 {
            let steps = plan.steps.count
            console.standardOutput(
                "store written by '\(source)'; "
                    + (steps == 0 ? "it is at '\(target)' already\n" : "\(steps) step\(steps == 1 ? "" : "s") to '\(target)':\n")
                    + MigrationPlanText.text(plan))
            return Modelgen.ExitStatus.success
        }
        let mappings = Dictionary(model.mappingModels.map { ($0.name, $0) }) { first, _ in first }
        // Each step's mapping model, by the step's position.
        let stepMappingModels = plan.steps.map { step in step.mappingModel.flatMap { mappings[$0] } }
        for (step, mapping) in zip(plan.steps, stepMappingModels) {
            guard let why = refusal(of: step, mapping: mapping, console: console) else { continue }
            console.standardError(
                "\(path): error: cannot migrate from '\(step.source)' to '\(step.destination)': \(why)\n"
                    + MigrationPlanText.text(MigrationPlan(model: model.name, steps: [step])))
            return Modelgen.ExitStatus.modelErrors
        }
        let stepMappings = Dictionary(
            uniqueKeysWithValues: stepMappingModels.enumerated().compactMap { index, mapping in mapping.map { (index, $0.mapping) } })
        let backup: String
        let progress = ProgressLine.make(console: console, quiet: arguments[ProgressLine.quiet])
        do {
            backup = try makeBackup(of: path)
            // Without a migrator, steps with mapping models were refused above.
            if let migrator = console.mappedStoreMigrator, !stepMappings.isEmpty {
                try migrator.migrate(storeAt: path, through: versions, mappings: stepMappings, progress: progress?.handler)
            } else {
                try StoreMigrator.migrate(storeAt: path, through: versions, progress: progress?.handler)
            }
            progress?.finish()
        } catch {
            progress?.finish()
            // The error's own words (a store error describes itself; a file error its reason).
            let message = ErrorText.message(error)
            console.standardError("\(path): error: \(message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        let mapped = stepMappings.isEmpty ? "" : " (\(stepMappings.count) through mapping models)"
        console.standardOutput(
            "migrated '\(path)' from '\(source)' to '\(target)' through \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s")\(mapped); the original is in '\(backup)'\n"
        )
        return Modelgen.ExitStatus.success
    }

    /// Why `migrate-store` cannot run `step`, or nil when it can: the app migrates it in code.
    static func refusal(of step: MigrationStep, mapping: ModelMappingModel?, console: Console) -> String? {
        guard let mapping else {
            if step.isCustom { return "the model declares it in customMigrations; the app migrates it in code (an NSCustomMigrationStage)" }
            if !step.isInferable {
                return
                    "lightweight migration cannot infer it and the model has no mapping model for it; the app migrates it in code (an NSCustomMigrationStage)"
            }
            return nil
        }
        guard console.mappedStoreMigrator != nil else {
            return "it goes through mapping model '\(mapping.name)', and this modelgen links no runtime to run mapping models"
        }
        let policies = Set(mapping.mapping.entityMappings.compactMap(\.entityMigrationPolicyClassName)).subtracting([
            "", "NSEntityMigrationPolicy",
        ])
        guard policies.isEmpty else {
            let names = policies.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return
                "mapping model '\(mapping.name)' names the migration policy class\(policies.count == 1 ? "" : "es") \(names), which \(policies.count == 1 ? "is" : "are") the app's code; the app migrates this step (the store migrates when the app opens it with automatic migration)"
        }
        return nil
    }

    /// Copies the store's files to the first free `<store>.backup`, `<store>.backup.1`, ….
    static func makeBackup(of path: String) throws -> String {
        var backup = path + ".backup"
        var number = 0
        while FileManager.default.fileExists(atPath: backup) {
            number += 1
            backup = path + ".backup.\(number)"
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: backup + suffix)
        }
        return backup
    }
}

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
            target, each step a lightweight migration, all or nothing: on any failure the store's
            files are left as they were. Before migrating, the store's files are copied to
            <store>.backup (then .backup.1, …). A step that cannot be inferred, or that the model
            declares in customMigrations, is refused: the app migrates it in code.
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
        let custom = Set(model.customMigrations)
        var plan = MigrationPlan(model: model.name, steps: [])
        for (from, to) in zip(versions, versions.dropFirst()) {
            var step = MigrationPlanner.step(from: from, to: to)
            step.isCustom = custom.contains(VersionStep(from: from.name, to: to.name))
            plan.steps.append(step)
        }
        if arguments[dryRun] || versions.count == 1 {
            let steps = plan.steps.count
            console.standardOutput(
                "store written by '\(source)'; "
                    + (steps == 0 ? "it is at '\(target)' already\n" : "\(steps) step\(steps == 1 ? "" : "s") to '\(target)':\n")
                    + MigrationPlanText.text(plan))
            return Modelgen.ExitStatus.success
        }
        if let refused = plan.steps.first(where: { $0.isCustom || !$0.isInferable }) {
            let why = refused.isCustom ? "the model declares it in customMigrations" : "lightweight migration cannot infer it"
            console.standardError(
                "\(path): error: cannot migrate from '\(refused.source)' to '\(refused.destination)': \(why); the app migrates it in code (an NSCustomMigrationStage)\n"
                    + MigrationPlanText.text(MigrationPlan(model: model.name, steps: [refused])))
            return Modelgen.ExitStatus.modelErrors
        }
        let backup: String
        let progress = ProgressLine.make(console: console, quiet: arguments[ProgressLine.quiet])
        do {
            backup = try makeBackup(of: path)
            try StoreMigrator.migrate(storeAt: path, through: versions, progress: progress?.handler)
            progress?.finish()
        } catch {
            progress?.finish()
            // The error's own words (a store error describes itself; a file error its reason).
            let message = ErrorText.message(error)
            console.standardError("\(path): error: \(message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        console.standardOutput(
            "migrated '\(path)' from '\(source)' to '\(target)' through \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s"); the original is in '\(backup)'\n"
        )
        return Modelgen.ExitStatus.success
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

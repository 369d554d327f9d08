import ModelCompiler

/// `modelgen ship <model> [<version>]`: records a version as shipped (checksum and lock).
enum ShipCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>("model", help: "The model: a '<Name>.modeld' folder.")
    static let version = OptionalArgument<String>("version", help: "The version to record.", default: "the current version")

    static let spec = CommandSpec(
        name: "ship",
        summary: "Record a version as shipped: its checksum in versions.yaml, its hashes in versions.lock.",
        discussion: """
            Afterwards 'modelgen validate' fails when the shipped version changes. Only the
            'shipped' entry of versions.yaml is rewritten; the rest of the file is kept.
            """,
        arguments: [model, version])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let path = arguments[model]
        let outcome = VersionShipping.ship(path, version: arguments[version])
        Report.diagnostics(outcome.diagnostics, console: console)
        guard !outcome.hasErrors else { return Modelgen.ExitStatus.modelErrors }
        if !outcome.files.isEmpty {
            do throws(OutputFiles.WriteError) {
                _ = try OutputFiles.write(outcome.files, under: path.trimmingSlashes)
            } catch {
                console.standardError("\(error.path): error: cannot write: \(error.message)\n")
                return Modelgen.ExitStatus.modelErrors
            }
        }
        if let message = outcome.message { console.standardOutput("\(path): \(message)\n") }
        return Modelgen.ExitStatus.success
    }
}

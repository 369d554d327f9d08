import ModelCompiler

/// The generation options `generate`, `build` and `compile` accept, parsed into the overrides the
/// pipeline applies on top of `modelgen.yaml`.
enum GenerationOptions {
    static let specs: [CommandSpec.Option] = [
        .init(name: "--access", valueName: "<level>", help: "public (default), package or internal."),
        .init(name: "--import", valueName: "<module>", help: "A module every generated file imports (comma-separated for several)."),
        .init(name: "--templates", valueName: "<dir>", help: "A folder of .mustache templates overriding the defaults."),
        classPrefix, configuration,
        .init(
            name: "--no-query-typealiases", valueName: nil,
            help: "Leave out the module-wide NSPredicate/NSSortDescriptor… aliases (for all models of a target but one)."),
        .init(
            name: "--model-bundle", valueName: "<bundle>",
            help:
                "module or main: the bundle holding the compiled model at run time; adds <Model>Model.managedObjectModel and makeContainer()."
        ),
    ]

    static let classPrefix = CommandSpec.Option(
        name: "--class-prefix", valueName: "<prefix>", help: "Prefix class names of entities without an explicit class.",
        acceptsEmptyValue: true)
    static let configuration = CommandSpec.Option(
        name: "--config", valueName: "<file>", help: "A modelgen.yaml to read (default: the one beside the model, if any).")

    /// The overrides given on the command line; a value of the wrong shape is a usage error.
    static func overrides(_ arguments: ParsedArguments) throws(UsageError) -> GenerationOverrides {
        var overrides = GenerationOverrides()
        if let access = arguments.values["--access"] {
            guard let level = SwiftGenerator.AccessLevel(rawValue: access) else {
                throw UsageError(message: "--access must be public, package or internal, not '\(access)'")
            }
            overrides.accessLevel = level
        }
        if let layout = arguments.values["--layout"] {
            guard let parsed = SwiftGenerator.Layout(rawValue: layout) else {
                throw UsageError(message: "--layout must be entity or model, not '\(layout)'")
            }
            overrides.layout = parsed
        }
        if let imports = arguments.values["--import"] {
            let modules = imports.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            for module in modules {
                if let problem = Names.moduleNameProblem(module) { throw UsageError(message: "--import: \(problem)") }
            }
            overrides.imports = modules
        }
        if let prefix = arguments.values["--class-prefix"] {
            if let problem = Names.classPrefixProblem(prefix) { throw UsageError(message: "--class-prefix: \(problem)") }
            overrides.classPrefix = prefix
        }
        if arguments.flags.contains("--no-query-typealiases") { overrides.declaresQueryTypealiases = false }
        if let bundle = arguments.values["--model-bundle"] {
            guard let parsed = SwiftGenerator.ModelBundle(rawValue: bundle) else {
                throw UsageError(message: "--model-bundle must be module or main, not '\(bundle)'")
            }
            overrides.modelBundle = parsed
        }
        overrides.templatesFolder = arguments.values["--templates"]
        overrides.configurationFile = arguments.values["--config"]
        return overrides
    }
}

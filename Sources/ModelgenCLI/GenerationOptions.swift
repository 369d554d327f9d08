import Foundation
import ModelCompiler

extension SwiftGenerator.AccessLevel: ArgumentValue {}
extension SwiftGenerator.Layout: ArgumentValue {}
extension SwiftGenerator.ModelBundle: ArgumentValue {}

/// The generation options `generate`, `build` and `compile` accept, declared once, and the
/// overrides they make to `modelgen.yaml`.
enum GenerationOptions {
    static let access = Option<SwiftGenerator.AccessLevel>(
        "--access", valueName: "level", help: "The access level of the generated declarations.", default: "public")
    /// `generate` only: `build` always writes one file.
    static let layout = Option<SwiftGenerator.Layout>(
        "--layout", valueName: "layout", help: "A file per entity, or one file for the model.", default: "entity")
    static let imports = Option<String>(
        "--import", valueName: "module", help: "A module every generated file imports (comma-separated for several).",
        check: { value in
            modules(value).lazy.compactMap(Names.moduleNameProblem).first
        })
    static let templates = Option<String>("--templates", valueName: "dir", help: "A folder of .mustache templates overriding the defaults.")
    static let classPrefix = Option<String>(
        "--class-prefix", valueName: "prefix", help: "Prefix class names of entities without an explicit class.", acceptsEmptyValue: true,
        check: Names.classPrefixProblem)
    static let configuration = Option<String>(
        "--config", valueName: "file", help: "A modelgen.yaml to read.", default: "the one beside the model, if any")
    static let noQueryTypealiases = Flag(
        "--no-query-typealiases",
        help: "Leave out the module-wide NSPredicate/NSSortDescriptor… aliases (for all models of a target but one).")
    static let modelBundle = Option<SwiftGenerator.ModelBundle>(
        "--model-bundle", valueName: "bundle",
        help: "The bundle holding the compiled model at run time; adds <Model>Model.managedObjectModel and makeContainer().")

    /// The options `generate` and `build` share.
    static let shared = ArgumentGroup([access, imports, templates, classPrefix, configuration, noQueryTypealiases, modelBundle])

    /// The overrides given on the command line. Options a command does not declare are absent.
    static func overrides(_ arguments: ParsedArguments) -> GenerationOverrides {
        var overrides = GenerationOverrides()
        overrides.accessLevel = arguments[access]
        overrides.layout = arguments[layout]
        overrides.imports = arguments[imports].map(modules)
        overrides.classPrefix = arguments[classPrefix]
        if arguments[noQueryTypealiases] { overrides.declaresQueryTypealiases = false }
        overrides.modelBundle = arguments[modelBundle]
        overrides.templatesFolder = arguments[templates]
        overrides.configurationFile = arguments[configuration]
        return overrides
    }

    /// `A, B` → `["A", "B"]`.
    private static func modules(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    }
}

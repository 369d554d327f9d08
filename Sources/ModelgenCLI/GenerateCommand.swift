import Foundation
import ModelCompiler
import ModelSchema

/// `modelgen generate <model> --output <dir> [--access …] [--layout …] [--templates <dir>] [--check]`.
enum GenerateCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "generate",
        summary: "Generate the Swift sources of a model (managed object subclasses, versions, enums, composites).",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "The folder to write the sources into (required)."),
            .init(name: "--layout", valueName: "<layout>", help: "entity (a file per entity, default) or model (one file)."),
            .init(name: "--check", valueName: nil, help: "Write nothing; exit 1 listing files that are out of date."),
        ] + GenerationSettings.optionSpecs,
        discussion: """
            Writes only files whose bytes change and removes files it generated before that are no longer
            generated (recognised by their header), nothing else. With --check, exit status 1 means the
            folder differs from what would be generated. Options also come from a modelgen.yaml beside
            the model; the command line overrides it.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"] else { throw UsageError(message: "'modelgen generate' needs --output <dir>") }
        let modelPath = arguments.arguments[0]
        guard let (settings, model) = try GenerationSettings.load(arguments, modelPath: modelPath, console: console) else {
            return Modelgen.ExitStatus.modelErrors
        }
        let options = settings.options
        let files: [SwiftGenerator.File]
        do {
            files = try SwiftGenerator.generate(model, options: options)
        } catch {
            console.standardError(error.description)
            return Modelgen.ExitStatus.modelErrors
        }
        let plan = GeneratedFolder.plan(files, in: output)
        if arguments.flags.contains("--check") {
            guard plan.isUpToDate else {
                for name in plan.changed { console.standardError("\(output)/\(name): out of date\n") }
                for name in plan.missing { console.standardError("\(output)/\(name): missing\n") }
                for name in plan.stale { console.standardError("\(output)/\(name): no longer generated\n") }
                console.standardError("error: generated sources are out of date; run 'modelgen generate' and commit the result\n")
                return Modelgen.ExitStatus.modelErrors
            }
            return Modelgen.ExitStatus.success
        }
        do throws(OutputFiles.WriteError) {
            try GeneratedFolder.apply(plan, files: files, in: output)
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        return Modelgen.ExitStatus.success
    }
}

/// Generation settings from `modelgen.yaml` and the command line (which wins), shared by
/// `generate`, `build` and `compile`.
struct GenerationSettings {
    var options = SwiftGenerator.Options()
    var classPrefix = ""

    struct Failure: Error {}

    static let optionSpecs: [CommandSpec.Option] = [
        .init(name: "--access", valueName: "<level>", help: "public (default), package or internal."),
        .init(name: "--import", valueName: "<module>", help: "A module every generated file imports (comma-separated for several)."),
        .init(name: "--templates", valueName: "<dir>", help: "A folder of .mustache templates overriding the defaults."),
        .init(
            name: "--class-prefix", valueName: "<prefix>", help: "Prefix class names of entities without an explicit class.",
            acceptsEmptyValue: true),
        .init(name: "--config", valueName: "<file>", help: "A modelgen.yaml to read (default: the one beside the model, if any)."),
    ]

    /// Reads the configuration file, then applies the command line. Prints problems with the
    /// configuration or the template folder and throws `Failure`; throws `UsageError` for bad values.
    static func resolve(_ arguments: ParsedArguments, modelPath: String, console: Console) throws -> GenerationSettings {
        var settings = GenerationSettings()
        settings.options.sourceName = (modelPath.trimmingSlashes as NSString).lastPathComponent
        var templatesFolder: String?
        if let configPath = arguments.values["--config"] ?? GeneratorConfiguration.file(besideModel: modelPath) {
            let (configuration, diagnostics) = GeneratorConfiguration.load(configPath)
            Report.diagnostics(diagnostics, console: console)
            guard let configuration else { throw Failure() }
            if let access = configuration.accessLevel { settings.options.accessLevel = access }
            if let layout = configuration.layout { settings.options.layout = layout }
            if let imports = configuration.imports { settings.options.extraImports = imports }
            templatesFolder = configuration.templatesFolder
            settings.classPrefix = configuration.classPrefix ?? ""
        }
        if let access = arguments.values["--access"] {
            guard let level = SwiftGenerator.AccessLevel(rawValue: access) else {
                throw UsageError(message: "--access must be public, package or internal, not '\(access)'")
            }
            settings.options.accessLevel = level
        }
        if let layout = arguments.values["--layout"] {
            guard let parsed = SwiftGenerator.Layout(rawValue: layout) else {
                throw UsageError(message: "--layout must be entity or model, not '\(layout)'")
            }
            settings.options.layout = parsed
        }
        if let imports = arguments.values["--import"] {
            settings.options.extraImports = imports.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        if let prefix = arguments.values["--class-prefix"] { settings.classPrefix = prefix }
        if let folder = arguments.values["--templates"] ?? templatesFolder {
            switch TemplateFolder.read(folder) {
            case .success(let templates): settings.options.templateOverrides = templates
            case .failure(let error):
                console.standardError("\(folder): error: \(error.message)\n")
                throw Failure()
            }
        }
        return settings
    }

    /// The settings and the model with the class prefix applied; nil after printing what was
    /// wrong with the configuration, the templates or the model.
    static func load(_ arguments: ParsedArguments, modelPath: String, console: Console) throws(UsageError) -> (GenerationSettings, Model)? {
        let settings: GenerationSettings
        do {
            settings = try resolve(arguments, modelPath: modelPath, console: console)
        } catch let error as UsageError {
            throw error
        } catch {
            return nil
        }
        return settings.loadModel(modelPath, console: console).map { (settings, $0) }
    }

    /// Loads the model and applies the class prefix; nil (after printing diagnostics) on errors.
    func loadModel(_ modelPath: String, console: Console) -> Model? {
        let result = Pipeline.load(modelPath)
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return nil }
        return model.applyingClassPrefix(classPrefix)
    }
}

/// Reads a folder of `.mustache` templates.
enum TemplateFolder {
    struct Failure: Error {
        let message: String
    }

    static func read(_ folder: String) -> Result<[String: String], Failure> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return .failure(Failure(message: "cannot read the template folder"))
        }
        var templates: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".mustache") {
            guard let text = try? String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8) else {
                return .failure(Failure(message: "cannot read \(name)"))
            }
            templates[String(name.dropLast(".mustache".count))] = text
        }
        let unknown = templates.keys.filter { !SwiftGenerator.templateNames.contains($0) }.sorted()
        if !unknown.isEmpty {
            return .failure(
                Failure(
                    message:
                        "unknown template \(unknown.map { "'\($0).mustache'" }.joined(separator: ", ")); templates are \(SwiftGenerator.templateNames.map { "\($0).mustache" }.joined(separator: ", "))"
                ))
        }
        return .success(templates)
    }
}

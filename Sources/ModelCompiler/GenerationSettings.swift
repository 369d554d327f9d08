import Foundation
import ModelSchema

/// What the command line sets for generation; nil means not given, so `modelgen.yaml` or the
/// default applies.
public struct GenerationOverrides: Equatable, Sendable {
    public var accessLevel: SwiftGenerator.AccessLevel?
    public var layout: SwiftGenerator.Layout?
    public var imports: [String]?
    public var templatesFolder: String?
    public var classPrefix: String?
    /// `--model-bundle`: the bundle generated code loads the compiled model from.
    public var modelBundle: SwiftGenerator.ModelBundle?
    /// A `modelgen.yaml` to read instead of the one beside the model.
    public var configurationFile: String?
    /// `SwiftGenerator.Options.declaresQueryTypealiases` (`--no-query-typealiases` sets false).
    public var declaresQueryTypealiases: Bool?

    public init() {}
}

/// The generation settings of one run: `modelgen.yaml` (the one named, or the one beside the
/// model), then the command line on top. Values are checked wherever they come from (the
/// configuration file's where they are read, with their location): imports are module names and
/// the class prefix starts a Swift identifier.
struct GenerationSettings {
    var options = SwiftGenerator.Options()
    var classPrefix = ""

    /// The settings, or nil after reporting what is wrong with the configuration file, the
    /// template folder or a value.
    static func resolve(_ overrides: GenerationOverrides, modelPath: String, diagnostics: DiagnosticCollector) -> GenerationSettings? {
        var settings = GenerationSettings()
        settings.options.sourceName = (modelPath.trimmingSlashes as NSString).lastPathComponent
        var templatesFolder: String?
        if let configPath = overrides.configurationFile ?? GeneratorConfiguration.file(besideModel: modelPath) {
            let (configuration, problems) = GeneratorConfiguration.load(configPath)
            diagnostics.append(contentsOf: problems)
            guard let configuration else { return nil }
            if let access = configuration.accessLevel { settings.options.accessLevel = access }
            if let layout = configuration.layout { settings.options.layout = layout }
            if let imports = configuration.imports { settings.options.extraImports = imports }
            templatesFolder = configuration.templatesFolder
            settings.classPrefix = configuration.classPrefix ?? ""
        }
        if let access = overrides.accessLevel { settings.options.accessLevel = access }
        if let layout = overrides.layout { settings.options.layout = layout }
        if let imports = overrides.imports { settings.options.extraImports = imports }
        if let prefix = overrides.classPrefix { settings.classPrefix = prefix }
        if let declares = overrides.declaresQueryTypealiases { settings.options.declaresQueryTypealiases = declares }
        if let bundle = overrides.modelBundle { settings.options.modelBundle = bundle }
        let commandLine = SourceLocation.file("<command line>")
        var valid = true
        for module in overrides.imports ?? [] {
            if let problem = Names.moduleNameProblem(module) {
                diagnostics.error("cannot import \(problem)", at: commandLine)
                valid = false
            }
        }
        if let problem = overrides.classPrefix.flatMap(Names.classPrefixProblem) {
            diagnostics.error("class prefix \(problem)", at: commandLine)
            valid = false
        }
        if let folder = overrides.templatesFolder ?? templatesFolder {
            switch TemplateFolder.read(folder) {
            case .success(let templates):
                settings.options.templateOverrides = templates
                settings.options.templatesFolder = folder
            case .failure(let failure):
                diagnostics.error(failure.message, at: .file(folder))
                valid = false
            }
        }
        return valid ? settings : nil
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

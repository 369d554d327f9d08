import Foundation
import ModelSchema

/// The optional `modelgen.yaml` that sets generation options for the models beside it (or, for
/// the SwiftPM plugins, at the target's root). Command-line options override it.
///
/// ```yaml
/// access: internal          # public | package | internal
/// layout: model             # entity | model (modelgen generate only)
/// imports: [MyKit]          # extra modules every generated file imports
/// templates: Templates      # a folder of .mustache overrides, relative to this file
/// classPrefix: CD           # prefix for class names of entities without an explicit class
/// ```
public struct GeneratorConfiguration: Equatable, Sendable {
    public static let fileName = "modelgen.yaml"
    static let keys = ["access", "layout", "imports", "templates", "classPrefix"]

    public var accessLevel: SwiftGenerator.AccessLevel?
    public var layout: SwiftGenerator.Layout?
    public var imports: [String]?
    /// Resolved against the configuration file's folder.
    public var templatesFolder: String?
    public var classPrefix: String?

    public init() {}

    /// The configuration file that applies to a model: `modelgen.yaml` in the folder holding the
    /// model file or `.modeld` folder, if there is one.
    public static func file(besideModel modelPath: String) -> String? {
        let folder = (modelPath.trimmingSlashes as NSString).deletingLastPathComponent
        let candidate = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(fileName)
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    /// Reads a configuration file; problems are diagnostics with locations.
    public static func load(_ path: String) -> (configuration: GeneratorConfiguration?, diagnostics: [Diagnostic]) {
        let diagnostics = DiagnosticCollector()
        let reader = ModelSourceReader(diagnostics: diagnostics)
        guard let root = reader.parseSingleDocument(path),
            let mapping = MappingReader(root, context: "the configuration", diagnostics: diagnostics)
        else { return (nil, diagnostics.sorted) }
        mapping.rejectUnknownKeys(allowed: keys, diagnostics: diagnostics)
        let scalars = ScalarReader(diagnostics: diagnostics)
        var configuration = GeneratorConfiguration()
        if let node = mapping["access"], let text = scalars.string(node, "'access'") {
            configuration.accessLevel = SwiftGenerator.AccessLevel(rawValue: text)
            if configuration.accessLevel == nil {
                diagnostics.error("'access' must be public, package or internal, not '\(text)'", at: node.location)
            }
        }
        if let node = mapping["layout"], let text = scalars.string(node, "'layout'") {
            configuration.layout = SwiftGenerator.Layout(rawValue: text)
            if configuration.layout == nil { diagnostics.error("'layout' must be entity or model, not '\(text)'", at: node.location) }
        }
        if let node = mapping["imports"], let imports = scalars.stringList(node, "'imports'") {
            for (module, location) in imports {
                if let problem = Names.moduleNameProblem(module) { diagnostics.error("'imports': \(problem)", at: location) }
            }
            configuration.imports = imports.map(\.0)
        }
        if let node = mapping["templates"], let text = scalars.name(node, "'templates'") {
            configuration.templatesFolder =
                text.hasPrefix("/") ? text : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(text)
        }
        if let node = mapping["classPrefix"], let text = scalars.string(node, "'classPrefix'") {
            if Names.classPrefixProblem(text) != nil {
                diagnostics.error("'classPrefix' must be the start of a Swift identifier, not '\(text)'", at: node.location)
            }
            configuration.classPrefix = text
        }
        return (diagnostics.hasErrors ? nil : configuration, diagnostics.sorted)
    }
}

extension Model {
    /// The model with `prefix` before the class name of every entity that has no explicit class.
    public func applyingClassPrefix(_ prefix: String) -> Model {
        guard !prefix.isEmpty else { return self }
        var model = self
        for versionIndex in model.versions.indices {
            for entityIndex in model.versions[versionIndex].entities.indices
            where model.versions[versionIndex].entities[entityIndex].className == nil {
                model.versions[versionIndex].entities[entityIndex].className =
                    prefix + model.versions[versionIndex].entities[entityIndex].name
            }
        }
        return model
    }
}

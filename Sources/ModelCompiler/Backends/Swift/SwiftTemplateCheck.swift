import ModelSchema
import Mustache

/// Checks a template, and every template it includes, against the declared shape of the context
/// it renders with (`SwiftTemplateContext`) before anything renders. A tag naming a key no level
/// of the stack declares would render as empty text: in the embedded templates that is a bug, so
/// rendering is strict and fails; in templates a user supplies (`--templates`) it is lenient —
/// one warning per tag, naming the key, and rendering goes on. A tag counts as the user's when
/// the template holding it, or any template including it on the way, is an override.
enum SwiftTemplateCheck {
    static func check(_ name: String, templates: MustacheLibrary, options: SwiftGenerator.Options) throws(SwiftGenerator.TemplateError)
        -> [Diagnostic]
    {
        guard let stack = SwiftTemplateContext.fileShapes[name] else { return [] }
        let unknown: [MustacheUnknownName]
        do {
            unknown = try templates.unknownNames(in: name, stack: stack)
        } catch {
            throw SwiftGenerator.TemplateError(template: name, message: error.description)
        }
        var warnings: [Diagnostic] = []
        for tag in unknown {
            let location = SourceLocation(
                file: file(of: tag.template, options: options), line: tag.location.line, column: tag.location.column)
            let isUsers = tag.templates.contains { options.templateOverrides[$0] != nil }
            if isUsers {
                warnings.append(Diagnostic(.warning, message(for: tag) + "; it renders as empty text", at: location))
            } else {
                throw SwiftGenerator.TemplateError(template: tag.template, message: message(for: tag), location: location)
            }
        }
        return warnings
    }

    static func message(for tag: MustacheUnknownName) -> String {
        let included =
            tag.templates.count > 1
            ? " (included from \(tag.templates.dropLast().reversed().map { "\($0).mustache" }.joined(separator: ", from ")))" : ""
        switch tag.kind {
        case .key: return "'\(tag.name)' is not a key of the template context\(included)"
        case .partial: return "no template named '\(tag.name)'\(included)"
        }
    }

    /// The path diagnostics name a template by: in the templates folder for an override.
    static func file(of template: String, options: SwiftGenerator.Options) -> String {
        let name = "\(template).mustache"
        guard options.templateOverrides[template] != nil, let folder = options.templatesFolder else { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

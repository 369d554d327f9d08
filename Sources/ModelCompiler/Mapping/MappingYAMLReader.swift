import Foundation
import ModelSchema

/// Reads a mapping model written in YAML, `<Name>.mapping.yaml` inside a `.modeld` folder
/// (`docs/ModelFormat.md`, "Mapping models"): the two versions it maps (`from`, `to`) and its
/// entity mappings in order, each with only what differs from what Xcode's editor generates.
/// Expressions are `NSExpression` text; an expression that does not parse is an error at its
/// column.
struct MappingYAMLReader {
    static let suffix = ".mapping.yaml"
    static let topKeys = ["from", "to", "entities"]
    static let entityKeys = ["name", "type", "source", "destination", "policy", "sourceExpression", "attributes", "relationships"]

    let diagnostics: DiagnosticCollector

    static func name(of path: String) -> String {
        let file = (path.trimmingSlashes as NSString).lastPathComponent
        return file.hasSuffix(suffix) ? String(file.dropLast(suffix.count)) : file
    }

    func read(_ path: String) -> MappingSource? {
        guard let root = ModelSourceReader(diagnostics: diagnostics).parseSingleDocument(path),
            let top = MappingReader(root, context: "the mapping model", diagnostics: diagnostics)
        else { return nil }
        top.rejectUnknownKeys(allowed: Self.topKeys, diagnostics: diagnostics)
        let scalars = ScalarReader(diagnostics: diagnostics)
        let version = { (key: String, what: String) -> MappingSource.VersionReference? in
            guard let node = top[key] else {
                diagnostics.error("the mapping model needs '\(key)', the \(what) version", at: root.location)
                return nil
            }
            return scalars.name(node, "'\(key)'").map { MappingSource.VersionReference(name: $0, location: node.location) }
        }
        let from = version("from", "source")
        let to = version("to", "destination")
        var entities: [EntityMappingSource] = []
        if let list = top["entities"] {
            if let items = list.sequenceItems {
                entities = items.compactMap(entityMapping)
            } else if !list.isNull {
                diagnostics.error("'entities' must be a list of entity mappings, found \(list.kindDescription)", at: list.location)
            }
        }
        return MappingSource(
            name: Self.name(of: path), path: path, sourceVersion: from, destinationVersion: to, entityMappings: entities,
            listsEveryProperty: false)
    }

    private func entityMapping(_ node: YAMLNode) -> EntityMappingSource? {
        guard let fields = MappingReader(node, context: "an entity mapping", diagnostics: diagnostics) else { return nil }
        fields.rejectUnknownKeys(allowed: Self.entityKeys, diagnostics: diagnostics)
        let scalars = ScalarReader(diagnostics: diagnostics)
        let text = { (key: String) -> String? in fields[key].flatMap { scalars.name($0, "'\(key)'") } }
        if fields["source"] == nil && fields["destination"] == nil {
            diagnostics.error("an entity mapping needs 'source', 'destination' or both", at: node.location)
        }
        return EntityMappingSource(
            name: text("name"), typeName: text("type"), typeLocation: fields["type"]?.location, sourceEntityName: text("source"),
            destinationEntityName: text("destination"),
            sourceLocation: fields["source"]?.location, destinationLocation: fields["destination"]?.location,
            policyClassName: text("policy"), sourceExpression: fields["sourceExpression"].flatMap { expression($0) },
            attributeMappings: propertyMappings(fields["attributes"], "attributes"),
            relationshipMappings: propertyMappings(fields["relationships"], "relationships"), location: node.location)
    }

    /// `<property>: <expression>` entries; `null` asks for no value.
    private func propertyMappings(_ node: YAMLNode?, _ key: String) -> [PropertyMappingSource] {
        guard let node, let fields = MappingReader(node, context: "'\(key)'", diagnostics: diagnostics) else { return [] }
        return fields.keys.compactMap { name, keyNode in
            guard let value = fields[name] else { return nil }
            if value.isNull { return PropertyMappingSource(name: name, valueExpression: nil, hasNoValue: true, location: keyNode.location) }
            guard let expression = expression(value) else { return nil }
            return PropertyMappingSource(name: name, valueExpression: expression, location: keyNode.location)
        }
    }

    /// The expression a scalar holds; a syntax error points at its column on the scalar's line
    /// (for a quoted scalar, past the opening quote).
    private func expression(_ node: YAMLNode) -> MappingExpression? {
        guard case .scalar(let text, let style) = node.content, !node.isNull else {
            diagnostics.error("an expression must be a string, found \(node.kindDescription)", at: node.location)
            return nil
        }
        do {
            return try MappingExpression(format: text)
        } catch {
            let location = node.location
            let column: Int
            switch style {
            case .plain: column = location.column + error.column - 1
            case .singleQuoted, .doubleQuoted: column = location.column + error.column
            case .literal, .folded: column = location.column
            }
            diagnostics.error(
                "the expression cannot be read: \(error.message)",
                at: SourceLocation(file: location.file, line: location.line, column: column))
            return nil
        }
    }
}

import ModelSchema

/// Writes a mapping model as YAML (the form ``MappingYAMLReader`` reads): each entity mapping
/// with only what differs from what Xcode's editor generates for it — its name and type when not
/// the ones Xcode derives, its policy, and the property expressions that are not the generated
/// ones (`null` for a property left without a value).
enum MappingYAMLWriter {
    /// `written` are the entity mappings as read, `compiled` the same mappings compiled, and
    /// `generated` what the compiler makes of them with no expression written.
    static func text(
        from: String, to: String, written: [EntityMappingSource], compiled: [MappingModel.EntityMapping],
        generated: [MappingModel.EntityMapping]
    ) -> String {
        var lines = ["from: \(scalar(from))", "to: \(scalar(to))", "entities:"]
        for ((source, mapping), defaults) in zip(zip(written, compiled), generated) {
            var fields: [String] = []
            if let name = source.sourceEntityName { fields.append("source: \(scalar(name))") }
            if let name = source.destinationEntityName { fields.append("destination: \(scalar(name))") }
            if mapping.name
                != MappingCompiler.mappingName(
                    EntityMappingSource(
                        name: nil, sourceEntityName: source.sourceEntityName, destinationEntityName: source.destinationEntityName,
                        attributeMappings: [], relationshipMappings: [], location: source.location))
            {
                fields.append("name: \(scalar(mapping.name))")
            }
            if let type = source.typeName, type != "Undefined" { fields.append("type: \(scalar(type))") }
            if let policy = mapping.entityMigrationPolicyClassName { fields.append("policy: \(scalar(policy))") }
            if mapping.sourceExpression != defaults.sourceExpression {
                fields.append("sourceExpression: \(mapping.sourceExpression.map { scalar($0.description) } ?? "null")")
            }
            fields += properties("attributes", mapping.attributeMappings, defaults.attributeMappings)
            fields += properties("relationships", mapping.relationshipMappings, defaults.relationshipMappings)
            lines.append("  - " + fields[0])
            lines += fields.dropFirst().map { "    " + $0 }
        }
        if written.isEmpty { lines[lines.count - 1] = "entities: []" }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func properties(
        _ key: String, _ mappings: [MappingModel.PropertyMapping], _ defaults: [MappingModel.PropertyMapping]
    ) -> [String] {
        let generated = Dictionary(defaults.compactMap { mapping in mapping.name.map { ($0, mapping.valueExpression) } }) { first, _ in
            first
        }
        let entries = mappings.compactMap { mapping -> String? in
            guard let name = mapping.name, generated[name] != .some(mapping.valueExpression) else { return nil }
            return "  \(scalar(name)): \(mapping.valueExpression.map { scalar($0.description) } ?? "null")"
        }
        return entries.isEmpty ? [] : ["\(key):"] + entries
    }

    /// A plain scalar when the text is a simple name, otherwise single-quoted.
    static func scalar(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.".unicodeScalars.contains($0) }
            && !["null", "true", "false", "yes", "no", "on", "off", "~"].contains(text.lowercased())
            && !(text.first.map { $0.isNumber } ?? false)
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

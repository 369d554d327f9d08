import ModelSchema

extension VersionReader {
    static let fetchedPropertyKeys = ["entity", "predicate", "optional", "userInfo", "documentation"]

    /// `compoundIndexes: [[name, date], [title]]`: older Xcode's compound indexes, kept as written.
    mutating func readCompoundIndexes(_ node: YAMLNode, entityName: String) -> [[String]] {
        guard let items = node.sequenceItems else {
            diagnostics.error("'compoundIndexes' must be a list of property lists, found \(node.kindDescription)", at: node.location)
            return []
        }
        var indexes: [[String]] = []
        for (indexNumber, item) in items.enumerated() {
            guard let members = ScalarReader(diagnostics: diagnostics).stringList(item, "a compound index") else { continue }
            if members.isEmpty {
                diagnostics.error("a compound index must name at least one property", at: item.location)
                continue
            }
            for (memberIndex, member) in members.enumerated() {
                locations["\(entityName).compoundIndex.\(indexNumber).\(memberIndex)"] = member.1
            }
            indexes.append(members.map(\.0))
        }
        return indexes
    }

    /// `fetchedProperties: { recent: { entity: Note, predicate: "folder == $FETCH_SOURCE" } }`.
    mutating func readFetchedProperties(_ node: YAMLNode, entityName: String) -> [FetchedProperty] {
        let scalars = ScalarReader(diagnostics: diagnostics)
        guard let reader = MappingReader(node, context: "the fetched properties of entity '\(entityName)'", diagnostics: diagnostics)
        else { return [] }
        var properties: [FetchedProperty] = []
        for (name, key) in reader.keys {
            let context = "fetched property '\(entityName).\(name)'"
            guard let mapping = MappingReader(reader[name]!, context: context, diagnostics: diagnostics) else { continue }
            mapping.rejectUnknownKeys(allowed: Self.fetchedPropertyKeys, diagnostics: diagnostics)
            guard let entityNode = mapping["entity"], let fetched = scalars.name(entityNode, "the entity of \(context)") else {
                if mapping["entity"] == nil { diagnostics.error("\(context) needs 'entity'", at: key.location) }
                continue
            }
            locations["\(entityName).\(name).entity"] = entityNode.location
            var property = FetchedProperty(name: name, entityName: fetched, location: key.location)
            if let predicate = mapping["predicate"] {
                property.predicate = scalars.name(predicate, "the predicate of \(context)")
                locations["\(entityName).\(name).predicate"] = Self.textStart(of: predicate)
            }
            if let optional = mapping["optional"] { property.isOptional = scalars.bool(optional, "'optional'") ?? true }
            if let userInfo = mapping["userInfo"] { property.userInfo = scalars.userInfo(userInfo) }
            if let documentation = mapping["documentation"] { property.documentation = scalars.string(documentation, "'documentation'") }
            properties.append(property)
        }
        return properties
    }

    /// Where the text of a scalar starts on its line: past the opening quote of a quoted scalar;
    /// nil for a block scalar (its text starts on a later line), whose node location is used.
    static func textStart(of node: YAMLNode) -> SourceLocation? {
        guard case .scalar(_, let style) = node.content else { return nil }
        let location = node.location
        switch style {
        case .plain: return location
        case .singleQuoted, .doubleQuoted: return SourceLocation(file: location.file, line: location.line, column: location.column + 1)
        case .literal, .folded: return nil
        }
    }
}

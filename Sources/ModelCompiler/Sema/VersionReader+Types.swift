import ModelSchema

extension VersionReader {
    /// `Location: { latitude: Double, longitude: Double }`: a composite is a mapping of fields.
    mutating func readComposite(name: String, key: YAMLNode, node: YAMLNode) -> CompositeType? {
        guard let reader = MappingReader(node, context: "composite '\(name)'", diagnostics: diagnostics) else { return nil }
        let fields = reader.keys.compactMapReserved { fieldName, fieldKey in
            readAttribute(name: fieldName, key: fieldKey, node: reader[fieldName]!, owner: "composite '\(name)'", inComposite: true)
        }
        if reader.keys.isEmpty {
            diagnostics.warning("composite '\(name)' declares no attributes", at: key.location)
        }
        return CompositeType(name: name, attributes: fields, location: key.location)
    }

    static let enumKeys = ["type", "cases", "documentation"]

    /// `Status: [planned, done]` (String raw values equal to the names), or the long form
    /// `Priority: { type: Integer 16, cases: { low: 0, high: 1 } }`.
    func readEnums(_ node: YAMLNode) -> [EnumType] {
        guard let reader = MappingReader(node, context: "enums", diagnostics: diagnostics) else { return [] }
        return reader.keys.compactMapReserved { name, key in readEnum(name: name, key: key, node: reader[name]!) }
    }

    private func readEnum(name: String, key: YAMLNode, node: YAMLNode) -> EnumType? {
        let scalars = ScalarReader(diagnostics: diagnostics)
        var rawType = AttributeType.string
        var documentation: String?
        var casesNode = node
        if node.sequenceItems == nil {
            guard let reader = MappingReader(node, context: "enum '\(name)'", diagnostics: diagnostics) else { return nil }
            reader.rejectUnknownKeys(allowed: Self.enumKeys, diagnostics: diagnostics)
            if let type = reader["type"], let typeName = scalars.name(type, "the raw type of enum '\(name)'") {
                let resolved = TypeNames.scalarTypesByName[typeName]
                if let resolved, resolved == .string || resolved.isInteger {
                    rawType = resolved
                } else {
                    diagnostics.error(
                        "enum raw type must be String or an integer type, found '\(typeName)'\(Suggestions.didYouMean(typeName, in: ["String", "Integer 16", "Integer 32", "Integer 64"]))",
                        at: type.location)
                }
            }
            if let doc = reader["documentation"] { documentation = scalars.string(doc, "'documentation'") }
            guard let cases = reader["cases"] else {
                diagnostics.error("enum '\(name)' needs 'cases'", at: key.location)
                return nil
            }
            casesNode = cases
        }
        var cases: [EnumType.Case] = []
        if let items = casesNode.sequenceItems {
            for (index, item) in items.enumerated() {
                guard let caseName = scalars.name(item, "an enum case") else { continue }
                let raw: AttributeValue = rawType == .string ? .string(caseName) : .integer(Int64(index))
                cases.append(EnumType.Case(name: caseName, rawValue: raw, location: item.location))
            }
        } else if let reader = MappingReader(casesNode, context: "the cases of enum '\(name)'", diagnostics: diagnostics) {
            let literals = LiteralReader(diagnostics: diagnostics)
            for (caseName, caseKey) in reader.keys {
                guard let raw = literals.literal(reader[caseName]!, of: rawType, "the raw value of case '\(caseName)'") else { continue }
                cases.append(EnumType.Case(name: caseName, rawValue: raw, location: caseKey.location))
            }
        }
        if cases.isEmpty {
            diagnostics.error("enum '\(name)' must have at least one case", at: key.location)
        }
        return EnumType(name: name, rawType: rawType, cases: cases, documentation: documentation, location: key.location)
    }

    static let configurationKeys = ["entities", "cloudKit"]

    /// `Cloud: [Trip, Stop]` or `Cloud: { entities: [Trip, Stop], cloudKit: true }`.
    mutating func readConfigurations(_ node: YAMLNode) -> [Configuration] {
        guard let reader = MappingReader(node, context: "configurations", diagnostics: diagnostics) else { return [] }
        let scalars = ScalarReader(diagnostics: diagnostics)
        var result: [Configuration] = []
        for (name, key) in reader.keys {
            var value = reader[name]!
            var cloudKit = false
            if value.mappingEntries != nil, let long = MappingReader(value, context: "configuration '\(name)'", diagnostics: diagnostics) {
                long.rejectUnknownKeys(allowed: Self.configurationKeys, diagnostics: diagnostics)
                if let flag = long["cloudKit"] { cloudKit = scalars.bool(flag, "'cloudKit'") ?? false }
                guard let entities = long["entities"] else {
                    diagnostics.error("configuration '\(name)' needs 'entities'", at: key.location)
                    continue
                }
                value = entities
            }
            guard let members = scalars.stringList(value, "the entities of configuration '\(name)'") else { continue }
            for (index, member) in members.enumerated() { locations["configuration.\(name).\(index)"] = member.1 }
            result.append(Configuration(name: name, entityNames: members.map(\.0), usedWithCloudKit: cloudKit, location: key.location))
        }
        return result
    }
}

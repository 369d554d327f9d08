import ModelSchema

/// Locations of individual values inside declarations (an inverse name, a constraint member),
/// so that cross-reference checks can point at exactly what the user wrote.
struct LocationTable {
    private var locations: [String: SourceLocation] = [:]

    subscript(_ key: String) -> SourceLocation? {
        get { locations[key] }
        set { locations[key] = newValue }
    }

    mutating func merge(_ other: LocationTable) {
        locations.merge(other.locations) { mine, _ in mine }
    }
}

/// Turns the YAML tree of one version file into a ``ModelVersion``, reporting every shape
/// problem: unknown keys, wrong kinds of values, unknown types, duplicate names.
struct VersionReader {
    static let topLevelKeys = ["entities", "composites", "enums", "configurations", "versionIdentifier"]
    /// Top-level keys starting with this are ignored: they hold anchors for reuse (`x-common: &common`).
    static let extensionKeyPrefix = "x-"
    static let entityKeys = [
        "attributes", "relationships", "parent", "abstract", "class", "unique", "indexes", "versionHashModifier",
        "renamingIdentifier", "userInfo", "documentation", "compoundIndexes", "fetchedProperties",
    ]

    let diagnostics: DiagnosticCollector
    var locations = LocationTable()
    private var scalars: ScalarReader { ScalarReader(diagnostics: diagnostics) }
    /// Composite and enum names of the version, known before any attribute is read.
    private(set) var compositeNames: Set<String> = []
    private(set) var enumTypes: [String: EnumType] = [:]

    init(diagnostics: DiagnosticCollector) {
        self.diagnostics = diagnostics
    }

    mutating func read(_ root: YAMLNode, versionName: String) -> ModelVersion {
        var version = ModelVersion(name: versionName, location: root.location)
        XMLCharacterCheck.check(root, diagnostics: diagnostics)
        guard let top = MappingReader(root, context: "a model file", diagnostics: diagnostics) else { return version }
        top.rejectUnknownKeys(allowed: Self.topLevelKeys, extensionPrefix: Self.extensionKeyPrefix, diagnostics: diagnostics)

        if let enums = top["enums"] { version.enums = readEnums(enums) }
        enumTypes = Dictionary(version.enums.map { ($0.name, $0) }) { first, _ in first }
        if let composites = top["composites"], let reader = MappingReader(composites, context: "composites", diagnostics: diagnostics) {
            compositeNames = Set(reader.keys.map(\.name))
            version.composites = reader.keys.compactMapReserved { name, key in
                readComposite(name: name, key: key, node: reader[name]!)
            }
        }
        if let entities = top["entities"], let reader = MappingReader(entities, context: "entities", diagnostics: diagnostics) {
            version.entities = reader.keys.compactMapReserved { name, key in readEntity(name: name, key: key, node: reader[name]!) }
        }
        if let configurations = top["configurations"] { version.configurations = readConfigurations(configurations) }
        if let identifier = top["versionIdentifier"] { version.versionIdentifier = scalars.string(identifier, "'versionIdentifier'") }
        return version
    }

    // MARK: Entities

    private mutating func readEntity(name: String, key: YAMLNode, node: YAMLNode) -> Entity? {
        guard let reader = MappingReader(node, context: "entity '\(name)'", diagnostics: diagnostics) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.entityKeys, diagnostics: diagnostics)
        var entity = Entity(name: name, location: key.location)
        if let parent = reader["parent"] {
            entity.parentName = scalars.name(parent, "the parent of entity '\(name)'")
            locations["\(name).parent"] = parent.location
        }
        if let abstract = reader["abstract"] { entity.isAbstract = scalars.bool(abstract, "'abstract'") ?? false }
        if let className = reader["class"] {
            entity.className = scalars.name(className, "the class name of entity '\(name)'")
            locations["\(name).class"] = className.location
        }
        if let modifier = reader["versionHashModifier"] { entity.versionHashModifier = scalars.string(modifier, "'versionHashModifier'") }
        if let renaming = reader["renamingIdentifier"] { entity.renamingIdentifier = scalars.name(renaming, "'renamingIdentifier'") }
        if let userInfo = reader["userInfo"] { entity.userInfo = scalars.userInfo(userInfo) }
        if let documentation = reader["documentation"] { entity.documentation = scalars.string(documentation, "'documentation'") }
        if let attributes = reader["attributes"],
            let attributeReader = MappingReader(attributes, context: "the attributes of entity '\(name)'", diagnostics: diagnostics)
        {
            entity.attributes = attributeReader.keys.compactMapReserved { attributeName, key in
                readAttribute(
                    name: attributeName, key: key, node: attributeReader[attributeName]!, owner: "entity '\(name)'", inComposite: false)
            }
        }
        if let relationships = reader["relationships"],
            let relationshipReader = MappingReader(
                relationships, context: "the relationships of entity '\(name)'", diagnostics: diagnostics)
        {
            entity.relationships = relationshipReader.keys.compactMapReserved { relationshipName, key in
                readRelationship(name: relationshipName, key: key, node: relationshipReader[relationshipName]!, entityName: name)
            }
        }
        if let unique = reader["unique"] { entity.uniquenessConstraints = readConstraints(unique, entityName: name) }
        if let indexes = reader["indexes"] { entity.fetchIndexes = readIndexes(indexes, entityName: name) }
        if let compound = reader["compoundIndexes"] { entity.compoundIndexes = readCompoundIndexes(compound, entityName: name) }
        if let fetched = reader["fetchedProperties"] { entity.fetchedProperties = readFetchedProperties(fetched, entityName: name) }
        return entity
    }

    /// `unique: [id, [name, date]]`: each item is one constraint, a name or a list of names.
    private mutating func readConstraints(_ node: YAMLNode, entityName: String) -> [[String]] {
        guard let items = node.sequenceItems else {
            diagnostics.error("'unique' must be a list of constraints, found \(node.kindDescription)", at: node.location)
            return []
        }
        var constraints: [[String]] = []
        for (constraintIndex, item) in items.enumerated() {
            guard let members = scalars.stringList(item, "a uniqueness constraint") else { continue }
            if members.isEmpty {
                diagnostics.error("a uniqueness constraint must name at least one property", at: item.location)
                continue
            }
            for (memberIndex, member) in members.enumerated() {
                locations["\(entityName).unique.\(constraintIndex).\(memberIndex)"] = member.1
            }
            constraints.append(members.map(\.0))
        }
        return constraints
    }

    static let indexKeys = ["elements", "type"]

    /// `indexes: { byDate: [date, { property: name, order: descending }] }`, or with the long form
    /// `byArea: { elements: [...], type: rtree }`.
    private func readIndexes(_ node: YAMLNode, entityName: String) -> [FetchIndex] {
        guard let reader = MappingReader(node, context: "the indexes of entity '\(entityName)'", diagnostics: diagnostics) else {
            return []
        }
        var indexes: [FetchIndex] = []
        for (name, key) in reader.keys {
            let value = reader[name]!
            var kind = FetchIndex.Kind.binary
            var elementsNode = value
            if value.mappingEntries != nil, let long = MappingReader(value, context: "index '\(name)'", diagnostics: diagnostics) {
                long.rejectUnknownKeys(allowed: Self.indexKeys, diagnostics: diagnostics)
                if let type = long["type"], let text = scalars.string(type, "the index type") {
                    if let parsed = FetchIndex.Kind(rawValue: text) {
                        kind = parsed
                    } else {
                        diagnostics.error(
                            "unknown index type '\(text)'\(Suggestions.didYouMean(text, in: FetchIndex.Kind.allCases.map(\.rawValue)))",
                            at: type.location)
                    }
                }
                guard let elements = long["elements"] else {
                    diagnostics.error("index '\(name)' needs 'elements'", at: key.location)
                    continue
                }
                elementsNode = elements
            }
            guard let items = elementsNode.sequenceItems, !items.isEmpty else {
                diagnostics.error("index '\(name)' must list at least one property", at: elementsNode.location)
                continue
            }
            let elements = items.compactMap { readIndexElement($0) }
            indexes.append(FetchIndex(name: name, elements: elements, kind: kind, location: key.location))
        }
        return indexes
    }

    static let indexElementKeys = ["property", "order"]

    private func readIndexElement(_ node: YAMLNode) -> FetchIndex.Element? {
        if node.mappingEntries == nil {
            return scalars.name(node, "an index element").map { FetchIndex.Element(propertyName: $0, location: node.location) }
        }
        guard let reader = MappingReader(node, context: "an index element", diagnostics: diagnostics) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.indexElementKeys, diagnostics: diagnostics)
        guard let property = reader["property"], let name = scalars.name(property, "the index element's property") else {
            diagnostics.error("an index element needs 'property'", at: node.location)
            return nil
        }
        var ascending = true
        if let order = reader["order"], let text = scalars.string(order, "the index order") {
            switch text {
            case "ascending": ascending = true
            case "descending": ascending = false
            default:
                diagnostics.error(
                    "index order must be 'ascending' or 'descending', found '\(text)'\(Suggestions.didYouMean(text, in: ["ascending", "descending"]))",
                    at: order.location)
            }
        }
        return FetchIndex.Element(propertyName: name, isAscending: ascending, location: property.location)
    }

    // MARK: Relationships

    static let relationshipKeys = [
        "to", "toMany", "ordered", "inverse", "oneWay", "deleteRule", "minCount", "maxCount", "optional", "transient",
        "renamingIdentifier", "versionHashModifier", "userInfo", "documentation",
    ]

    private mutating func readRelationship(name: String, key: YAMLNode, node: YAMLNode, entityName: String) -> Relationship? {
        let context = "relationship '\(entityName).\(name)'"
        guard let reader = MappingReader(node, context: context, diagnostics: diagnostics) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.relationshipKeys, diagnostics: diagnostics)
        guard let destinationNode = reader["to"] else {
            diagnostics.error("\(context) needs a destination entity ('to: EntityName')", at: key.location)
            return nil
        }
        guard let destination = scalars.name(destinationNode, "the destination of \(context)") else { return nil }
        let path = "\(entityName).\(name)"
        locations["\(path).to"] = destinationNode.location
        var relationship = Relationship(name: name, destinationName: destination, location: key.location)
        if let toMany = reader["toMany"] { relationship.isToMany = scalars.bool(toMany, "'toMany'") ?? false }
        if let ordered = reader["ordered"] {
            relationship.isOrdered = scalars.bool(ordered, "'ordered'") ?? false
            locations["\(path).ordered"] = ordered.location
        }
        if let inverse = reader["inverse"] {
            relationship.inverseName = scalars.name(inverse, "the inverse of \(context)")
            locations["\(path).inverse"] = inverse.location
        }
        if let oneWay = reader["oneWay"] {
            relationship.isOneWay = scalars.bool(oneWay, "'oneWay'") ?? false
            locations["\(path).oneWay"] = oneWay.location
        }
        if let rule = reader["deleteRule"], let text = scalars.string(rule, "the delete rule") {
            if let parsed = RelationshipDeleteRule(rawValue: text) {
                relationship.deleteRule = parsed
            } else {
                diagnostics.error(
                    "unknown delete rule '\(text)'\(Suggestions.didYouMean(text, in: RelationshipDeleteRule.allCases.map(\.rawValue)))",
                    at: rule.location)
            }
            locations["\(path).deleteRule"] = rule.location
        }
        if let minCount = reader["minCount"] {
            relationship.minCount = scalars.int(minCount, "'minCount'", maximum: Relationship.largestCount)
            locations["\(path).minCount"] = minCount.location
        }
        if let maxCount = reader["maxCount"] {
            relationship.maxCount = scalars.int(maxCount, "'maxCount'", minimum: 1, maximum: Relationship.largestCount)
            locations["\(path).maxCount"] = maxCount.location
        }
        if let optional = reader["optional"] { relationship.isOptional = scalars.bool(optional, "'optional'") ?? true }
        if let transient = reader["transient"] { relationship.isTransient = scalars.bool(transient, "'transient'") ?? false }
        if let renaming = reader["renamingIdentifier"] { relationship.renamingIdentifier = scalars.name(renaming, "'renamingIdentifier'") }
        if let modifier = reader["versionHashModifier"] {
            relationship.versionHashModifier = scalars.string(modifier, "'versionHashModifier'")
        }
        if let userInfo = reader["userInfo"] { relationship.userInfo = scalars.userInfo(userInfo) }
        if let documentation = reader["documentation"] { relationship.documentation = scalars.string(documentation, "'documentation'") }
        return relationship
    }
}

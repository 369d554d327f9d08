import ModelSchema

/// Writes a ``Model`` in the modelgen YAML format: the shortest form that reads back to the same
/// model, in declaration order, with only non-default keys. Used by `modelgen import`.
public enum YAMLModelWriter {
    /// The files of the model: path relative to the output folder → text.
    public static func files(for model: Model) -> [(path: String, text: String)] {
        if model.versions.count == 1, let version = model.versions.first, version.name == model.name {
            return [("\(model.name).model.yaml", text(for: version))]
        }
        let folder = "\(model.name).modeld"
        var manifest = "versions:\n" + model.versions.map { "  - \(scalar($0.name))\n" }.joined()
        manifest += "current: \(scalar(model.currentVersionName))\n"
        if !model.shippedVersionNames.isEmpty {
            manifest += "shipped: [" + model.shippedVersionNames.map(scalar).joined(separator: ", ") + "]\n"
        }
        return [("\(folder)/versions.yaml", manifest)] + model.versions.map { ("\(folder)/\($0.name).model.yaml", text(for: $0)) }
    }

    public static func text(for version: ModelVersion) -> String {
        var sections: [String] = []
        if let identifier = version.versionIdentifier { sections.append("versionIdentifier: \(scalar(identifier))\n") }
        if !version.entities.isEmpty || version.composites.isEmpty && version.enums.isEmpty && version.configurations.isEmpty {
            sections.append(
                version.entities.isEmpty ? "entities: {}\n" : "entities:\n" + version.entities.map(entityText).joined(separator: "\n"))
        }
        if !version.composites.isEmpty {
            var text = "composites:\n"
            for composite in version.composites {
                text += "  \(scalar(composite.name)):" + (composite.attributes.isEmpty ? " {}\n" : "\n")
                for field in composite.attributes { text += "    \(scalar(field.name)): \(attributeValue(field))\n" }
            }
            sections.append(text)
        }
        if !version.enums.isEmpty {
            sections.append("enums:\n" + version.enums.map { "  \(scalar($0.name)): \(enumValue($0))\n" }.joined())
        }
        if !version.configurations.isEmpty {
            var text = "configurations:\n"
            for configuration in version.configurations {
                let entities = "[" + configuration.entityNames.map(scalar).joined(separator: ", ") + "]"
                text += "  \(scalar(configuration.name)): "
                text += configuration.usedWithCloudKit ? "{ entities: \(entities), cloudKit: true }\n" : "\(entities)\n"
            }
            sections.append(text)
        }
        return sections.joined(separator: "\n")
    }

    private static func entityText(_ entity: Entity) -> String {
        var output = "  \(scalar(entity.name)):\n"
        if let documentation = entity.documentation { output += "    documentation: \(scalar(documentation))\n" }
        if let className = entity.className { output += "    class: \(scalar(className))\n" }
        if let parent = entity.parentName { output += "    parent: \(scalar(parent))\n" }
        if entity.isAbstract { output += "    abstract: true\n" }
        if !entity.attributes.isEmpty {
            output += "    attributes:\n"
            for attribute in entity.attributes { output += "      \(scalar(attribute.name)): \(attributeValue(attribute))\n" }
        }
        if !entity.relationships.isEmpty {
            output += "    relationships:\n"
            for relationship in entity.relationships {
                output += "      \(scalar(relationship.name)): \(relationshipValue(relationship))\n"
            }
        }
        if !entity.uniquenessConstraints.isEmpty {
            let items = entity.uniquenessConstraints.map { members in
                members.count == 1 ? scalar(members[0]) : "[" + members.map(scalar).joined(separator: ", ") + "]"
            }
            output += "    unique: [" + items.joined(separator: ", ") + "]\n"
        }
        if !entity.fetchIndexes.isEmpty {
            output += "    indexes:\n"
            for index in entity.fetchIndexes {
                let elements =
                    "["
                    + index.elements.map { element in
                        element.isAscending
                            ? scalar(element.propertyName) : "{ property: \(scalar(element.propertyName)), order: descending }"
                    }.joined(separator: ", ") + "]"
                output +=
                    "      \(scalar(index.name)): " + (index.kind == .binary ? elements : "{ type: rtree, elements: \(elements) }") + "\n"
            }
        }
        if !entity.compoundIndexes.isEmpty {
            output +=
                "    compoundIndexes: ["
                + entity.compoundIndexes.map { "[" + $0.map(scalar).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "]\n"
        }
        if !entity.fetchedProperties.isEmpty {
            output += "    fetchedProperties:\n"
            for fetched in entity.fetchedProperties { output += "      \(scalar(fetched.name)): \(fetchedPropertyValue(fetched))\n" }
        }
        if let modifier = entity.versionHashModifier { output += "    versionHashModifier: \(scalar(modifier))\n" }
        if let renaming = entity.renamingIdentifier { output += "    renamingIdentifier: \(scalar(renaming))\n" }
        if !entity.userInfo.isEmpty { output += "    userInfo: \(userInfo(entity.userInfo))\n" }
        return output
    }

    static func attributeValue(_ attribute: Attribute) -> String {
        let type = attribute.enumName ?? attribute.type.name
        var members: [String] = []
        if let defaultValue = attribute.defaultValue { members.append("default: \(literal(defaultValue))") }
        let validation = attribute.validation
        if let minimum = validation.minimum { members.append("min: \(literal(minimum))") }
        if let maximum = validation.maximum { members.append("max: \(literal(maximum))") }
        if let length = validation.minimumLength { members.append("minLength: \(length)") }
        if let length = validation.maximumLength { members.append("maxLength: \(length)") }
        if let pattern = validation.regularExpression { members.append("regex: \(scalar(pattern))") }
        let flags: [(String, Bool)] = [
            ("transient", attribute.isTransient), ("indexed", attribute.isIndexed),
            ("externalStorage", attribute.allowsExternalBinaryDataStorage),
            ("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion), ("cloudEncrypted", attribute.allowsCloudEncryption),
        ]
        members += flags.filter(\.1).map { "\($0.0): true" }
        if let expression = attribute.derivationExpression { members.append("derived: \(scalar(expression))") }
        if let transformer = attribute.valueTransformerName { members.append("transformer: \(scalar(transformer))") }
        if let swiftType = attribute.customClassName { members.append("swiftType: \(scalar(swiftType))") }
        if let renaming = attribute.renamingIdentifier { members.append("renamingIdentifier: \(scalar(renaming))") }
        if let modifier = attribute.versionHashModifier { members.append("versionHashModifier: \(scalar(modifier))") }
        if !attribute.userInfo.isEmpty { members.append("userInfo: \(userInfo(attribute.userInfo))") }
        if let documentation = attribute.documentation { members.append("documentation: \(scalar(documentation))") }
        let typeText = scalar(type + (attribute.isOptional ? "?" : ""))
        return members.isEmpty ? typeText : "{ type: \(typeText), " + members.joined(separator: ", ") + " }"
    }

    static func relationshipValue(_ relationship: Relationship) -> String {
        var members = ["to: \(scalar(relationship.destinationName))"]
        if relationship.isToMany { members.append("toMany: true") }
        if relationship.isOrdered { members.append("ordered: true") }
        if let inverse = relationship.inverseName { members.append("inverse: \(scalar(inverse))") }
        if relationship.isOneWay { members.append("oneWay: true") }
        if relationship.deleteRule != .nullify { members.append("deleteRule: \(relationship.deleteRule.rawValue)") }
        if let minCount = relationship.minCount { members.append("minCount: \(minCount)") }
        if let maxCount = relationship.maxCount { members.append("maxCount: \(maxCount)") }
        if !relationship.isOptional { members.append("optional: false") }
        if relationship.isTransient { members.append("transient: true") }
        if let renaming = relationship.renamingIdentifier { members.append("renamingIdentifier: \(scalar(renaming))") }
        if let modifier = relationship.versionHashModifier { members.append("versionHashModifier: \(scalar(modifier))") }
        if !relationship.userInfo.isEmpty { members.append("userInfo: \(userInfo(relationship.userInfo))") }
        if let documentation = relationship.documentation { members.append("documentation: \(scalar(documentation))") }
        return "{ " + members.joined(separator: ", ") + " }"
    }

    static func fetchedPropertyValue(_ fetched: FetchedProperty) -> String {
        var members = ["entity: \(scalar(fetched.entityName))"]
        if let predicate = fetched.predicate { members.append("predicate: \(scalar(predicate))") }
        if !fetched.isOptional { members.append("optional: false") }
        if !fetched.userInfo.isEmpty { members.append("userInfo: \(userInfo(fetched.userInfo))") }
        if let documentation = fetched.documentation { members.append("documentation: \(scalar(documentation))") }
        return "{ " + members.joined(separator: ", ") + " }"
    }

    private static func enumValue(_ enumType: EnumType) -> String {
        let namesAreRawValues = enumType.rawType == .string && enumType.cases.allSatisfy { $0.rawValue == .string($0.name) }
        if namesAreRawValues, enumType.documentation == nil {
            return "[" + enumType.cases.map { scalar($0.name) }.joined(separator: ", ") + "]"
        }
        let cases = "{ " + enumType.cases.map { "\(scalar($0.name)): \(literal($0.rawValue))" }.joined(separator: ", ") + " }"
        var members = ["type: \(scalar(enumType.rawType.name))", "cases: \(cases)"]
        if let documentation = enumType.documentation { members.append("documentation: \(scalar(documentation))") }
        return "{ " + members.joined(separator: ", ") + " }"
    }

    private static func userInfo(_ userInfo: [String: String]) -> String {
        "{ " + userInfo.keys.sorted().map { "\(scalar($0)): \(scalar(userInfo[$0]!))" }.joined(separator: ", ") + " }"
    }

    private static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .number(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .string(let text), .date(let text), .uuid(let text), .uri(let text): scalar(text)
        }
    }

    /// A string as a YAML scalar: plain when it reads back as the same string, otherwise
    /// double-quoted with escapes.
    static func scalar(_ text: String) -> String {
        isSafePlain(text) ? text : TextEscaping.yamlDoubleQuoted(text)
    }

    private static let reservedPlainWords: Set<String> = [
        "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO",
        "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
    ]

    private static func isSafePlain(_ text: String) -> Bool {
        guard !reservedPlainWords.contains(text), let first = text.unicodeScalars.first,
            first.properties.isAlphabetic || first == "_", !text.hasSuffix(" "), !text.contains(" #")
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_ .@?-/()".unicodeScalars.contains(scalar)
        }
    }
}

import Foundation
import ModelSchema

extension VersionReader {
    static let attributeKeys = [
        "type", "optional", "transient", "default", "min", "max", "minLength", "maxLength", "regex", "indexed",
        "externalStorage", "preserveAfterDeletion", "cloudEncrypted", "derived", "transformer", "swiftType", "enum",
        "renamingIdentifier", "versionHashModifier", "userInfo", "documentation",
    ]

    /// Attribute types a composite may contain (Core Data rejects the others inside composites).
    static let compositeFieldTypes: Set<AttributeType> = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData,
    ]

    /// Reads `name: Type`, `name: Type?` or the long form mapping.
    mutating func readAttribute(name: String, key: YAMLNode, node: YAMLNode, owner: String, inComposite: Bool) -> Attribute? {
        let context = "attribute '\(name)' of \(owner)"
        let scalars = ScalarReader(diagnostics: diagnostics)
        let reader: MappingReader?
        let typeNode: YAMLNode
        if node.scalarValue != nil, !node.isNull {
            reader = nil
            typeNode = node
        } else {
            guard let mapping = MappingReader(node, context: context, diagnostics: diagnostics) else { return nil }
            mapping.rejectUnknownKeys(allowed: Self.attributeKeys, diagnostics: diagnostics)
            guard let type = mapping["type"] else {
                diagnostics.error("\(context) needs a type ('type: String')", at: key.location)
                return nil
            }
            reader = mapping
            typeNode = type
        }
        guard let typeText = scalars.name(typeNode, "the type of \(context)") else { return nil }
        let (typeName, markedOptional) = TypeNames.split(typeText)
        guard let (type, impliedEnum) = resolveType(typeName, at: typeNode.location) else { return nil }
        if inComposite, !Self.compositeFieldTypes.contains(type), !type.isComposite {
            diagnostics.error("composite attributes cannot contain \(type.name) fields ('\(name)')", at: typeNode.location)
        }

        var attribute = Attribute(name: name, type: type, isOptional: markedOptional, enumName: impliedEnum, location: key.location)
        if type == .transformable, reader?["swiftType"] == nil {
            diagnostics.warning("\(context) is Transformable without 'swiftType'; it will be typed as NSObject", at: typeNode.location)
        }
        guard let reader else { return attribute }

        if let optional = reader["optional"], let value = scalars.bool(optional, "'optional'") {
            if markedOptional && !value {
                diagnostics.error(
                    "\(context) is marked optional by its type '\(typeText)' but has 'optional: false'", at: optional.location)
            }
            attribute.isOptional = value || markedOptional
        }
        let flags: [(String, WritableKeyPath<Attribute, Bool>)] = [
            ("transient", \.isTransient), ("indexed", \.isIndexed), ("externalStorage", \.allowsExternalBinaryDataStorage),
            ("preserveAfterDeletion", \.preservesValueInHistoryOnDeletion), ("cloudEncrypted", \.allowsCloudEncryption),
        ]
        for (flagKey, keyPath) in flags {
            if let flag = reader[flagKey] { attribute[keyPath: keyPath] = scalars.bool(flag, "'\(flagKey)'") ?? false }
        }
        if attribute.allowsExternalBinaryDataStorage, type != .binaryData, let flag = reader["externalStorage"] {
            diagnostics.error("'externalStorage' applies only to Binary attributes, not \(type.name)", at: flag.location)
        }
        if let derived = reader["derived"] {
            attribute.derivationExpression = scalars.name(derived, "the derivation expression")
            locations["\(owner).\(name).derived"] = derived.location
        }
        if let transformer = reader["transformer"] {
            attribute.valueTransformerName = scalars.name(transformer, "the value transformer name")
            if type != .transformable {
                diagnostics.error("'transformer' applies only to Transformable attributes, not \(type.name)", at: transformer.location)
            }
        }
        if let swiftType = reader["swiftType"] {
            attribute.customClassName = scalars.name(swiftType, "the Swift type")
            if type != .transformable && type != .binaryData {
                diagnostics.error(
                    "'swiftType' applies only to Transformable and Binary attributes, not \(type.name)", at: swiftType.location)
            }
        }
        if let enumNode = reader["enum"], let enumName = scalars.name(enumNode, "the enum of \(context)") {
            attribute.enumName = enumName
            checkEnumUse(enumName, type: type, at: enumNode.location)
        }
        if let renaming = reader["renamingIdentifier"] { attribute.renamingIdentifier = scalars.name(renaming, "'renamingIdentifier'") }
        if let modifier = reader["versionHashModifier"] {
            attribute.versionHashModifier = scalars.string(modifier, "'versionHashModifier'")
        }
        if let userInfo = reader["userInfo"] { attribute.userInfo = scalars.userInfo(userInfo) }
        if let documentation = reader["documentation"] { attribute.documentation = scalars.string(documentation, "'documentation'") }
        readValidation(reader, into: &attribute, context: context)
        readDefault(reader, into: &attribute, context: context)
        return attribute
    }

    /// Resolves a type name: a Core Data type, a composite, or an enum (which stands for its raw type).
    private func resolveType(_ name: String, at location: SourceLocation) -> (AttributeType, String?)? {
        if let scalar = TypeNames.scalarTypesByName[name] { return (scalar, nil) }
        if compositeNames.contains(name) { return (.composite(name), nil) }
        if let enumType = enumTypes[name] { return (enumType.rawType, name) }
        let candidates = AttributeType.scalarTypes.map(\.name) + compositeNames.sorted() + enumTypes.keys.sorted()
        diagnostics.error("unknown attribute type '\(name)'\(Suggestions.didYouMean(name, in: candidates))", at: location)
        return nil
    }

    private func checkEnumUse(_ enumName: String, type: AttributeType, at location: SourceLocation) {
        guard let enumType = enumTypes[enumName] else {
            diagnostics.error("unknown enum '\(enumName)'\(Suggestions.didYouMean(enumName, in: enumTypes.keys))", at: location)
            return
        }
        if enumType.rawType != type {
            diagnostics.error(
                "enum '\(enumName)' has \(enumType.rawType.name) raw values, but the attribute is \(type.name)", at: location)
        }
    }

    private func readValidation(_ reader: MappingReader, into attribute: inout Attribute, context: String) {
        let scalars = ScalarReader(diagnostics: diagnostics)
        let literals = LiteralReader(diagnostics: diagnostics)
        let type = attribute.type
        for (key, keyPath) in [("min", \AttributeValidation.minimum), ("max", \AttributeValidation.maximum)] {
            guard let node = reader[key] else { continue }
            if type.isNumeric || type == .date {
                attribute.validation[keyPath: keyPath] = literals.literal(node, of: type, "'\(key)'")
            } else if type == .string {
                diagnostics.error("'\(key)' does not apply to String attributes; use '\(key)Length'", at: node.location)
            } else {
                diagnostics.error("'\(key)' applies only to number and date attributes, not \(type.name)", at: node.location)
            }
        }
        for (key, keyPath) in [("minLength", \AttributeValidation.minimumLength), ("maxLength", \AttributeValidation.maximumLength)] {
            guard let node = reader[key] else { continue }
            if type == .string || type == .binaryData {
                attribute.validation[keyPath: keyPath] = scalars.int(node, "'\(key)'")
            } else {
                diagnostics.error("'\(key)' applies only to String and Binary attributes, not \(type.name)", at: node.location)
            }
        }
        if let regex = reader["regex"], let pattern = scalars.string(regex, "'regex'") {
            if type != .string {
                diagnostics.error("'regex' applies only to String attributes, not \(type.name)", at: regex.location)
            } else if (try? NSRegularExpression(pattern: pattern)) == nil {
                diagnostics.error("'regex' is not a valid regular expression: \(pattern)", at: regex.location)
            } else {
                attribute.validation.regularExpression = pattern
            }
        }
        let validation = attribute.validation
        if let minimum = validation.minimum, let maximum = validation.maximum,
            LiteralReader.compare(minimum, maximum) == .orderedDescending, let node = reader["min"]
        {
            diagnostics.error("'min' is greater than 'max' in \(context)", at: node.location)
        }
        if let minimum = validation.minimumLength, let maximum = validation.maximumLength, minimum > maximum, let node = reader["minLength"]
        {
            diagnostics.error("'minLength' is greater than 'maxLength' in \(context)", at: node.location)
        }
    }

    private func readDefault(_ reader: MappingReader, into attribute: inout Attribute, context: String) {
        guard let node = reader["default"] else { return }
        if attribute.isDerived {
            diagnostics.error("derived attributes cannot have a default value", at: node.location)
            return
        }
        if let enumName = attribute.enumName, let enumType = enumTypes[enumName] {
            guard let caseName = node.scalarValue, let enumCase = enumType.cases.first(where: { $0.name == caseName }) else {
                let written = node.scalarValue ?? node.kindDescription
                diagnostics.error(
                    "default '\(written)' is not a case of enum '\(enumName)'\(Suggestions.didYouMean(written, in: enumType.cases.map(\.name)))",
                    at: node.location)
                return
            }
            attribute.defaultValue = enumCase.rawValue
            return
        }
        guard let value = LiteralReader(diagnostics: diagnostics).literal(node, of: attribute.type, "the default value") else { return }
        let validation = attribute.validation
        let written = node.scalarValue ?? ""
        if let minimum = validation.minimum, LiteralReader.compare(value, minimum) == .orderedAscending {
            diagnostics.error(
                "the default value \(written) is below 'min' (\(reader["min"]?.scalarValue ?? "")) of \(context)", at: node.location)
        }
        if let maximum = validation.maximum, LiteralReader.compare(value, maximum) == .orderedDescending {
            diagnostics.error(
                "the default value \(written) is above 'max' (\(reader["max"]?.scalarValue ?? "")) of \(context)", at: node.location)
        }
        if case .string(let text) = value {
            let length = text.count
            if let minimum = validation.minimumLength, length < minimum {
                diagnostics.error("the default value is shorter than 'minLength' (\(minimum))", at: node.location)
            }
            if let maximum = validation.maximumLength, length > maximum {
                diagnostics.error("the default value is longer than 'maxLength' (\(maximum))", at: node.location)
            }
            if let pattern = validation.regularExpression, let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$"),
                regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
            {
                diagnostics.error("the default value does not match 'regex'", at: node.location)
            }
        }
        attribute.defaultValue = value
    }
}

extension AttributeType {
    var isComposite: Bool {
        if case .composite = self { return true }
        return false
    }
}

import ModelSchema

/// The validated model as canonical JSON (`modelgen dump`): every declared fact, no source
/// locations, object keys sorted, so the text is stable across runs and machines and can be
/// diffed or consumed by other tools. Collections keep declaration order where Core Data keeps
/// it (versions, constraint members, index elements, enum cases); named things are objects.
public enum ModelDump {
    public static func json(_ model: Model) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(model.name),
            "currentVersion": .string(model.currentVersionName),
            "shippedVersions": .array(model.shippedVersionNames.map(JSONValue.string)),
            "versions": .array(model.versions.map(json)),
        ]
        if !model.customMigrations.isEmpty {
            members["customMigrations"] = .array(
                model.customMigrations.map { .object(["from": .string($0.from), "to": .string($0.to)]) })
        }
        if !model.mappingModels.isEmpty {
            members["mappingModels"] = .array(
                model.mappingModels.map {
                    .object(["name": .string($0.name), "from": .string($0.step.from), "to": .string($0.step.to)])
                })
        }
        return .object(members)
    }

    static func json(_ version: ModelVersion) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(version.name),
            "entities": .object(named(version.entities)),
            "composites": .object(named(version.composites)),
            "enums": .object(named(version.enums)),
            "configurations": .object(named(version.configurations)),
        ]
        members["versionIdentifier"] = version.versionIdentifier.map(JSONValue.string)
        return .object(members)
    }

    static func json(_ entity: Entity) -> JSONValue {
        var members: [String: JSONValue] = [
            "abstract": .bool(entity.isAbstract),
            "attributes": .object(named(entity.attributes)),
            "relationships": .object(named(entity.relationships)),
            "unique": .array(entity.uniquenessConstraints.map { .array($0.map(JSONValue.string)) }),
            "indexes": .object(named(entity.fetchIndexes)),
        ]
        members["class"] = entity.className.map(JSONValue.string)
        members["parent"] = entity.parentName.map(JSONValue.string)
        if !entity.compoundIndexes.isEmpty {
            members["compoundIndexes"] = .array(entity.compoundIndexes.map { .array($0.map(JSONValue.string)) })
        }
        if !entity.fetchedProperties.isEmpty { members["fetchedProperties"] = .object(named(entity.fetchedProperties)) }
        addCommonMembers(of: entity, to: &members)
        return .object(members)
    }

    static func json(_ attribute: Attribute) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(attribute.type.name),
            "optional": .bool(attribute.isOptional),
            "transient": .bool(attribute.isTransient),
            "indexed": .bool(attribute.isIndexed),
            "externalStorage": .bool(attribute.allowsExternalBinaryDataStorage),
            "preserveAfterDeletion": .bool(attribute.preservesValueInHistoryOnDeletion),
            "cloudEncrypted": .bool(attribute.allowsCloudEncryption),
        ]
        if case .composite = attribute.type { members["composite"] = .bool(true) }
        members["default"] = attribute.defaultValue.map(json)
        members["derived"] = attribute.derivationExpression.map(JSONValue.string)
        members["transformer"] = attribute.valueTransformerName.map(JSONValue.string)
        members["swiftType"] = attribute.customClassName.map(JSONValue.string)
        members["enum"] = attribute.enumName.map(JSONValue.string)
        addCommonMembers(of: attribute, to: &members)
        let validation = attribute.validation
        members["min"] = validation.minimum.map(json)
        members["max"] = validation.maximum.map(json)
        members["minLength"] = validation.minimumLength.map(JSONValue.int)
        members["maxLength"] = validation.maximumLength.map(JSONValue.int)
        members["regex"] = validation.regularExpression.map(JSONValue.string)
        return .object(members)
    }

    static func json(_ relationship: Relationship) -> JSONValue {
        var members: [String: JSONValue] = [
            "to": .string(relationship.destinationName),
            "toMany": .bool(relationship.isToMany),
            "ordered": .bool(relationship.isOrdered),
            "oneWay": .bool(relationship.isOneWay),
            "deleteRule": .string(relationship.deleteRule.rawValue),
            "optional": .bool(relationship.isOptional),
            "transient": .bool(relationship.isTransient),
        ]
        members["inverse"] = relationship.inverseName.map(JSONValue.string)
        members["minCount"] = relationship.minCount.map(JSONValue.int)
        members["maxCount"] = relationship.maxCount.map(JSONValue.int)
        addCommonMembers(of: relationship, to: &members)
        return .object(members)
    }

    static func json(_ index: FetchIndex) -> JSONValue {
        .object([
            "type": .string(index.kind.rawValue),
            "elements": .array(
                index.elements.map {
                    .object(["property": .string($0.propertyName), "order": .string($0.isAscending ? "ascending" : "descending")])
                }),
        ])
    }

    static func json(_ fetched: FetchedProperty) -> JSONValue {
        var members: [String: JSONValue] = ["entity": .string(fetched.entityName), "optional": .bool(fetched.isOptional)]
        members["predicate"] = fetched.predicate.map(JSONValue.string)
        members["documentation"] = fetched.documentation.map(JSONValue.string)
        if !fetched.userInfo.isEmpty { members["userInfo"] = json(fetched.userInfo) }
        return .object(members)
    }

    static func json(_ composite: CompositeType) -> JSONValue {
        .object(["attributes": .object(named(composite.attributes))])
    }

    static func json(_ enumType: EnumType) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(enumType.rawType.name),
            "cases": .array(enumType.cases.map { .object(["name": .string($0.name), "rawValue": json($0.rawValue)]) }),
        ]
        members["documentation"] = enumType.documentation.map(JSONValue.string)
        return .object(members)
    }

    static func json(_ configuration: Configuration) -> JSONValue {
        .object([
            "entities": .array(configuration.entityNames.map(JSONValue.string)),
            "cloudKit": .bool(configuration.usedWithCloudKit),
        ])
    }

    static func json(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .integer(let number): .string(String(number))
        case .number(let text): .string(text)
        case .string(let text), .date(let text), .uuid(let text), .uri(let text): .string(text)
        case .boolean(let flag): .bool(flag)
        }
    }

    /// Named declarations as an object keyed by name. Names are unique after Sema; should two
    /// ever collide, the first wins rather than the dump failing.
    private static func named<T>(_ items: [T]) -> [String: JSONValue] where T: NamedDeclaration {
        Dictionary(items.map { ($0.name, $0.jsonValue) }) { first, _ in first }
    }

    /// The members every entity, attribute and relationship may carry.
    private static func addCommonMembers(of declaration: some VersionedDeclaration, to members: inout [String: JSONValue]) {
        members["renamingIdentifier"] = declaration.renamingIdentifier.map(JSONValue.string)
        members["versionHashModifier"] = declaration.versionHashModifier.map(JSONValue.string)
        members["documentation"] = declaration.documentation.map(JSONValue.string)
        if !declaration.userInfo.isEmpty { members["userInfo"] = json(declaration.userInfo) }
    }

    static func json(_ userInfo: [String: String]) -> JSONValue {
        .object(userInfo.mapValues(JSONValue.string))
    }
}

protocol NamedDeclaration {
    var name: String { get }
    var jsonValue: JSONValue { get }
}

extension Entity: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension Attribute: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension Relationship: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension FetchedProperty: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension FetchIndex: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension CompositeType: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension EnumType: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }
extension Configuration: NamedDeclaration { var jsonValue: JSONValue { ModelDump.json(self) } }

/// What entities, attributes and relationships share: the facts that identify them across
/// versions and describe them to people.
protocol VersionedDeclaration {
    var renamingIdentifier: String? { get }
    var versionHashModifier: String? { get }
    var documentation: String? { get }
    var userInfo: [String: String] { get }
}

extension Entity: VersionedDeclaration {}
extension Attribute: VersionedDeclaration {}
extension Relationship: VersionedDeclaration {}

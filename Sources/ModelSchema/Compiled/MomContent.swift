import Foundation

extension CompiledModel {
    /// The part of `version` a `.mom` carries, in the form ``decodeMom(_:versionName:)`` gives it
    /// back: `decodeMom(mom(for: v)) == momContent(of: v)`. What a `.mom` does not carry:
    ///
    /// - source locations, documentation, enums (and attributes' enum names), Transformable
    ///   custom class names, `isIndexed`, one-way markers, a configuration's CloudKit flag,
    ///   the documentation of fetched properties, and validation rules that do not apply to the
    ///   attribute's type;
    /// - the spelling of validation bounds: as ``AttributeValidation/canonical(for:)`` gives them;
    /// - composite type names: a composite attribute carries its fields, not the name of the
    ///   type, so each composite attribute gets its own type named by its path (`Trip.location`,
    ///   nested `Trip.location.point`);
    /// - the difference between "no class name / renaming identifier" and one equal to the name,
    ///   a minimum count of 0 and none, a to-many maximum of 0 and none, an empty version hash
    ///   modifier and none;
    /// - the spelling of defaults: numbers come back canonical (`2.5`, `3`), decimals without
    ///   trailing zeros, dates as UTC ISO 8601, UUIDs in upper case;
    /// - the spelling of derivation expressions and of fetched properties' predicates: they come
    ///   back in their canonical form (``FetchedProperty/canonicalPredicate``).
    ///
    /// Configurations come back sorted by name with their entity names sorted.
    public static func momContent(of version: ModelVersion) -> ModelVersion {
        let lookup = VersionLookup(version)
        var composites: [CompositeType] = []
        let entities = version.entities.map { entity in
            var result = Entity(
                name: entity.name, className: entity.className == entity.name ? nil : entity.className, parentName: entity.parentName,
                isAbstract: entity.isAbstract, uniquenessConstraints: entity.uniquenessConstraints, compoundIndexes: entity.compoundIndexes,
                versionHashModifier: nonEmpty(entity.versionHashModifier),
                renamingIdentifier: entity.renamingIdentifier == entity.name ? nil : entity.renamingIdentifier, userInfo: entity.userInfo)
            result.attributes = entity.attributes.map {
                carried($0, path: "\(entity.name).\($0.name)", lookup: lookup, composites: &composites, visiting: [])
            }
            result.relationships = entity.relationships.map(carried)
            result.fetchedProperties = entity.fetchedProperties.map {
                FetchedProperty(
                    name: $0.name, entityName: $0.entityName, predicate: $0.canonicalPredicate, isOptional: $0.isOptional,
                    userInfo: $0.userInfo)
            }
            result.fetchIndexes = entity.fetchIndexes.map { index in
                FetchIndex(
                    name: index.name,
                    elements: index.elements.map { FetchIndex.Element(propertyName: $0.propertyName, isAscending: $0.isAscending) },
                    kind: index.kind)
            }
            return result
        }
        let entityNames = Set(version.entities.map(\.name))
        let configurations = version.configurations.sorted { $0.name < $1.name }.map {
            Configuration(name: $0.name, entityNames: $0.entityNames.filter(entityNames.contains).sorted())
        }
        return ModelVersion(
            name: version.name, entities: entities, composites: composites, configurations: configurations,
            versionIdentifier: version.versionIdentifier)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text?.isEmpty == false ? text : nil
    }

    private static func carried(
        _ attribute: Attribute, path: String, lookup: VersionLookup, composites: inout [CompositeType], visiting: Set<String>
    ) -> Attribute {
        var type = attribute.type
        if case .composite(let name) = attribute.type, !visiting.contains(name), let composite = lookup.composite(named: name) {
            type = .composite(path)
            let fields = composite.attributes.map {
                carried($0, path: "\(path).\($0.name)", lookup: lookup, composites: &composites, visiting: visiting.union([name]))
            }
            composites.append(CompositeType(name: path, attributes: fields))
        }
        return Attribute(
            name: attribute.name, type: type, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            defaultValue: attribute.defaultValue.map { carried($0, type: attribute.type) },
            validation: attribute.validation.canonical(for: attribute.type),
            allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage,
            preservesValueInHistoryOnDeletion: attribute.preservesValueInHistoryOnDeletion,
            allowsCloudEncryption: attribute.allowsCloudEncryption,
            derivationExpression: attribute.derivationExpression.map(DerivationExpression.predicateFormat(of:)),
            valueTransformerName: attribute.valueTransformerName,
            renamingIdentifier: attribute.renamingIdentifier == attribute.name ? nil : attribute.renamingIdentifier,
            versionHashModifier: nonEmpty(attribute.versionHashModifier), userInfo: attribute.userInfo)
    }

    private static func carried(_ value: AttributeValue, type: AttributeType) -> AttributeValue {
        switch value {
        case .number(let text):
            if type == .decimal { return .number(Decimal(string: text).map { "\($0)" } ?? text) }
            let number = Double(text) ?? 0
            if type.isInteger, number == number.rounded() { return .integer(Int64(number)) }
            return .number(MomDefaultValue.numberText(number))
        case .integer(let number):
            switch type {
            case .double, .float, .decimal: return .number(String(number))
            case .boolean: return .boolean(number != 0)
            default: return value
            }
        case .boolean(let flag): return type.isNumeric ? .integer(flag ? 1 : 0) : value
        case .date(let text):
            return .date(MomDefaultValue.iso8601(ISO8601.date(from: text) ?? Date(timeIntervalSinceReferenceDate: 0)))
        case .uuid(let text):
            return .uuid(UUID(uuidString: text)?.uuidString ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).uuidString)
        case .string, .uri: return value
        }
    }

    private static func carried(_ relationship: Relationship) -> Relationship {
        let isToMany = relationship.isToMany && relationship.maxCount != 1
        return Relationship(
            name: relationship.name, destinationName: relationship.destinationName, isToMany: isToMany,
            isOrdered: relationship.isOrdered, inverseName: relationship.inverseName, deleteRule: relationship.deleteRule,
            minCount: relationship.minCount == 0 ? nil : relationship.minCount,
            maxCount: isToMany && relationship.maxCount != 0 ? relationship.maxCount : nil, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient,
            renamingIdentifier: relationship.renamingIdentifier == relationship.name ? nil : relationship.renamingIdentifier,
            versionHashModifier: nonEmpty(relationship.versionHashModifier), userInfo: relationship.userInfo)
    }
}

#if !canImport(CoreData)
import ModelQuery
import ModelSchema

/// Converts between the description objects and `ModelSchema` values: loading builds objects
/// from a decoded version, and hashing converts objects (however they were built) to a version
/// so the version hashes come from the one implementation in `ModelSchema`.
enum ModelSchemaBridge {
    // MARK: Version → objects

    static func populate(_ model: NSManagedObjectModel, from version: ModelVersion) {
        let lookup = VersionLookup(version)
        var byName: [String: NSEntityDescription] = [:]
        var entities: [NSEntityDescription] = []
        for entity in version.entities {
            let object = NSEntityDescription()
            object.name = entity.name
            object.managedObjectClassName = entity.effectiveClassName
            object.isAbstract = entity.isAbstract
            object.versionHashModifier = entity.versionHashModifier
            object.renamingIdentifier = entity.renamingIdentifier
            object.userInfo = entity.userInfo.isEmpty ? nil : entity.userInfo
            object.uniquenessConstraints = entity.uniquenessConstraints.map { $0 as [Any] }
            object.properties =
                entity.attributes.map { attribute($0, lookup: lookup, visiting: []) } as [NSPropertyDescription]
                + entity.relationships.map { relationship($0) }
                + entity.fetchedProperties.map { fetchedProperty($0) }
            if byName[entity.name] == nil { byName[entity.name] = object }
            entities.append(object)
        }
        for entity in version.entities {
            guard let parentName = entity.parentName, let parent = byName[parentName], let child = byName[entity.name] else { continue }
            parent.subentities.append(child)
        }
        for (entity, object) in zip(version.entities, entities) {
            let declared = object.declaredProperties
            for relationship in entity.relationships {
                guard let property = declared.first(where: { $0.name == relationship.name }) as? NSRelationshipDescription else { continue }
                let destination = byName[relationship.destinationName]
                property.destinationEntity = destination
                property.inverseRelationship = relationship.inverseName.flatMap { destination?.relationshipsByName[$0] }
            }
            let properties = object.propertiesByName
            object.indexes = entity.fetchIndexes.map { index in
                NSFetchIndexDescription(
                    name: index.name,
                    elements: index.elements.map { element in
                        let type: NSFetchIndexElementType = index.kind == .rTree ? .rTree : .binary
                        let made =
                            properties[element.propertyName].map { NSFetchIndexElementDescription(property: $0, collationType: type) }
                            ?? NSFetchIndexElementDescription(propertyName: element.propertyName, collationType: type)
                        made.isAscending = element.isAscending
                        return made
                    })
            }
        }
        model.entities = entities
        for configuration in version.configurations {
            model.setEntities(configuration.entityNames.compactMap { byName[$0] }, forConfigurationName: configuration.name)
        }
    }

    static func attribute(_ attribute: Attribute, lookup: VersionLookup, visiting: Set<String>) -> NSAttributeDescription {
        let object: NSAttributeDescription
        if case .composite(let name) = attribute.type {
            let composite = NSCompositeAttributeDescription()
            if !visiting.contains(name), let type = lookup.composite(named: name) {
                composite.elements = type.attributes.map { self.attribute($0, lookup: lookup, visiting: visiting.union([name])) }
            }
            object = composite
        } else if let expression = attribute.derivationExpression {
            let derived = NSDerivedAttributeDescription()
            derived.derivationFormat = DerivationExpression.predicateFormat(of: expression)
            object = derived
        } else {
            object = NSAttributeDescription()
        }
        object.name = attribute.name
        object.attributeType = NSAttributeType(rawValue: UInt(attribute.type.coreDataTypeCode)) ?? .undefinedAttributeType
        if attribute.type == .transformable, let className = attribute.customClassName { object.attributeValueClassName = className }
        object.isOptional = attribute.isOptional
        object.isTransient = attribute.isTransient
        object.defaultValue = attribute.defaultValue.map { value($0, type: attribute.type) }
        object.valueTransformerName = attribute.valueTransformerName
        object.allowsExternalBinaryDataStorage = attribute.allowsExternalBinaryDataStorage
        object.preservesValueInHistoryOnDeletion = attribute.preservesValueInHistoryOnDeletion
        object.allowsCloudEncryption = attribute.allowsCloudEncryption
        object.storedIsIndexed = attribute.isIndexed
        object.renamingIdentifier = attribute.renamingIdentifier
        object.versionHashModifier = attribute.versionHashModifier
        object.userInfo = attribute.userInfo.isEmpty ? nil : attribute.userInfo
        let rules = attribute.validation.rules(for: attribute.type)
        if !rules.isEmpty { object.setValidation(rules.map(predicate), warnings: rules.map { NSNumber(value: $0.errorCode) }) }
        return object
    }

    /// A validation rule as the `NSComparisonPredicate` Core Data loads from a `.mom`.
    static func predicate(_ rule: ValidationRule) -> NSPredicate {
        let left = rule.subject == .value ? NSExpression.expressionForEvaluatedObject() : NSExpression(forKeyPath: rule.subject.rawValue)
        let constant: Any =
            switch rule.constant {
            case .integer(let number): NSNumber(value: number)
            case .real(let number): NSNumber(value: number)
            case .string(let text): text
            }
        let type: NSComparisonPredicate.Operator =
            switch rule.comparison {
            case .atLeast: .greaterThanOrEqualTo
            case .atMost: .lessThanOrEqualTo
            case .matches: .matches
            }
        return NSComparisonPredicate(
            leftExpression: left, rightExpression: NSExpression(forConstantValue: constant), modifier: .direct, type: type)
    }

    static func relationship(_ relationship: Relationship) -> NSRelationshipDescription {
        let object = NSRelationshipDescription()
        object.name = relationship.name
        object.isOptional = relationship.isOptional
        object.isTransient = relationship.isTransient
        object.maxCount = relationship.isToMany ? relationship.maxCount ?? 0 : 1
        object.minCount = relationship.minCount ?? 0
        object.isOrdered = relationship.isOrdered
        object.deleteRule =
            switch relationship.deleteRule {
            case .noAction: .noActionDeleteRule
            case .nullify: .nullifyDeleteRule
            case .cascade: .cascadeDeleteRule
            case .deny: .denyDeleteRule
            }
        object.renamingIdentifier = relationship.renamingIdentifier
        object.versionHashModifier = relationship.versionHashModifier
        object.userInfo = relationship.userInfo.isEmpty ? nil : relationship.userInfo
        return object
    }

    /// A fetched property whose request finds its entity by name in the model it belongs to.
    /// A predicate that does not parse (a compiled model is checked when it is compiled) leaves
    /// the request without one and is reported on standard error.
    static func fetchedProperty(_ fetched: FetchedProperty) -> NSFetchedPropertyDescription {
        let object = NSFetchedPropertyDescription()
        object.name = fetched.name
        object.isOptional = fetched.isOptional
        object.userInfo = fetched.userInfo.isEmpty ? nil : fetched.userInfo
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: fetched.entityName)
        if let format = fetched.predicate {
            do {
                request.predicate = try NSPredicate(parsing: format)
            } catch {
                FileHandle.standardError.write(
                    Data("CoreData: error: fetched property '\(fetched.name)': predicate '\(format)': \(error)\n".utf8))
            }
        }
        object.setFetchRequest(request, destinationName: fetched.entityName)
        return object
    }

    /// A default as the Foundation value Core Data hands out (`NSNumber` for numbers and Booleans).
    static func value(_ value: AttributeValue, type: AttributeType) -> Any {
        switch value {
        case .integer(let number):
            if type == .boolean { return NSNumber(value: number != 0) }
            if type == .double || type == .float { return NSNumber(value: Double(number)) }
            if type == .decimal { return NSDecimalNumber(value: number) }
            return NSNumber(value: number)
        case .number(let text):
            if type == .decimal { return NSDecimalNumber(string: text) }
            if type.isInteger, let number = Int64(text) { return NSNumber(value: number) }
            return NSNumber(value: Double(text) ?? 0)
        case .boolean(let flag): return NSNumber(value: flag)
        case .string(let text): return text
        case .date(let text): return ISO8601.date(from: text) ?? Date(timeIntervalSinceReferenceDate: 0)
        case .uuid(let text): return UUID(uuidString: text) ?? text
        case .uri(let text): return URL(string: text) ?? text
        }
    }

    // MARK: Objects → version

    static func version(of model: NSManagedObjectModel) -> ModelVersion {
        var version = version(of: model.entities)
        version.configurations = model.configurations.map { name in
            Configuration(name: name, entityNames: (model.entities(forConfigurationName: name) ?? []).compactMap(\.name))
        }
        version.versionIdentifier = model.versionIdentifiers.compactMap { $0.base as? String }.sorted().first
        return version
    }

    static func version(of entities: [NSEntityDescription]) -> ModelVersion {
        var composites: [CompositeType] = []
        var result: [Entity] = []
        for object in entities {
            let name = object.name ?? ""
            var entity = Entity(
                name: name, className: object.managedObjectClassName == name ? nil : object.managedObjectClassName,
                parentName: object.superentity?.name, isAbstract: object.isAbstract,
                versionHashModifier: object.versionHashModifier,
                renamingIdentifier: object.renamingIdentifier == name ? nil : object.renamingIdentifier,
                userInfo: strings(object.userInfo))
            entity.uniquenessConstraints = object.uniquenessConstraints.map { members in
                members.map { ($0 as? NSPropertyDescription)?.name ?? ($0 as? String) ?? "\($0)" }
            }
            for property in object.declaredProperties {
                if let attribute = property as? NSAttributeDescription {
                    entity.attributes.append(
                        self.attribute(attribute, path: "\(name).\(attribute.name)", composites: &composites, depth: 0))
                } else if let relationship = property as? NSRelationshipDescription {
                    entity.relationships.append(self.relationship(relationship))
                } else if let fetched = property as? NSFetchedPropertyDescription {
                    entity.fetchedProperties.append(
                        FetchedProperty(
                            name: fetched.name, entityName: fetched.destinationEntityName ?? "",
                            predicate: fetched.fetchRequest?.predicate?.predicateFormat, isOptional: fetched.isOptional,
                            userInfo: strings(fetched.userInfo)))
                }
            }
            entity.fetchIndexes = object.indexes.map { index in
                FetchIndex(
                    name: index.name,
                    elements: index.elements.map { FetchIndex.Element(propertyName: $0.propertyName ?? "", isAscending: $0.isAscending) },
                    kind: index.elements.contains { $0.collationType == .rTree } ? .rTree : .binary)
            }
            result.append(entity)
        }
        return ModelVersion(name: "", entities: result, composites: composites)
    }

    static func attribute(_ object: NSAttributeDescription, path: String, composites: inout [CompositeType], depth: Int) -> Attribute {
        var type = AttributeType(coreDataTypeCode: Int64(object.attributeType.rawValue)) ?? .transformable
        if let composite = object as? NSCompositeAttributeDescription {
            type = .composite(path)
            let fields =
                depth < 32
                ? composite.elements.map { attribute($0, path: "\(path).\($0.name)", composites: &composites, depth: depth + 1) } : []
            composites.append(CompositeType(name: path, attributes: fields))
        }
        return Attribute(
            name: object.name, type: type, isOptional: object.isOptional, isTransient: object.isTransient,
            defaultValue: object.defaultValue.flatMap { attributeValue($0, type: object.attributeType) },
            isIndexed: object.storedIsIndexed, allowsExternalBinaryDataStorage: object.allowsExternalBinaryDataStorage,
            preservesValueInHistoryOnDeletion: object.preservesValueInHistoryOnDeletion,
            allowsCloudEncryption: object.allowsCloudEncryption,
            derivationExpression: (object as? NSDerivedAttributeDescription)?.derivationFormat,
            valueTransformerName: object.valueTransformerName,
            customClassName: object.attributeType == .transformableAttributeType ? object.attributeValueClassName : nil,
            renamingIdentifier: object.renamingIdentifier == object.name ? nil : object.renamingIdentifier,
            versionHashModifier: object.versionHashModifier, userInfo: strings(object.userInfo))
    }

    static func relationship(_ object: NSRelationshipDescription) -> Relationship {
        let rule: RelationshipDeleteRule =
            switch object.deleteRule {
            case .noActionDeleteRule: .noAction
            case .nullifyDeleteRule: .nullify
            case .cascadeDeleteRule: .cascade
            case .denyDeleteRule: .deny
            }
        return Relationship(
            name: object.name, destinationName: object.destinationEntity?.name ?? "", isToMany: object.isToMany,
            isOrdered: object.isOrdered,
            inverseName: object.inverseRelationship?.name, deleteRule: rule, minCount: object.minCount == 0 ? nil : object.minCount,
            maxCount: object.isToMany && object.maxCount != 0 ? object.maxCount : nil, isOptional: object.isOptional,
            isTransient: object.isTransient, renamingIdentifier: object.renamingIdentifier == object.name ? nil : object.renamingIdentifier,
            versionHashModifier: object.versionHashModifier, userInfo: strings(object.userInfo))
    }

    static func strings(_ userInfo: [AnyHashable: Any]?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in userInfo ?? [:] { result["\(key.base)"] = (value as? String) ?? "\(value)" }
        return result
    }

    static func attributeValue(_ value: Any, type: NSAttributeType) -> AttributeValue? {
        switch value {
        case let text as String:
            switch type {
            case .UUIDAttributeType: return .uuid(text)
            case .URIAttributeType: return .uri(text)
            default: return .string(text)
            }
        case let date as Date: return .date(iso8601(date))
        case let uuid as UUID: return .uuid(uuid.uuidString)
        case let url as URL: return .uri(url.absoluteString)
        case let decimal as Decimal: return .number("\(decimal)")
        case let number as NSDecimalNumber: return .number(number.description)
        case let flag as Bool where type == .booleanAttributeType: return .boolean(flag)
        case let number as NSNumber:
            switch type {
            case .booleanAttributeType: return .boolean(number.boolValue)
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer(number.int64Value)
            default: return .number("\(number.doubleValue)")
            }
        case let number as Int: return type == .booleanAttributeType ? .boolean(number != 0) : .integer(Int64(number))
        case let number as Double: return .number("\(number)")
        default: return nil
        }
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    // MARK: Hashes of objects outside a model

    /// An entity not in a model hashes with its ancestors as the whole model.
    static func lineageVersion(of entity: NSEntityDescription) -> ModelVersion {
        var lineage: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let next = current, !lineage.contains(where: { $0 === next }) {
            lineage.append(next)
            current = next.superentity
        }
        return version(of: lineage)
    }

    static func standaloneHash(of entity: NSEntityDescription) -> Data {
        Data(VersionHashes(lineageVersion(of: entity)).entityHashes[entity.name ?? ""] ?? [])
    }

    static func standalonePropertyHashes(of entity: NSEntityDescription) -> [String: Data] {
        (VersionHashes.propertyHashes(lineageVersion(of: entity))[entity.name ?? ""] ?? [:]).mapValues { Data($0) }
    }

    /// A property outside any entity hashes as the only property of an unnamed entity.
    static func standaloneHash(of property: NSPropertyDescription) -> [UInt8] {
        let holder = NSEntityDescription()
        holder.name = ""
        let copy = property.copy(with: nil) as! NSPropertyDescription
        if let relationship = property as? NSRelationshipDescription, let copied = copy as? NSRelationshipDescription {
            copied.destinationEntity = relationship.destinationEntity
            copied.inverseRelationship = relationship.inverseRelationship
        }
        holder.properties = [copy]
        return VersionHashes.propertyHashes(version(of: [holder]))[""]?[property.name] ?? []
    }

    // MARK: Copies

    /// Copies the entities of `models` into `target`, relinking inheritance, destinations,
    /// inverses and configurations among the copies.
    static func copyEntities(of models: [NSManagedObjectModel], into target: NSManagedObjectModel) {
        var copies: [ObjectIdentifier: NSEntityDescription] = [:]
        var all: [NSEntityDescription] = []
        let originals = models.flatMap(\.entities)
        for entity in originals {
            let copy = entity.copy(with: nil) as! NSEntityDescription
            copies[ObjectIdentifier(entity)] = copy
            all.append(copy)
        }
        for entity in originals where !entity.subentities.isEmpty {
            copies[ObjectIdentifier(entity)]?.subentities = entity.subentities.compactMap { copies[ObjectIdentifier($0)] }
        }
        for entity in originals {
            guard let copy = copies[ObjectIdentifier(entity)] else { continue }
            for (original, copied) in zip(entity.declaredProperties, copy.declaredProperties) {
                guard let original = original as? NSRelationshipDescription, let copied = copied as? NSRelationshipDescription else {
                    continue
                }
                let destination = original.destinationEntity.flatMap { copies[ObjectIdentifier($0)] }
                copied.destinationEntity = destination
                copied.inverseRelationship = original.inverseRelationship.flatMap { destination?.relationshipsByName[$0.name] }
            }
        }
        target.entities = all
        var configurations: [(name: String, entities: [NSEntityDescription])] = []
        for model in models {
            for name in model.configurations {
                let members = (model.entities(forConfigurationName: name) ?? []).compactMap { copies[ObjectIdentifier($0)] }
                if let index = configurations.firstIndex(where: { $0.name == name }) {
                    configurations[index].entities += members
                } else {
                    configurations.append((name, members))
                }
            }
        }
        for configuration in configurations { target.setEntities(configuration.entities, forConfigurationName: configuration.name) }
    }
}
#endif

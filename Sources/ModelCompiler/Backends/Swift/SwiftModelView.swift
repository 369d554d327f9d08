import ModelSchema

/// What the generator decides before any template runs: Swift types, accessor kinds, names and
/// documentation for every declaration, as plain data. Templates only print it.
struct SwiftModelView {
    let model: Model
    let version: ModelVersion
    let options: SwiftGenerator.Options
    let lookup: VersionLookup

    init(model: Model, options: SwiftGenerator.Options) {
        self.model = model
        self.version = model.currentVersion ?? model.versions.last ?? ModelVersion(name: model.name)
        self.options = options
        self.lookup = VersionLookup(version)
    }

    var access: String { options.accessLevel.rawValue }

    var modelTypeName: String { Self.modelTypeName(for: model.name) }

    /// `Trips` → `TripsModel`: the enum of versions generated for a model.
    static func modelTypeName(for modelName: String) -> String {
        SwiftNames.uppercasedFirst(SwiftNames.caseName(modelName).filter { $0 != "`" }) + "Model"
    }

    static func documentationLines(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        // Every line break ends a `///` line: a carriage return (alone or in "\r\n") ends a Swift
        // comment as surely as a line feed, and would otherwise turn the rest into code.
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    /// How generated code names the class of an entity in a type position.
    func className(of entityName: String) -> String {
        lookup.entity(named: entityName).map { SwiftClassName(of: $0).swiftType } ?? entityName
    }

    /// The entities generated code declares a class for (not generic or external ones).
    var generatedEntities: [Entity] {
        version.entities.filter { SwiftClassName(of: $0).isGenerated }
    }

    /// Modules that declare classes of entities (`Data` for `Data.Bookmark`), sorted.
    var classModules: [String] {
        Set(version.entities.compactMap { SwiftClassName(of: $0).module }).sorted()
    }

    // MARK: Model

    /// Types both Foundation (on Linux, with Core Data's initialisers unavailable) and
    /// `ModelRuntime` declare; a module that imports both needs aliases to name the runtime's.
    static let queryTypeNames = ["NSComparisonPredicate", "NSCompoundPredicate", "NSExpression", "NSPredicate", "NSSortDescriptor"]

    func modelValue(entityFiles: Bool) -> SwiftTemplateContext.Model {
        let hashes = model.versions.map { VersionHashes($0).versionChecksum }
        var usedCases: Set<String> = []
        let caseNames = model.versions.map { version in
            var caseName = SwiftNames.caseName(version.name)
            while !usedCases.insert(caseName).inserted { caseName += "_" }
            return caseName
        }
        let versions = zip(zip(model.versions, hashes), caseNames).map { pair, caseName in
            let (version, checksum) = pair
            return SwiftTemplateContext.Version(
                caseName: caseName, name: SwiftNames.literal(version.name), checksum: SwiftNames.literal(checksum),
                isCurrent: version.name == model.currentVersionName)
        }
        return SwiftTemplateContext.Model(
            access: access, modelName: SwiftNames.literal(model.name), modelNameText: model.name, typeName: modelTypeName,
            versions: versions, currentCase: versions.first(where: \.isCurrent)?.caseName ?? "", enums: version.enums.map(enumValue),
            composites: version.composites.map(compositeValue), entities: entityFiles ? [] : generatedEntities.map(entityValue),
            queryTypealiases: options.declaresQueryTypealiases ? Self.queryTypeNames : [],
            generatedCodeAPI: ModelgenVersion.generatedCodeAPI, modelBundle: options.modelBundle?.rawValue,
            migration: SwiftMigrationStages.value(for: model, caseNames: caseNames))
    }

    func enumValue(_ enumType: EnumType) -> SwiftTemplateContext.Enum {
        let rawType = enumType.rawType == .string ? "String" : SwiftTypes.scalarName(enumType.rawType)
        let cases = enumType.cases.map { enumCase in
            let name = Names.swiftKeywords.contains(enumCase.name) ? "`\(enumCase.name)`" : enumCase.name
            let raw: String? =
                switch enumCase.rawValue {
                case .string(let text): text == enumCase.name ? nil : SwiftNames.literal(text)
                case .integer(let number): String(number)
                default: nil
                }
            return SwiftTemplateContext.EnumCase(name: name, rawValue: raw)
        }
        return SwiftTemplateContext.Enum(
            access: access, name: enumType.name, rawType: rawType, cases: cases,
            documentationLines: Self.documentationLines(enumType.documentation))
    }

    func compositeValue(_ composite: CompositeType) -> SwiftTemplateContext.Composite {
        let fields = composite.attributes.map { field in
            let type = SwiftTypes.valueType(of: field, lookup: lookup)
            return SwiftTemplateContext.CompositeField(
                name: field.name, key: SwiftNames.literal(field.name), swiftType: type + (field.isOptional ? "?" : ""),
                decode: SwiftTypes.compositeDecode(field, from: "dictionary", lookup: lookup),
                encode: SwiftTypes.compositeEncode(field, lookup: lookup), isOptional: field.isOptional,
                documentationLines: Self.documentationLines(field.documentation))
        }
        let parameters = composite.attributes.map { field in
            "\(field.name): \(SwiftTypes.valueType(of: field, lookup: lookup))" + (field.isOptional ? "? = nil" : "")
        }
        return SwiftTemplateContext.Composite(
            access: access, name: composite.name, fields: fields, hasFields: !fields.isEmpty,
            initParameters: parameters.joined(separator: ", "), documentationLines: Self.documentationLines(composite.documentation))
    }

    // MARK: Entities

    func entityValue(_ entity: Entity) -> SwiftTemplateContext.Entity {
        let parent = entity.parentName.flatMap { lookup.entity(named: $0) }
        let (allAttributes, allRelationships) = lookup.allProperties(of: entity)
        let keys = (allAttributes.map(\.name) + allRelationships.map(\.name)).map {
            SwiftTemplateContext.PropertyKey(name: SwiftPropertyName.spelling($0), literal: SwiftNames.literal($0))
        }
        let lineage = declaringLineage(of: entity)
        let declaredAttributes = lineage.flatMap(\.attributes)
        let declaredRelationships = lineage.flatMap(\.relationships)
        let slotNames = declaredAttributes.map(\.name) + declaredRelationships.map(\.name)
        let mapped = SwiftClassName(of: entity)
        var objcName: String?
        if case .generated(_, let name?) = mapped { objcName = name }
        let batch = batchInsertMembers(entity)
        return SwiftTemplateContext.Entity(
            access: access, name: entity.name, entityNameLiteral: SwiftNames.literal(entity.name), className: mapped.swiftType,
            objcName: objcName, superclass: parent.map { SwiftClassName(of: $0).swiftType } ?? "NSManagedObject",
            isAbstract: entity.isAbstract, documentationLines: Self.documentationLines(entity.documentation),
            attributes: declaredAttributes.map { attributeValue($0) },
            relationships: declaredRelationships.map { relationshipValue($0) },
            toManyRelationships: declaredRelationships.filter(\.isToMany).map { relationshipValue($0) },
            fetchedProperties: lineage.flatMap(\.fetchedProperties).map { fetchedPropertyValue($0) },
            keys: keys, hasSuperclassKeys: parent != nil,
            // The runtime branch overrides the superclass's key path table when it has one.
            hasSuperclassKeyPathNames: parent.map { SwiftClassName(of: $0) != .generic } ?? false,
            slots: slotNames.enumerated().map { index, name in
                SwiftTemplateContext.Slot(
                    name: SwiftPropertyName.spelling(name), literal: SwiftNames.literal(name), index: String(index))
            },
            slotTableName: Self.unusedName("table", among: slotNames),
            batchFields: batch.fields, batchLinks: batch.links, hasBatchLinks: !batch.links.isEmpty,
            batchInitParameters: batch.initParameters, batchKeys: batch.keys)
    }

    /// `base`, with underscores appended until it is none of `names` (the slot table's name
    /// among the slots, which are named after properties).
    static func unusedName(_ base: String, among names: [String]) -> String {
        let taken = Set(names)
        var name = base
        while taken.contains(name) { name += "_" }
        return name
    }

    /// The entity and the ancestors whose properties its class declares: those without a class
    /// of their own (generic `NSManagedObject` entities), up to the nearest one with a class.
    /// Walks up only as far as needed (as `VersionLookup.ancestors` would, stopping at a cycle or
    /// an unknown parent), so deep hierarchies of classes are not walked once per entity.
    func declaringLineage(of entity: Entity) -> [Entity] {
        var lineage = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentName, seen.insert(parentName).inserted, let parent = lookup.entity(named: parentName) {
            guard SwiftClassName(of: parent) == .generic else { break }
            lineage.append(parent)
            current = parent
        }
        return lineage.reversed()
    }

    func declaredAttributes(of entity: Entity) -> [Attribute] { declaringLineage(of: entity).flatMap(\.attributes) }

    func declaredRelationships(of entity: Entity) -> [Relationship] { declaringLineage(of: entity).flatMap(\.relationships) }

    func attributeValue(_ attribute: Attribute) -> SwiftTemplateContext.Attribute {
        let accessor = SwiftTypes.accessor(for: attribute, lookup: lookup)
        var documentation = attribute.documentation.map { [$0] } ?? []
        if attribute.isDerived, let expression = attribute.derivationExpression { documentation.append("Derived: `\(expression)`.") }
        if let note = accessor.note { documentation.append(note) }
        let runtime = SwiftRuntimeAccessors.attribute(attribute, lookup: lookup)
        let name = SwiftPropertyName.spelling(attribute.name)
        var value = SwiftTemplateContext.Attribute(
            name: name, swiftType: accessor.swiftType,
            documentationLines: Self.documentationLines(documentation.isEmpty ? nil : documentation.joined(separator: "\n")),
            setterAccess: attribute.isDerived ? "private(set) " : "", isManaged: false, isComputed: false, read: nil, write: nil,
            runtimeRead: runtime.read, runtimeWrite: runtime.write,
            rawValueAccessor: accessor.rawValueAccessor.map { raw in
                SwiftTemplateContext.RawValueAccessor(
                    name: raw.name, type: raw.type, read: raw.read, runtimeRead: runtime.rawRead ?? "nil", attributeName: name)
            }, spaced: false)
        switch accessor.kind {
        case .managed: value.isManaged = true
        case .computed(let read, let write):
            value.isComputed = true
            value.read = read
            value.write = write
        }
        value.spaced = !documentation.isEmpty || value.isComputed
        return value
    }

    /// The results of the property's request, as Core Data hands them out (an array, in the
    /// request's order), typed by the destination's class.
    func fetchedPropertyValue(_ fetched: FetchedProperty) -> SwiftTemplateContext.FetchedProperty {
        var documentation = fetched.documentation.map { [$0] } ?? []
        let matching = fetched.predicate.map { " matching `\($0)`" } ?? ""
        documentation.append(
            "Fetched property: the `\(fetched.entityName)` objects\(matching),\n"
                + "fetched when first read and kept until the object is refreshed (`refresh(_:mergeChanges:)`).")
        return SwiftTemplateContext.FetchedProperty(
            name: SwiftPropertyName.spelling(fetched.name), literal: SwiftNames.literal(fetched.name),
            destination: className(of: fetched.entityName),
            documentationLines: Self.documentationLines(documentation.joined(separator: "\n")))
    }

    func relationshipValue(_ relationship: Relationship) -> SwiftTemplateContext.Relationship {
        let destination = className(of: relationship.destinationName)
        let swiftType: String
        if !relationship.isToMany {
            swiftType = destination + (relationship.isOptional ? "?" : "")
        } else if relationship.isOrdered {
            swiftType = "NSOrderedSet"
        } else {
            swiftType = "Set<\(destination)>"
        }
        var documentation = relationship.documentation.map { [$0] } ?? []
        if !relationship.isToMany, !relationship.isOptional {
            documentation.append("Required: reading it before it is set (or after the destination is deleted) traps.")
        }
        let runtime = SwiftRuntimeAccessors.relationship(relationship, destination: destination)
        return SwiftTemplateContext.Relationship(
            name: SwiftPropertyName.spelling(relationship.name), capitalizedName: SwiftNames.uppercasedFirst(relationship.name),
            destination: destination, swiftType: swiftType, isOrdered: relationship.isOrdered, isToMany: relationship.isToMany,
            documentationLines: Self.documentationLines(documentation.isEmpty ? nil : documentation.joined(separator: "\n")),
            spaced: !documentation.isEmpty, runtimeRead: runtime.read, runtimeWrite: runtime.write,
            mutableCollectionMethod: relationship.isOrdered ? "mutableOrderedSetValue" : "mutableSetValue",
            collectionType: relationship.isOrdered ? "NSOrderedSet" : "NSSet")
    }
}

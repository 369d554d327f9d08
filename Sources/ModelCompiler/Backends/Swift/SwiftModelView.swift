import ModelSchema
import Mustache

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

    static func documentationLines(_ text: String?) -> MustacheValue {
        guard let text, !text.isEmpty else { return .list([]) }
        // Every line break ends a `///` line: a carriage return (alone or in "\r\n") ends a Swift
        // comment as surely as a line feed, and would otherwise turn the rest into code.
        return .list(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { .string(String($0)) })
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

    func modelValue(entityFiles: Bool) -> MustacheValue {
        let hashes = model.versions.map { VersionHashes($0).versionChecksum }
        var usedCases: Set<String> = []
        let caseNames = model.versions.map { version in
            var caseName = SwiftNames.caseName(version.name)
            while !usedCases.insert(caseName).inserted { caseName += "_" }
            return caseName
        }
        let versions: [MustacheValue] = zip(zip(model.versions, hashes), caseNames).map { pair, caseName in
            let (version, checksum) = pair
            return [
                "caseName": .string(caseName), "name": .string(SwiftNames.literal(version.name)),
                "checksum": .string(SwiftNames.literal(checksum)), "isCurrent": .bool(version.name == model.currentVersionName),
            ]
        }
        let current = versions.first { $0.member("isCurrent") == .bool(true) }?.member("caseName") ?? .string("")
        return [
            "access": .string(access), "modelName": .string(SwiftNames.literal(model.name)), "modelNameText": .string(model.name),
            "typeName": .string(modelTypeName),
            "versions": .list(versions), "currentCase": current, "enums": .list(version.enums.map(enumValue)),
            "composites": .list(version.composites.map(compositeValue)),
            "entities": .list(entityFiles ? [] : generatedEntities.map(entityValue)),
            "queryTypealiases": .list(options.declaresQueryTypealiases ? Self.queryTypeNames.map(MustacheValue.string) : []),
            "modelBundle": options.modelBundle.map { .string($0.rawValue) } ?? .null,
            "migration": SwiftMigrationStages.value(for: model, caseNames: caseNames),
        ]
    }

    func enumValue(_ enumType: EnumType) -> MustacheValue {
        let rawType = enumType.rawType == .string ? "String" : SwiftTypes.scalarName(enumType.rawType)
        let cases: [MustacheValue] = enumType.cases.map { enumCase in
            let name = Names.swiftKeywords.contains(enumCase.name) ? "`\(enumCase.name)`" : enumCase.name
            let raw: String? =
                switch enumCase.rawValue {
                case .string(let text): text == enumCase.name ? nil : SwiftNames.literal(text)
                case .integer(let number): String(number)
                default: nil
                }
            return ["name": .string(name), "rawValue": raw.map(MustacheValue.string) ?? .null]
        }
        return [
            "access": .string(access), "name": .string(enumType.name), "rawType": .string(rawType), "cases": .list(cases),
            "documentationLines": Self.documentationLines(enumType.documentation),
        ]
    }

    func compositeValue(_ composite: CompositeType) -> MustacheValue {
        let fields: [MustacheValue] = composite.attributes.map { field in
            let type = SwiftTypes.valueType(of: field, lookup: lookup)
            return [
                "name": .string(field.name), "key": .string(SwiftNames.literal(field.name)),
                "swiftType": .string(type + (field.isOptional ? "?" : "")),
                "decode": .string(SwiftTypes.compositeDecode(field, from: "dictionary", lookup: lookup)),
                "encode": .string(SwiftTypes.compositeEncode(field, lookup: lookup)),
                "isOptional": .bool(field.isOptional), "documentationLines": Self.documentationLines(field.documentation),
            ]
        }
        let parameters = composite.attributes.map { field in
            "\(field.name): \(SwiftTypes.valueType(of: field, lookup: lookup))" + (field.isOptional ? "? = nil" : "")
        }
        return [
            "access": .string(access), "name": .string(composite.name), "fields": .list(fields), "hasFields": .bool(!fields.isEmpty),
            "initParameters": .string(parameters.joined(separator: ", ")),
            "documentationLines": Self.documentationLines(composite.documentation),
        ]
    }

    // MARK: Entities

    func entityValue(_ entity: Entity) -> MustacheValue {
        let parent = entity.parentName.flatMap { lookup.entity(named: $0) }
        let (allAttributes, allRelationships) = lookup.allProperties(of: entity)
        let keys: [MustacheValue] = (allAttributes.map(\.name) + allRelationships.map(\.name)).map {
            ["name": .string(SwiftPropertyName.spelling($0)), "literal": .string(SwiftNames.literal($0))]
        }
        let lineage = declaringLineage(of: entity)
        let declaredAttributes = lineage.flatMap(\.attributes)
        let declaredRelationships = lineage.flatMap(\.relationships)
        let slotNames = declaredAttributes.map(\.name) + declaredRelationships.map(\.name)
        let mapped = SwiftClassName(of: entity)
        var objcName: MustacheValue = .null
        if case .generated(_, let name?) = mapped { objcName = .string(name) }
        let members: MustacheValue = [
            "access": .string(access), "name": .string(entity.name), "entityNameLiteral": .string(SwiftNames.literal(entity.name)),
            "className": .string(mapped.swiftType), "objcName": objcName,
            "superclass": .string(parent.map { SwiftClassName(of: $0).swiftType } ?? "NSManagedObject"),
            "isAbstract": .bool(entity.isAbstract), "documentationLines": Self.documentationLines(entity.documentation),
            "attributes": .list(declaredAttributes.map { attributeValue($0) }),
            "relationships": .list(declaredRelationships.map { relationshipValue($0) }),
            "toManyRelationships": .list(declaredRelationships.filter(\.isToMany).map { relationshipValue($0) }),
            "keys": .list(keys), "hasSuperclassKeys": .bool(parent != nil),
            // The runtime branch overrides the superclass's key path table when it has one.
            "hasSuperclassKeyPathNames": .bool(parent.map { SwiftClassName(of: $0) != .generic } ?? false),
            "slots": .list(
                slotNames.enumerated().map { index, name in
                    [
                        "name": .string(SwiftPropertyName.spelling(name)), "literal": .string(SwiftNames.literal(name)),
                        "index": .string(String(index)),
                    ]
                }),
            "slotTableName": .string(Self.unusedName("table", among: slotNames)),
        ]
        guard case .object(var merged) = members else { return members }
        merged.merge(batchInsertMembers(entity)) { own, _ in own }
        return .object(merged)
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

    func attributeValue(_ attribute: Attribute) -> MustacheValue {
        let accessor = SwiftTypes.accessor(for: attribute, lookup: lookup)
        var documentation = attribute.documentation.map { [$0] } ?? []
        if attribute.isDerived, let expression = attribute.derivationExpression { documentation.append("Derived: `\(expression)`.") }
        if let note = accessor.note { documentation.append(note) }
        var value: [String: MustacheValue] = [
            "name": .string(SwiftPropertyName.spelling(attribute.name)), "swiftType": .string(accessor.swiftType),
            "documentationLines": Self.documentationLines(documentation.isEmpty ? nil : documentation.joined(separator: "\n")),
            "setterAccess": .string(attribute.isDerived ? "private(set) " : ""),
        ]
        switch accessor.kind {
        case .managed: value["isManaged"] = true
        case .computed(let read, let write):
            value["isComputed"] = true
            value["read"] = .string(read)
            value["write"] = write.map(MustacheValue.string) ?? .null
        }
        let runtime = SwiftRuntimeAccessors.attribute(attribute, lookup: lookup)
        value["runtimeRead"] = .string(runtime.read)
        value["runtimeWrite"] = runtime.write.map(MustacheValue.string) ?? .null
        if let raw = accessor.rawValueAccessor {
            value["rawValueAccessor"] = [
                "name": .string(raw.name), "type": .string(raw.type), "read": .string(raw.read),
                "runtimeRead": .string(runtime.rawRead ?? "nil"),
                "attributeName": .string(SwiftPropertyName.spelling(attribute.name)),
            ]
        }
        value["spaced"] = .bool(!documentation.isEmpty || value["isComputed"] != nil)
        return .object(value)
    }

    func relationshipValue(_ relationship: Relationship) -> MustacheValue {
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
        let capitalized = SwiftNames.uppercasedFirst(relationship.name)
        let runtime = SwiftRuntimeAccessors.relationship(relationship, destination: destination)
        return [
            "runtimeRead": .string(runtime.read), "runtimeWrite": .string(runtime.write),
            "mutableCollectionMethod": .string(relationship.isOrdered ? "mutableOrderedSetValue" : "mutableSetValue"),
            "collectionType": .string(relationship.isOrdered ? "NSOrderedSet" : "NSSet"),
            "spaced": .bool(!documentation.isEmpty),
            "name": .string(SwiftPropertyName.spelling(relationship.name)), "capitalizedName": .string(capitalized),
            "destination": .string(destination),
            "swiftType": .string(swiftType), "isOrdered": .bool(relationship.isOrdered), "isToMany": .bool(relationship.isToMany),
            "documentationLines": Self.documentationLines(documentation.isEmpty ? nil : documentation.joined(separator: "\n")),
        ]
    }
}

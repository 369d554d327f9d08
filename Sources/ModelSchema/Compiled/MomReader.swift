import Foundation

/// One compiled model version read back from its `.mom` archive.
public struct DecodedMom: Hashable, Sendable {
    /// The version, with entity and property order as archived.
    public var version: ModelVersion
    /// `NSManagedObjectModel.versionIdentifiers`, sorted. `version.versionIdentifier` holds the
    /// first; a model can carry several.
    public var versionIdentifiers: [String]

    public init(version: ModelVersion, versionIdentifiers: [String]) {
        self.version = version
        self.versionIdentifiers = versionIdentifiers
    }
}

extension CompiledModel {
    public struct ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// Decodes a `.mom` keyed archive — written by modelgen or by Xcode's `momc` — into a
    /// version named `versionName`. Corrupt or hostile archives are errors: every reference is
    /// bounds-checked, walks over composites are depth-limited and cycle-checked, and the
    /// property list decoder refuses archives that expand past their size.
    public static func decodeMom(_ bytes: [UInt8], versionName: String) throws(ReadError) -> DecodedMom {
        let plist: PropertyList
        do {
            plist = try BinaryPropertyList.decode(bytes)
        } catch {
            throw ReadError(message: "not a compiled model: \(error.message)")
        }
        do throws(KeyedArchiveReader.Failure) {
            var reader = MomReader(archive: try KeyedArchiveReader(plist))
            return try reader.decode(versionName: versionName)
        } catch {
            throw ReadError(message: error.message)
        }
    }
}

/// Turns the archived object graph into schema values. Entities are found through the model's
/// `NSEntities`; references between entities and properties resolve by UID to names, so no walk
/// follows the graph's cycles.
struct MomReader {
    typealias Failure = KeyedArchiveReader.Failure
    typealias Fields = KeyedArchiveReader.Fields

    let archive: KeyedArchiveReader
    /// Entity object UID → entity name.
    var entityNames: [UInt64: String] = [:]
    var composites: [CompositeType] = []

    init(archive: KeyedArchiveReader) {
        self.archive = archive
    }

    static let entityClasses: Set<String> = ["NSEntityDescription"]
    static let attributeClasses: Set<String> = [
        "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription",
    ]
    static let maximumCompositeDepth = 32

    mutating func decode(versionName: String) throws(Failure) -> DecodedMom {
        let model = try archive.object(archive.root, of: ["NSManagedObjectModel"], what: "the root object")
        let entityEntries = try archive.dictionary(model[field: "NSEntities"], what: "NSEntities")
        var entityObjects: [(uid: UInt64, fields: Fields)] = []
        for (name, value) in entityEntries {
            guard let uid = try archive.reference(value) else { throw Failure(message: "entity '\(name)' is null") }
            let fields = try archive.object(uid, of: Self.entityClasses, what: "entity '\(name)'")
            guard let entityName = try archive.string(fields[field: "NSEntityName"], what: "an entity name"), entityName == name else {
                throw Failure(message: "entity '\(name)' is filed under another name")
            }
            guard entityNames.updateValue(name, forKey: uid) == nil else { throw Failure(message: "entity '\(name)' is listed twice") }
            entityObjects.append((uid, fields))
        }
        var entities: [Entity] = []
        for (uid, fields) in entityObjects { entities.append(try entity(uid, fields)) }
        try checkInheritance(entities)
        var identifiers: [String] = []
        for item in try archive.array(model[field: "NSVersionIdentifiers"], what: "NSVersionIdentifiers") {
            if let identifier = try archive.string(item, what: "a version identifier") { identifiers.append(identifier) }
        }
        identifiers.sort()
        let configurations = try self.configurations(model[field: "NSConfigurations"])
        let version = ModelVersion(
            name: versionName, entities: entities, composites: composites, configurations: configurations,
            versionIdentifier: identifiers.first)
        return DecodedMom(version: version, versionIdentifiers: identifiers)
    }

    /// Core Data refuses a model whose inheritance loops; so does the reader.
    func checkInheritance(_ entities: [Entity]) throws(Failure) {
        let parents = Dictionary(entities.map { ($0.name, $0.parentName) }) { first, _ in first }
        for entity in entities {
            var seen: Set<String> = [entity.name]
            var current = entity.parentName
            while let name = current {
                guard seen.insert(name).inserted else { throw Failure(message: "the inheritance of entity '\(entity.name)' loops") }
                current = parents[name] ?? nil
            }
        }
    }

    func entityName(_ value: PropertyList?, what: String) throws(Failure) -> String? {
        guard let uid = try archive.reference(value) else { return nil }
        guard let name = entityNames[uid] else { throw Failure(message: "\(what) is not an entity of the model") }
        return name
    }

    mutating func entity(_ uid: UInt64, _ fields: Fields) throws(Failure) -> Entity {
        let name = entityNames[uid]!
        let what = "entity '\(name)'"
        var entity = Entity(name: name)
        let className = try archive.string(fields[field: "NSClassNameForEntity"], what: "the class of \(what)")
        entity.className = className == name ? nil : className
        entity.parentName = try entityName(fields[field: "NSSuperentity"], what: "the superentity of \(what)")
        entity.isAbstract = try archive.bool(fields[field: "NSIsAbstract"], what: "NSIsAbstract of \(what)")
        let renaming = try archive.string(fields[field: "NSRenamingIdentifier"], what: "the renaming identifier of \(what)")
        entity.renamingIdentifier = renaming == name ? nil : renaming
        entity.versionHashModifier = try nonEmpty(
            archive.string(fields[field: "NSVersionHashModifier"], what: "the version hash modifier of \(what)"))
        entity.userInfo = try userInfo(fields[field: "NSUserInfo"], what: "the user info of \(what)")
        for (propertyName, value) in try archive.dictionary(fields[field: "NSProperties"], what: "the properties of \(what)") {
            guard let propertyUID = try archive.reference(value) else {
                throw Failure(message: "property '\(name).\(propertyName)' is null")
            }
            let (className, propertyFields) = try archive.object(propertyUID)
            let propertyWhat = "property '\(name).\(propertyName)'"
            guard try archive.string(propertyFields[field: "NSPropertyName"], what: "the name of \(propertyWhat)") == propertyName else {
                throw Failure(message: "\(propertyWhat) is filed under another name")
            }
            if Self.attributeClasses.contains(className) {
                var visiting: Set<UInt64> = []
                entity.attributes.append(
                    try attribute(propertyUID, propertyFields, className: className, path: "\(name).\(propertyName)", visiting: &visiting))
            } else if className == "NSRelationshipDescription" {
                entity.relationships.append(try relationship(propertyFields, name: propertyName, what: propertyWhat))
            } else if className == "NSFetchedPropertyDescription" {
                entity.fetchedProperties.append(try fetchedProperty(propertyFields, name: propertyName, entityName: name))
            } else {
                throw Failure(message: "\(propertyWhat) is an \(className), which the reader does not support")
            }
        }
        for tuple in try archive.array(fields[field: "NSUniqueTuples"], what: "the uniqueness constraints of \(what)") {
            var members: [String] = []
            for member in try archive.array(tuple, what: "a uniqueness constraint of \(what)") {
                members.append(try memberName(member, what: "a uniqueness constraint member of \(what)"))
            }
            entity.uniquenessConstraints.append(members)
        }
        for index in try archive.array(fields[field: "NSFetchIndexDescriptions"], what: "the fetch indexes of \(what)") {
            entity.fetchIndexes.append(try fetchIndex(index, what: what))
        }
        // NSCompoundIndexes repeats the binary fetch indexes; what remains are older models'
        // compound indexes.
        var implied = entity.fetchIndexes.filter { $0.kind == .binary }.map { $0.elements.map(\.propertyName) }
        for item in try archive.array(fields[field: "NSCompoundIndexes"], what: "the compound indexes of \(what)") {
            var members: [String] = []
            for member in try archive.array(item, what: "a compound index of \(what)") {
                members.append(try memberName(member, what: "a compound index member of \(what)"))
            }
            if let position = implied.firstIndex(of: members) {
                implied.remove(at: position)
            } else {
                entity.compoundIndexes.append(members)
            }
        }
        return entity
    }

    /// A uniqueness constraint member: a property name, or a property description.
    func memberName(_ value: PropertyList, what: String) throws(Failure) -> String {
        if let uid = try? archive.reference(value), case .dictionary(let fields) = archive.entry(uid) {
            guard let name = try archive.string(fields[field: "NSPropertyName"], what: what) else {
                throw Failure(message: "\(what) is null")
            }
            return name
        }
        guard let name = try archive.string(value, what: what) else { throw Failure(message: "\(what) is null") }
        return name
    }

    func fetchIndex(_ value: PropertyList, what: String) throws(Failure) -> FetchIndex {
        guard let uid = try archive.reference(value) else { throw Failure(message: "a fetch index of \(what) is null") }
        let fields = try archive.object(uid, of: ["NSFetchIndexDescription"], what: "a fetch index of \(what)")
        let name = try archive.string(fields[field: "NSIndexName"], what: "the name of a fetch index of \(what)") ?? ""
        var elements: [FetchIndex.Element] = []
        var kind = FetchIndex.Kind.binary
        for item in try archive.array(fields[field: "NSIndexElements"], what: "the elements of fetch index '\(name)'") {
            guard let elementUID = try archive.reference(item) else {
                throw Failure(message: "an element of fetch index '\(name)' is null")
            }
            let element = try archive.object(
                elementUID, of: ["NSFetchIndexElementDescription"], what: "an element of fetch index '\(name)'")
            let property = try memberName(element[field: "NSPropertyName"] ?? .uid(0), what: "an element of fetch index '\(name)'")
            let ascending = try archive.integer(element[field: "NSAscending"], default: 1, what: "NSAscending") != 0
            if try archive.integer(element[field: "NSFetchIndexElementType"], what: "NSFetchIndexElementType") == 1 { kind = .rTree }
            elements.append(FetchIndex.Element(propertyName: property, isAscending: ascending))
        }
        return FetchIndex(name: name, elements: elements, kind: kind)
    }

    func configurations(_ value: PropertyList?) throws(Failure) -> [Configuration] {
        var result: [Configuration] = []
        for (name, members) in try archive.dictionary(value, what: "NSConfigurations") {
            var entityNames: [String] = []
            for member in try archive.array(members, what: "configuration '\(name)'") {
                guard let entity = try entityName(member, what: "a member of configuration '\(name)'") else { continue }
                entityNames.append(entity)
            }
            result.append(Configuration(name: name, entityNames: entityNames.sorted()))
        }
        return result.sorted { $0.name < $1.name }
    }

    func nonEmpty(_ text: String?) -> String? {
        text?.isEmpty == false ? text : nil
    }

    /// A user info dictionary; values that are not strings are rendered as text.
    func userInfo(_ value: PropertyList?, what: String) throws(Failure) -> [String: String] {
        var result: [String: String] = [:]
        for (key, member) in try archive.dictionary(value, what: what) {
            var item = member
            if let uid = try archive.reference(member) { item = archive.entry(uid) }
            switch item {
            case .string(let text): result[key] = text
            case .integer(let number): result[key] = String(number)
            case .real(let number): result[key] = String(number)
            case .boolean(let flag): result[key] = flag ? "YES" : "NO"
            default: result[key] = try archive.string(member, what: "user info '\(key)' of \(what)")
            }
        }
        return result
    }

    // MARK: Properties

    /// The flags shared by attributes and relationships. Core Data reads them from `_P` when it
    /// is present: bit 1 optional, 2 read-only, 3 transient, 4–7 "no validation predicates / no
    /// warnings / no user info / no version hash modifier", 10 ordered, 11 cloud encryption.
    struct PropertyFlags {
        var isOptional: Bool
        var isReadOnly: Bool
        var isTransient: Bool
        var isOrdered: Bool
        var allowsCloudEncryption: Bool
        var userInfo: [String: String]
        var versionHashModifier: String?
        var renamingIdentifier: String?
    }

    func propertyFlags(_ fields: Fields, name: String, what: String) throws(Failure) -> PropertyFlags {
        let packed = try archive.integer(fields[field: "_P"], what: "_P of \(what)")
        func flag(_ key: String, bit: Int64) throws(Failure) -> Bool {
            packed != 0 ? packed & bit != 0 : try archive.bool(fields[field: key], what: "\(key) of \(what)")
        }
        let hasUserInfo = packed == 0 || packed & 0x40 == 0
        let hasModifier = packed == 0 || packed & 0x80 == 0
        let renaming = try archive.string(fields[field: "NSRenamingIdentifier"], what: "the renaming identifier of \(what)")
        let orderedKey = try archive.bool(fields[field: "NSIsOrdered"], what: "NSIsOrdered of \(what)")
        return PropertyFlags(
            isOptional: try flag("NSIsOptional", bit: 2), isReadOnly: try flag("NSIsReadOnly", bit: 4),
            isTransient: try flag("NSIsTransient", bit: 8),
            isOrdered: try flag("NSIsOrdered", bit: 0x400) || orderedKey,
            allowsCloudEncryption: try flag("NSAllowsCloudEncryption", bit: 0x800),
            userInfo: hasUserInfo ? try userInfo(fields[field: "NSUserInfo"], what: "the user info of \(what)") : [:],
            versionHashModifier: hasModifier
                ? nonEmpty(try archive.string(fields[field: "NSVersionHashModifier"], what: "the version hash modifier of \(what)")) : nil,
            renamingIdentifier: renaming == name ? nil : renaming)
    }

    mutating func attribute(_ uid: UInt64, _ fields: Fields, className: String, path: String, visiting: inout Set<UInt64>) throws(Failure)
        -> Attribute
    {
        guard visiting.insert(uid).inserted, visiting.count <= Self.maximumCompositeDepth else {
            throw Failure(message: "composite attribute '\(path)' contains itself or nests too deeply")
        }
        defer { visiting.remove(uid) }
        let what = "attribute '\(path)'"
        let name = try archive.string(fields[field: "NSPropertyName"], what: "the name of \(what)") ?? ""
        let flags = try propertyFlags(fields, name: name, what: what)
        let code = try archive.integer(fields[field: "NSAttributeType"], what: "the type of \(what)")
        var type: AttributeType
        if code == 2100 || className == "NSCompositeAttributeDescription" {
            type = .composite(path)
            var elements: [Attribute] = []
            for item in try archive.array(fields[field: "NSElements"], what: "the elements of \(what)") {
                guard let elementUID = try archive.reference(item) else { throw Failure(message: "an element of \(what) is null") }
                let (elementClass, elementFields) = try archive.object(elementUID)
                guard Self.attributeClasses.contains(elementClass) else {
                    throw Failure(message: "an element of \(what) is an \(elementClass)")
                }
                let elementName = try archive.string(elementFields[field: "NSPropertyName"], what: "an element name of \(what)") ?? ""
                elements.append(
                    try attribute(elementUID, elementFields, className: elementClass, path: "\(path).\(elementName)", visiting: &visiting))
            }
            composites.append(CompositeType(name: path, attributes: elements))
        } else {
            guard let known = AttributeType(coreDataTypeCode: code) else {
                throw Failure(message: "\(what) has unknown attribute type \(code)")
            }
            type = known
        }
        var attribute = Attribute(name: name, type: type, isOptional: flags.isOptional, isTransient: flags.isTransient)
        attribute.allowsCloudEncryption = flags.allowsCloudEncryption
        attribute.userInfo = flags.userInfo
        attribute.versionHashModifier = flags.versionHashModifier
        attribute.renamingIdentifier = flags.renamingIdentifier
        attribute.valueTransformerName = try archive.string(fields[field: "NSValueTransformerName"], what: "the transformer of \(what)")
        let storage = try archive.integer(fields[field: "NSFlagsKey"], what: "NSFlagsKey of \(what)")
        attribute.allowsExternalBinaryDataStorage = storage & 1 != 0
        attribute.preservesValueInHistoryOnDeletion = storage & 16 != 0
        if let expression = fields[field: "NSDerivationExpression"], (try archive.reference(expression)) != nil {
            guard let text = try? archive.string(expression, what: "") else {
                throw Failure(message: "the derivation of \(what) is an archived expression, which the reader does not decode yet")
            }
            attribute.derivationExpression = text
        }
        if let value = fields[field: "NSDefaultValue"], let defaultUID = try archive.reference(value) {
            attribute.defaultValue = try MomDefaultValue(archive: archive).value(defaultUID, type: type, what: "the default of \(what)")
        }
        let packed = try archive.integer(fields[field: "_P"], what: "_P of \(what)")
        if packed == 0 || packed & 0x10 == 0 {
            var rules: [ValidationRule] = []
            for item in try archive.array(fields[field: "NSValidationPredicates"], what: "the validation predicates of \(what)") {
                if let rule = try validationRule(item, what: "a validation predicate of \(what)") { rules.append(rule) }
            }
            attribute.validation = AttributeValidation(rules: rules, type: type) ?? AttributeValidation()
        }
        return attribute
    }

    func relationship(_ fields: Fields, name: String, what: String) throws(Failure) -> Relationship {
        let flags = try propertyFlags(fields, name: name, what: what)
        var destination = try entityName(fields[field: "NSDestinationEntity"], what: "the destination of \(what)")
        if destination == nil {
            destination = try archive.string(fields[field: "_NSDestinationEntityName"], what: "the destination name of \(what)")
        }
        guard let destination else { throw Failure(message: "\(what) has no destination") }
        var inverse = try archive.string(fields[field: "_NSInverseRelationshipName"], what: "the inverse name of \(what)")
        if inverse == nil, let inverseUID = try archive.reference(fields[field: "NSInverseRelationship"]) {
            let inverseFields = try archive.object(inverseUID, of: ["NSRelationshipDescription"], what: "the inverse of \(what)")
            inverse = try archive.string(inverseFields[field: "NSPropertyName"], what: "the inverse name of \(what)")
        }
        let maxCount = try archive.integer(fields[field: "NSMaxCount"], what: "NSMaxCount of \(what)")
        let minCount = try archive.integer(fields[field: "NSMinCount"], what: "NSMinCount of \(what)")
        guard (0...Int64(Int32.max)).contains(maxCount), (0...Int64(Int32.max)).contains(minCount) else {
            throw Failure(message: "\(what) has counts out of range")
        }
        let rule: RelationshipDeleteRule
        switch try archive.integer(fields[field: "NSDeleteRule"], default: 1, what: "NSDeleteRule of \(what)") {
        case 0: rule = .noAction
        case 1: rule = .nullify
        case 2: rule = .cascade
        case 3: rule = .deny
        case let other: throw Failure(message: "\(what) has unknown delete rule \(other)")
        }
        let isToMany = maxCount != 1
        return Relationship(
            name: name, destinationName: destination, isToMany: isToMany, isOrdered: flags.isOrdered, inverseName: inverse,
            deleteRule: rule, minCount: minCount == 0 ? nil : Int(minCount), maxCount: isToMany && maxCount != 0 ? Int(maxCount) : nil,
            isOptional: flags.isOptional, isTransient: flags.isTransient, renamingIdentifier: flags.renamingIdentifier,
            versionHashModifier: flags.versionHashModifier, userInfo: flags.userInfo)
    }
}

extension AttributeType {
    /// The type with this `NSAttributeType` raw value; nil for undefined (0), composite and
    /// unknown codes.
    public init?(coreDataTypeCode code: Int64) {
        guard let type = AttributeType.scalarTypes.first(where: { Int64($0.coreDataTypeCode) == code }) else { return nil }
        self = type
    }
}

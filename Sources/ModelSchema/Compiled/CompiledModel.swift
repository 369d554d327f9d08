import Foundation

/// The compiled form of a model: a `<Name>.momd` bundle with one `<Version>.mom` keyed archive
/// per version, in the object structure `momc` writes, and a `VersionInfo.plist` with the version
/// hashes and checksums Core Data computes. Output is byte-identical for equal models.
public enum CompiledModel {
    /// Files of the bundle, relative to the folder that holds `<Name>.momd`.
    /// `compiled` hears the name of each file once its bytes are made.
    public static func files(for model: Model, compiled: ((String) -> Void)? = nil) -> [(path: String, bytes: [UInt8])] {
        let folder = "\(model.name).momd"
        var files: [(path: String, bytes: [UInt8])] = []
        for version in model.versions {
            files.append(("\(folder)/\(version.name).mom", mom(for: version)))
            compiled?("\(version.name).mom")
        }
        files.append(("\(folder)/\(VersionInfo.fileName)", versionInfo(for: model)))
        compiled?(VersionInfo.fileName)
        return files
    }

    public static func versionInfo(for model: Model) -> [UInt8] {
        let hashes = model.versions.map { ($0.name, VersionHashes($0)) }
        return BinaryPropertyList.encode(
            .dictionary([
                ("NSManagedObjectModel_CurrentVersionName", .string(model.currentVersionName)),
                (
                    "NSManagedObjectModel_VersionChecksums",
                    .dictionary(hashes.map { (key: $0.0, value: .string($0.1.versionChecksum)) })
                ),
                (
                    "NSManagedObjectModel_VersionHashes",
                    .dictionary(
                        hashes.map { name, versionHashes in
                            (
                                key: name,
                                value: .dictionary(
                                    versionHashes.sortedEntityNames.map { (key: $0, value: .data(versionHashes.entityHashes[$0]!)) })
                            )
                        })
                ),
            ]))
    }

    /// One version as the keyed archive of an `NSManagedObjectModel`.
    public static func mom(for version: ModelVersion) -> [UInt8] {
        BinaryPropertyList.encode(MomWriter(lookup: VersionLookup(version)).encodeModel())
    }
}

/// Encodes a version's object graph: the model, its entities (with sub-entity and super-entity
/// links), their properties (with entity, destination and inverse links) and indexes. Objects
/// that others point to are identified ("entity:Trip") so that cycles resolve to one object.
final class MomWriter {
    let lookup: VersionLookup
    var archive = KeyedArchiveBuilder()
    static let null = KeyedArchiveBuilder.null
    /// Entities are encoded where first referenced (a superentity, a destination), as momc
    /// orders them; past this nesting the rest wait in `pending`, so a long chain of
    /// relationships cannot exhaust the stack.
    static let maximumNesting = 32
    var nesting = 0
    var pending: [(entity: Entity, object: PropertyList)] = []

    init(lookup: VersionLookup) {
        self.lookup = lookup
    }

    var version: ModelVersion { lookup.version }

    func encodeModel() -> PropertyList {
        let (root, _) = archive.reserve(identity: "model")
        let entities = version.entities.map { (key: $0.name, value: entity($0)) }
        let entitiesDictionary = archive.dictionary(mutable: true, entities)
        var fields: [(String, PropertyList)] = [("NSEntities", entitiesDictionary)]
        // Core Data archives named configurations as name → set of entities.
        let configurations = version.configurations.sorted { $0.name < $1.name }.map { configuration in
            (
                key: configuration.name,
                value: archive.set(configuration.entityNames.sorted().compactMap { archive.reference(to: "entity:\($0)") })
            )
        }
        if !configurations.isEmpty { fields.append(("NSConfigurations", archive.dictionary(mutable: true, configurations))) }
        let identifiers = version.versionIdentifier.map { [archive.string($0)] } ?? []
        fields += [("NSFetchRequestTemplates", Self.null), ("NSVersionIdentifiers", archive.set(identifiers))]
        archive.fill(root, classChain: ["NSManagedObjectModel", "NSObject"], fields: fields)
        while let (entity, object) = pending.popLast() { fill(entity, object) }
        return archive.archive(root: root)
    }

    func reference(_ identity: String) -> PropertyList {
        archive.reference(to: identity) ?? Self.null
    }

    func entity(_ entity: Entity) -> PropertyList {
        let (object, isNew) = archive.reserve(identity: "entity:\(entity.name)")
        guard isNew else { return object }
        guard nesting < Self.maximumNesting else {
            pending.append((entity, object))
            return object
        }
        nesting += 1
        defer { nesting -= 1 }
        fill(entity, object)
        return object
    }

    func fill(_ entity: Entity, _ object: PropertyList) {
        var fields: [(String, PropertyList)] = [
            ("NSEntityName", archive.string(entity.name)),
            ("NSClassNameForEntity", archive.string(entity.className ?? entity.name)),
            ("NSRenamingIdentifier", archive.string(entity.renamingIdentifier ?? entity.name)),
            ("NSVersionHashModifier", archive.optionalString(entity.versionHashModifier)),
            ("NSManagedObjectModel", reference("model")),
        ]
        if entity.isAbstract { fields.append(("NSIsAbstract", .boolean(true))) }
        let parent = entity.parentName.flatMap { lookup.entity(named: $0) }
        fields.append(("NSSuperentity", parent.map { self.entity($0) } ?? Self.null))
        let subentities = version.entities.filter { $0.parentName == entity.name }.map { (key: $0.name, value: self.entity($0)) }
        fields.append(("NSSubentities", archive.dictionary(mutable: true, subentities)))
        var properties: [(key: String, value: PropertyList)] = []
        for attribute in entity.attributes { properties.append((attribute.name, self.attribute(attribute, of: entity))) }
        for relationship in entity.relationships { properties.append((relationship.name, self.relationship(relationship, of: entity))) }
        for fetched in entity.fetchedProperties { properties.append((fetched.name, fetchedProperty(fetched, of: entity))) }
        fields.append(("NSProperties", archive.dictionary(mutable: true, properties)))
        fields.append(("NSUserInfo", userInfo(entity.userInfo)))
        if !entity.uniquenessConstraints.isEmpty {
            let tuples = entity.uniquenessConstraints.map { members in archive.array(mutable: true, members.map { archive.string($0) }) }
            fields.append(("NSUniqueTuples", archive.array(mutable: true, tuples)))
        }
        if !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty {
            if !entity.fetchIndexes.isEmpty {
                let indexes = entity.fetchIndexes.map { fetchIndex($0, of: entity) }
                fields.append(("NSFetchIndexDescriptions", archive.array(mutable: true, indexes)))
            }
            // Compound indexes of older models join those the binary fetch indexes imply
            // (inferred from the key's name and type; not confirmed against momc output).
            let compound =
                entity.fetchIndexes.filter { $0.kind == .binary }.map { $0.elements.map(\.propertyName) } + entity.compoundIndexes
            fields.append(
                (
                    "NSCompoundIndexes",
                    archive.array(
                        mutable: true, compound.map { members in archive.array(mutable: true, members.map { archive.string($0) }) })
                ))
        }
        archive.fill(object, classChain: ["NSEntityDescription", "NSObject"], fields: fields)
    }

    func userInfo(_ userInfo: [String: String]) -> PropertyList {
        archive.dictionary(mutable: false, userInfo.keys.sorted().map { (key: $0, value: archive.string(userInfo[$0]!)) })
    }

    /// `_P` flags as Core Data's encoder computes them: bit 0 always; 1 optional; 2 read-only
    /// (derived); 3 transient; 4 and 5 "no validation predicates" and "no validation warnings";
    /// 6 "no user info"; 7 "no version hash modifier"; 10 ordered; 11 cloud encryption. Core
    /// Data reads these bits instead of the Boolean keys when `_P` is present, and skips the keys
    /// their bits mark absent.
    static func propertyFlags(
        isOptional: Bool, isReadOnly: Bool, isTransient: Bool, hasUserInfo: Bool, hasVersionHashModifier: Bool, isOrdered: Bool,
        allowsCloudEncryption: Bool, hasValidation: Bool = false
    ) -> Int64 {
        var flags: Int64 = hasValidation ? 0x01 : 0x31
        if isOptional { flags |= 2 }
        if isReadOnly { flags |= 4 }
        if isTransient { flags |= 8 }
        if !hasUserInfo { flags |= 0x40 }
        if !hasVersionHashModifier { flags |= 0x80 }
        if isOrdered { flags |= 0x400 }
        if allowsCloudEncryption { flags |= 0x800 }
        return flags
    }

    func commonPropertyFields(
        name: String, entity: Entity?, isOptional: Bool, isReadOnly: Bool, isTransient: Bool, isOrdered: Bool = false,
        allowsCloudEncryption: Bool = false, renamingIdentifier: String?, versionHashModifier: String?, userInfo: [String: String],
        validationRules: [ValidationRule] = []
    ) -> [(String, PropertyList)] {
        let modifier = versionHashModifier.flatMap { $0.isEmpty ? nil : $0 }
        let flags = Self.propertyFlags(
            isOptional: isOptional, isReadOnly: isReadOnly, isTransient: isTransient, hasUserInfo: !userInfo.isEmpty,
            hasVersionHashModifier: modifier != nil, isOrdered: isOrdered, allowsCloudEncryption: allowsCloudEncryption,
            hasValidation: !validationRules.isEmpty)
        var fields: [(String, PropertyList)] = [
            ("NSPropertyName", archive.string(name)),
            ("NSRenamingIdentifier", archive.string(renamingIdentifier ?? name)),
            ("_P", .integer(flags)),
        ]
        if let entity { fields.append(("NSEntity", reference("entity:\(entity.name)"))) }
        if isOptional { fields.append(("NSIsOptional", .boolean(true))) }
        if isReadOnly { fields.append(("NSIsReadOnly", .boolean(true))) }
        if isTransient { fields.append(("NSIsTransient", .boolean(true))) }
        if isOrdered { fields.append(("NSIsOrdered", .boolean(true))) }
        if allowsCloudEncryption { fields.append(("NSAllowsCloudEncryption", .boolean(true))) }
        if let modifier { fields.append(("NSVersionHashModifier", archive.string(modifier))) }
        if !userInfo.isEmpty { fields.append(("NSUserInfo", self.userInfo(userInfo))) }
        if !validationRules.isEmpty {
            let predicates = validationRules.map { validationPredicate($0) }
            let warnings = validationRules.map { archive.value(.integer(Int64($0.errorCode))) }
            fields.append(("NSValidationPredicates", archive.array(mutable: false, predicates)))
            fields.append(("NSValidationWarnings", archive.array(mutable: false, warnings)))
        }
        return fields
    }

    /// A validation rule as an archived `NSComparisonPredicate`: the operator object Foundation
    /// makes for it (`NSComparisonPredicateOperator`, `NSMatchingPredicateOperator` for
    /// `MATCHES`), the subject (`NSSelfExpression`, or an `NSKeyPathExpression` reading
    /// `valueForKey:` of `SELF`) and an `NSConstantValueExpression`.
    func validationPredicate(_ rule: ValidationRule) -> PropertyList {
        let operatorObject = archive.predicateOperator(rule.comparison.predicateOperator, modifier: .direct, options: [])
        let selfExpression = archive.object(
            classChain: ["NSSelfExpression", "NSExpression", "NSObject"], fields: [("NSExpressionType", .integer(1))])
        let left: PropertyList
        if rule.subject == .value {
            left = selfExpression
        } else {
            let key = constantExpression(archive.string(rule.subject.rawValue))
            left = archive.object(
                classChain: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
                fields: [
                    ("NSExpressionType", .integer(3)), ("NSOperand", selfExpression), ("NSSelectorName", archive.string("valueForKey:")),
                    ("NSArguments", archive.array(mutable: false, [key])),
                ])
        }
        let value: PropertyList
        switch rule.constant {
        case .integer(let number): value = archive.value(.integer(number))
        case .real(let number): value = archive.value(.real(number))
        case .string(let text): value = archive.string(text)
        }
        return archive.object(
            classChain: ["NSComparisonPredicate", "NSPredicate", "NSObject"],
            fields: [("NSPredicateOperator", operatorObject), ("NSLeftExpression", left), ("NSRightExpression", constantExpression(value))])
    }

    func constantExpression(_ value: PropertyList) -> PropertyList {
        archive.object(
            classChain: ["NSConstantValueExpression", "NSExpression", "NSObject"],
            fields: [("NSExpressionType", .integer(0)), ("NSConstantValue", value)])
    }

    static let attributeClasses = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]

    func attribute(_ attribute: Attribute, of entity: Entity?) -> PropertyList {
        let identity = entity.map { "property:\($0.name).\(attribute.name)" }
        let (object, isNew) = archive.reserve(identity: identity)
        guard isNew else { return object }
        var fields = commonPropertyFields(
            name: attribute.name, entity: entity, isOptional: attribute.isOptional, isReadOnly: attribute.isDerived,
            isTransient: attribute.isTransient, allowsCloudEncryption: attribute.allowsCloudEncryption,
            renamingIdentifier: attribute.renamingIdentifier,
            versionHashModifier: attribute.versionHashModifier, userInfo: attribute.userInfo,
            validationRules: attribute.validation.rules(for: attribute.type))
        fields.append(("NSAttributeType", .integer(Int64(attribute.type.coreDataTypeCode))))
        fields.append(("NSAttributeValueClassName", archive.optionalString(Self.valueClassName(attribute))))
        fields.append(("NSDefaultValue", attribute.defaultValue.map { defaultValue($0, type: attribute.type) } ?? Self.null))
        fields.append(("NSValueTransformerName", archive.optionalString(attribute.valueTransformerName)))
        var flags: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { flags |= 1 }
        if attribute.preservesValueInHistoryOnDeletion { flags |= 16 }
        fields.append(("NSFlagsKey", .integer(flags)))
        if let expression = attribute.derivationExpression {
            fields.append(("NSDerivationExpression", archive.string(DerivationExpression.predicateFormat(of: expression))))
        }
        var classes = Self.attributeClasses
        if case .composite(let compositeName) = attribute.type, let composite = lookup.composite(named: compositeName) {
            classes.insert("NSCompositeAttributeDescription", at: 0)
            let elements = composite.attributes.map { self.attribute($0, of: nil) }
            fields.append(("NSElements", archive.array(mutable: false, elements)))
        }
        archive.fill(object, classChain: classes, fields: fields)
        return object
    }

    static func valueClassName(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binaryData: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        // momc records no class for Transformable attributes, even with a custom class name.
        case .transformable: nil
        case .objectID: "NSManagedObjectID"
        // An Undefined attribute holds a value of any class (inferred: no class is recorded).
        case .undefined: nil
        case .composite: "NSDictionary"
        }
    }

    func defaultValue(_ value: AttributeValue, type: AttributeType) -> PropertyList {
        switch value {
        case .integer(let number): return archive.value(.integer(number))
        case .boolean(let flag): return archive.value(.boolean(flag))
        case .string(let text): return archive.string(text)
        case .number(let text):
            return type == .decimal ? decimalNumber(text) : archive.value(.real(Double(text) ?? 0))
        case .date(let text):
            return archive.object(classChain: ["NSDate", "NSObject"], fields: [("NS.time", .real(Self.referenceDateSeconds(text)))])
        case .uuid(let text):
            let bytes = UUID(uuidString: text).map { uuid in withUnsafeBytes(of: uuid.uuid) { Array($0) } } ?? []
            return archive.object(classChain: ["NSUUID", "NSObject"], fields: [("NS.uuidbytes", .data(bytes))])
        case .uri(let text):
            let relative = archive.string(text)
            return archive.object(classChain: ["NSURL", "NSObject"], fields: [("NS.base", Self.null), ("NS.relative", relative)])
        }
    }

    static func referenceDateSeconds(_ text: String) -> Double {
        ISO8601.date(from: text)?.timeIntervalSinceReferenceDate ?? 0
    }

    /// `NSDecimalNumber`'s keyed encoding: a little-endian 128-bit mantissa and a base-10 exponent.
    func decimalNumber(_ text: String) -> PropertyList {
        var digits = ""
        var exponent = 0
        var negative = false
        var seenPoint = false
        var mantissaText = Substring(text)
        if let marker = mantissaText.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            // Clamped far beyond any decimal's range, so counting digits cannot overflow.
            exponent = min(max(Int(mantissaText[mantissaText.index(after: marker)...]) ?? 0, -(1 << 40)), 1 << 40)
            mantissaText = mantissaText[..<marker]
        }
        for character in mantissaText {
            if character == "-" {
                negative = true
            } else if character == "." {
                seenPoint = true
            } else if let digit = character.wholeNumberValue, character.isASCII {
                digits.append(String(digit))
                if seenPoint { exponent -= 1 }
            }
        }
        while digits.count > 1, digits.hasPrefix("0") { digits.removeFirst() }
        while digits.count > 1, digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        // Up to 38 decimal digits fit the 128-bit mantissa.
        var words = [UInt16](repeating: 0, count: 8)
        for character in digits.prefix(38) {
            var carry = UInt32(character.wholeNumberValue ?? 0)
            for index in words.indices {
                let product = UInt32(words[index]) * 10 + carry
                words[index] = UInt16(product & 0xFFFF)
                carry = product >> 16
            }
        }
        let length = (words.lastIndex { $0 != 0 } ?? -1) + 1
        let mantissa = words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        return archive.object(
            classChain: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
            fields: [
                ("NS.exponent", .integer(Int64(exponent))), ("NS.length", .integer(Int64(length))),
                ("NS.negative", .boolean(negative && length > 0)), ("NS.compact", .boolean(true)), ("NS.mantissa.bo", .integer(1)),
                ("NS.mantissa", .data(mantissa)),
            ])
    }

    func relationship(_ relationship: Relationship, of entity: Entity) -> PropertyList {
        let (object, isNew) = archive.reserve(identity: "property:\(entity.name).\(relationship.name)")
        guard isNew else { return object }
        var fields = commonPropertyFields(
            name: relationship.name, entity: entity, isOptional: relationship.isOptional, isReadOnly: false,
            isTransient: relationship.isTransient, isOrdered: relationship.isOrdered, renamingIdentifier: relationship.renamingIdentifier,
            versionHashModifier: relationship.versionHashModifier, userInfo: relationship.userInfo)
        let destination = lookup.entity(named: relationship.destinationName)
        fields.append(("NSDestinationEntity", destination.map { self.entity($0) } ?? Self.null))
        fields.append(("_NSDestinationEntityName", archive.string(relationship.destinationName)))
        var inverse = Self.null
        if let inverseName = relationship.inverseName, let destination, let owner = owner(of: inverseName, in: destination),
            let inverseRelationship = owner.relationship(named: inverseName)
        {
            inverse = self.relationship(inverseRelationship, of: owner)
        }
        fields.append(("NSInverseRelationship", inverse))
        fields.append(("_NSInverseRelationshipName", archive.optionalString(relationship.inverseName)))
        let rule: Int64 =
            switch relationship.deleteRule {
            case .noAction: 0
            case .nullify: 1
            case .cascade: 2
            case .deny: 3
            }
        fields.append(("NSDeleteRule", .integer(rule)))
        fields.append(("NSMaxCount", .integer(relationship.isToMany ? Int64(relationship.maxCount ?? 0) : 1)))
        fields.append(("NSMinCount", .integer(Int64(relationship.minCount ?? 0))))
        archive.fill(object, classChain: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"], fields: fields)
        return object
    }

    /// The entity of `entity`'s lineage that declares a relationship named `name`.
    func owner(of name: String, in entity: Entity) -> Entity? {
        ([entity] + lookup.ancestors(of: entity)).first { $0.relationship(named: name) != nil }
    }

    func fetchIndex(_ index: FetchIndex, of entity: Entity) -> PropertyList {
        let identity = "index:\(entity.name).\(index.name)"
        let (object, _) = archive.reserve(identity: identity)
        let elements = index.elements.map { element in
            archive.object(
                classChain: ["NSFetchIndexElementDescription", "NSObject"],
                fields: [
                    ("NSPropertyName", archive.string(element.propertyName)), ("NSAscending", .boolean(element.isAscending)),
                    ("NSFetchIndexElementType", .integer(index.kind == .rTree ? 1 : 0)), ("NSFetchIndexDescription", object),
                ])
        }
        archive.fill(
            object, classChain: ["NSFetchIndexDescription", "NSObject"],
            fields: [
                ("NSIndexName", archive.string(index.name)), ("NSEntity", reference("entity:\(entity.name)")),
                ("NSIndexElements", archive.array(mutable: false, elements)), ("NSPartialIndexPredicate", Self.null),
            ])
        return object
    }
}

extension AttributeType {
    var isCompositeType: Bool {
        if case .composite = self { return true }
        return false
    }
}

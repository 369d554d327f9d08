import ModelSchema

/// One fact a lock records about an entity or property: a hashed input, as text
/// (`type: String`, `optional: false`). Facts explain a changed hash without the old model.
public struct LockFact: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// A property of a shipped version as the lock records it: its version hash (hex) and facts.
public struct LockedProperty: Hashable, Sendable {
    public var name: String
    public var hash: String
    public var facts: [LockFact]

    public init(name: String, hash: String, facts: [LockFact]) {
        self.name = name
        self.hash = hash
        self.facts = facts
    }
}

/// An entity of a shipped version as the lock records it: its version hash (hex), its own
/// facts and the properties it declares (inherited ones are recorded on the parent).
public struct LockedEntity: Hashable, Sendable {
    public var name: String
    public var hash: String
    public var facts: [LockFact]
    public var properties: [LockedProperty]

    public init(name: String, hash: String, facts: [LockFact], properties: [LockedProperty]) {
        self.name = name
        self.hash = hash
        self.facts = facts
        self.properties = properties
    }
}

/// What `versions.lock` records of one shipped version: the checksum Core Data computes for it
/// and, per entity and property, the hashes and the facts they were computed from.
public struct LockedVersion: Hashable, Sendable {
    public var name: String
    public var checksum: String
    public var entities: [LockedEntity]

    public init(name: String, checksum: String, entities: [LockedEntity]) {
        self.name = name
        self.checksum = checksum
        self.entities = entities
    }

    /// The lock entry of `version` as it is now. Entities and properties sorted by UTF-8 bytes,
    /// as Core Data sorts them, so the entry is the same on every machine.
    public init(_ version: ModelVersion) {
        let hashes = VersionHashes(version)
        let propertyHashes = VersionHashes.propertyHashes(version)
        name = version.name
        checksum = hashes.versionChecksum
        entities = version.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map { entity in
            let ownHashes = propertyHashes[entity.name] ?? [:]
            var properties: [LockedProperty] = []
            for attribute in entity.attributes {
                properties.append(
                    LockedProperty(
                        name: attribute.name, hash: Self.hex(ownHashes[attribute.name] ?? []), facts: LockFacts.facts(of: attribute)))
            }
            for relationship in entity.relationships {
                properties.append(
                    LockedProperty(
                        name: relationship.name, hash: Self.hex(ownHashes[relationship.name] ?? []),
                        facts: LockFacts.facts(of: relationship)))
            }
            properties.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            return LockedEntity(
                name: entity.name, hash: Self.hex(hashes.entityHashes[entity.name] ?? []), facts: LockFacts.facts(of: entity),
                properties: properties)
        }
    }

    public func entity(named name: String) -> LockedEntity? { entities.first { $0.name == name } }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}

/// The hashed inputs of entities and properties, as lock facts. Only inputs Core Data hashes
/// are recorded, so a fact that differs always explains a hash that differs.
enum LockFacts {
    static func facts(of entity: Entity) -> [LockFact] {
        var facts: [LockFact] = []
        if let parent = entity.parentName { facts.append(LockFact("parent", parent)) }
        if entity.isAbstract { facts.append(LockFact("abstract", "true")) }
        if let modifier = entity.versionHashModifier { facts.append(LockFact("versionHashModifier", modifier)) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty }
        if !constraints.isEmpty { facts.append(LockFact("uniquenessConstraints", constraints.joined(separator: " | "))) }
        return facts
    }

    static func facts(of attribute: Attribute) -> [LockFact] {
        var facts = [LockFact("kind", "attribute"), LockFact("type", attribute.type.name), LockFact("optional", "\(attribute.isOptional)")]
        if attribute.isTransient { facts.append(LockFact("transient", "true")) }
        if attribute.allowsExternalBinaryDataStorage { facts.append(LockFact("externalStorage", "true")) }
        if attribute.preservesValueInHistoryOnDeletion { facts.append(LockFact("preserveValueOnDeletion", "true")) }
        if let modifier = attribute.versionHashModifier { facts.append(LockFact("versionHashModifier", modifier)) }
        if let expression = attribute.derivationExpression { facts.append(LockFact("derivation", expression)) }
        return facts
    }

    static func facts(of relationship: Relationship) -> [LockFact] {
        var facts = [
            LockFact("kind", "relationship"), LockFact("destination", relationship.destinationName),
            LockFact("toMany", "\(relationship.isToMany)"), LockFact("optional", "\(relationship.isOptional)"),
        ]
        if let inverse = relationship.inverseName { facts.append(LockFact("inverse", inverse)) }
        if relationship.isOrdered { facts.append(LockFact("ordered", "true")) }
        if let minCount = relationship.minCount, minCount != 0 { facts.append(LockFact("minCount", "\(minCount)")) }
        if let maxCount = relationship.maxCount, maxCount != 0 { facts.append(LockFact("maxCount", "\(maxCount)")) }
        if relationship.isTransient { facts.append(LockFact("transient", "true")) }
        if let modifier = relationship.versionHashModifier { facts.append(LockFact("versionHashModifier", modifier)) }
        return facts
    }

    /// The value a fact has when the lock does not record it.
    static func absentValue(of key: String) -> String {
        switch key {
        case "abstract", "transient", "externalStorage", "preserveValueOnDeletion", "ordered": "false"
        case "minCount", "maxCount": "0"
        default: "none"
        }
    }

    /// Words for a fact in messages.
    static func label(of key: String) -> String {
        switch key {
        case "toMany": "to-many"
        case "versionHashModifier": "version hash modifier"
        case "uniquenessConstraints": "uniqueness constraints"
        case "externalStorage": "external storage"
        case "preserveValueOnDeletion": "preserve value on deletion"
        case "minCount": "minimum count"
        case "maxCount": "maximum count"
        default: key
        }
    }
}

import Foundation

/// The values Core Data derives from a model version to recognise it: one 32-byte version hash
/// per entity, the version checksum (`NSManagedObjectModel.versionChecksum`, used by staged
/// migrations) and the hashes digest stores record. Computed exactly as Core Data does; the
/// algorithm and what is confirmed against real artifacts are described in
/// `docs/VersionHashes.md`.
public struct VersionHashes: Hashable, Sendable {
    /// Entity name → SHA-256 version hash.
    public let entityHashes: [String: [UInt8]]

    public init(entityHashes: [String: [UInt8]]) {
        self.entityHashes = entityHashes
    }

    public init(_ version: ModelVersion) {
        self.init(entityHashes: VersionHasher(version).entityHashes())
    }

    /// Entity names in the order Core Data sorts them: by their UTF-8 bytes.
    public var sortedEntityNames: [String] {
        entityHashes.keys.sorted(by: VersionHasher.precedes)
    }

    /// base64(SHA-256(entity hashes in entity-name order)): 44 characters.
    public var versionChecksum: String {
        Data(Digest.sha256(sortedEntityNames.flatMap { entityHashes[$0]! })).base64EncodedString()
    }

    /// base64(SHA-512(name ‖ hash for each entity in name order)), as in `NSStoreModelVersionHashesDigest`.
    public var hashesDigest: String {
        Data(Digest.sha512(sortedEntityNames.flatMap { Array($0.utf8) + entityHashes[$0]! })).base64EncodedString()
    }
}

/// Computes entity version hashes for one model version.
struct VersionHasher {
    let lookup: VersionLookup
    /// How many entities declare a relationship of each name.
    private let relationshipDeclarers: [String: Int]

    init(_ version: ModelVersion) {
        lookup = VersionLookup(version)
        var counts: [String: Int] = [:]
        for entity in version.entities {
            for name in Set(entity.relationships.map(\.name)) { counts[name, default: 0] += 1 }
        }
        relationshipDeclarers = counts
    }

    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    func entityHashes() -> [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        var sortedProperties: [String: [(name: String, hash: [UInt8])]] = [:]
        for entity in lookup.version.entities { _ = entityHash(entity, memo: &memo, sortedProperties: &sortedProperties, visiting: []) }
        return memo
    }

    /// An entity's hashed properties are its parent's (already hashed and sorted) merged with
    /// its own, so each property is hashed once and deep hierarchies stay fast.
    private func entityHash(
        _ entity: Entity, memo: inout [String: [UInt8]], sortedProperties: inout [String: [(name: String, hash: [UInt8])]],
        visiting: Set<String>
    ) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        var inherited: [(name: String, hash: [UInt8])] = []
        if let parentName = entity.parentName, !visiting.contains(parentName), let parent = lookup.entity(named: parentName) {
            bytes += entityHash(parent, memo: &memo, sortedProperties: &sortedProperties, visiting: visiting.union([entity.name]))
            inherited = sortedProperties[parentName] ?? []
        }
        var own: [(name: String, hash: [UInt8])] = []
        for attribute in entity.attributes where !attribute.isTransient {
            own.append((attribute.name, attributeHash(attribute)))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            own.append((relationship.name, relationshipHash(relationship, of: entity)))
        }
        own.sort { Self.precedes($0.name, $1.name) }
        let properties = Self.merge(inherited, own)
        sortedProperties[entity.name] = properties
        for property in properties { bytes += property.hash }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }
        for constraint in constraints.sorted(by: Self.precedes) { bytes += Array(constraint.utf8) }
        let hash = Digest.sha256(bytes)
        memo[entity.name] = hash
        return hash
    }

    /// Merges two lists sorted by name; on equal names the inherited one comes first.
    private static func merge(_ inherited: [(name: String, hash: [UInt8])], _ own: [(name: String, hash: [UInt8])]) -> [(
        name: String, hash: [UInt8]
    )] {
        var result: [(name: String, hash: [UInt8])] = []
        result.reserveCapacity(inherited.count + own.count)
        var i = 0
        var j = 0
        while i < inherited.count || j < own.count {
            if j == own.count || (i < inherited.count && !precedes(own[j].name, inherited[i].name)) {
                result.append(inherited[i])
                i += 1
            } else {
                result.append(own[j])
                j += 1
            }
        }
        return result
    }

    // MARK: Properties

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    /// The hash prefix shared by attributes and relationships.
    private static func baseHash(name: String, isOptional: Bool, isTransient: Bool, versionHashModifier: String?) -> [UInt8] {
        var flags: UInt16 = 0
        if isOptional { flags |= 1 }
        if isTransient { flags |= 2 }
        var bytes = Array(name.utf8) + le16(flags)
        if let versionHashModifier { bytes += Array(versionHashModifier.utf8) }
        return Digest.sha256(bytes)
    }

    func attributeHash(_ attribute: Attribute) -> [UInt8] {
        if let expression = attribute.derivationExpression {
            return Digest.sha256(Array(DerivationExpression.predicateFormat(of: expression).utf8))
        }
        if case .composite(let compositeName) = attribute.type {
            return compositeHash(compositeName, visiting: [])
        }
        return Self.storedAttributeHash(attribute)
    }

    static func storedAttributeHash(_ attribute: Attribute) -> [UInt8] {
        var bytes = baseHash(
            name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            versionHashModifier: attribute.versionHashModifier)
        bytes += le32(attribute.type.coreDataTypeCode)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
        return Digest.sha256(bytes)
    }

    /// Unconfirmed: SHA-256 over the hashes of the composite's leaf fields, sorted by their
    /// dotted path; nested composites contribute their own leaves.
    private func compositeHash(_ name: String, visiting: Set<String>) -> [UInt8] {
        var leaves: [(path: String, hash: [UInt8])] = []
        collectLeaves(of: name, prefix: "", visiting: visiting, into: &leaves)
        return Digest.sha256(leaves.sorted { Self.precedes($0.path, $1.path) }.flatMap(\.hash))
    }

    private func collectLeaves(of name: String, prefix: String, visiting: Set<String>, into leaves: inout [(path: String, hash: [UInt8])]) {
        guard !visiting.contains(name), let composite = lookup.composite(named: name) else { return }
        for field in composite.attributes {
            let path = prefix + field.name
            if case .composite(let nested) = field.type {
                collectLeaves(of: nested, prefix: path + ".", visiting: visiting.union([name]), into: &leaves)
            } else {
                leaves.append((path, Self.storedAttributeHash(field)))
            }
        }
    }

    func relationshipHash(_ relationship: Relationship, of entity: Entity) -> [UInt8] {
        var bytes = Self.baseHash(
            name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            versionHashModifier: relationship.versionHashModifier)
        bytes += Array(relationship.destinationName.utf8)
        if let inverse = relationship.inverseName, !isOwnInverse(relationship.name, in: entity) {
            bytes += Array(inverse.utf8)
        }
        // Readers reject counts outside 0...UInt32.max; a `Model` built in code may hold any
        // `Int`, so only the low 32 bits are hashed rather than trapping.
        let maxCount = relationship.isToMany ? UInt32(truncatingIfNeeded: relationship.maxCount ?? 0) : 1
        bytes += Self.le32(maxCount) + Self.le32(UInt32(truncatingIfNeeded: relationship.minCount ?? 0))
        if relationship.isOrdered { bytes += Self.le16(1) }
        return Digest.sha256(bytes)
    }

    /// Whether the top-most entity of the lineage declaring a relationship with this name
    /// declares it as its own inverse (a relationship from an entity to itself, inverse of itself).
    private func isOwnInverse(_ name: String, in entity: Entity) -> Bool {
        // A name no other entity declares has no other declarer in the lineage to look for.
        if relationshipDeclarers[name, default: 0] <= 1, let relationship = entity.relationship(named: name) {
            return relationship.destinationName == entity.name && relationship.inverseName == name
        }
        for declaring in lookup.ancestors(of: entity).reversed() + [entity] {
            if let relationship = declaring.relationship(named: name) {
                return relationship.destinationName == declaring.name && relationship.inverseName == name
            }
        }
        return false
    }
}

extension AttributeType {
    /// `NSAttributeType` raw values, as hashed by Core Data.
    public var coreDataTypeCode: UInt32 {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binaryData: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .undefined: 0
        case .composite: 2100
        }
    }
}

extension VersionHashes {
    /// `NSPropertyDescription.versionHash` of the properties each entity declares (transient ones
    /// included): entity name → property name → 32-byte hash. These are the hashes the entity
    /// hashes are built from.
    public static func propertyHashes(_ version: ModelVersion) -> [String: [String: [UInt8]]] {
        let hasher = VersionHasher(version)
        var result: [String: [String: [UInt8]]] = [:]
        for entity in version.entities {
            var hashes: [String: [UInt8]] = [:]
            for attribute in entity.attributes { hashes[attribute.name] = hasher.attributeHash(attribute) }
            for relationship in entity.relationships { hashes[relationship.name] = hasher.relationshipHash(relationship, of: entity) }
            result[entity.name] = hashes
        }
        return result
    }
}

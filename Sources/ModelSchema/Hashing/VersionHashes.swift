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

    /// A hashed property in the order Core Data concatenates them: by name (UTF-8 bytes); equal
    /// names (only in invalid models) keep the order of attributes, then relationships, each from
    /// the top of the lineage down, as a stable sort of that list would.
    private struct HashedProperty {
        let name: String
        let hash: [UInt8]
        let isRelationship: Bool
        /// Position of the declaring entity in the lineage (0: the top-most ancestor).
        let depth: Int
        let index: Int

        static func precedes(_ a: HashedProperty, _ b: HashedProperty) -> Bool {
            if a.name != b.name { return VersionHasher.precedes(a.name, b.name) }
            return (a.isRelationship ? 1 : 0, a.depth, a.index) < (b.isRelationship ? 1 : 0, b.depth, b.index)
        }
    }

    func entityHashes() -> [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        var sortedProperties: [String: (depth: Int, properties: [HashedProperty])] = [:]
        for entity in lookup.version.entities { _ = entityHash(entity, memo: &memo, sortedProperties: &sortedProperties, visiting: []) }
        return memo
    }

    /// `sortedProperties` keeps, per entity whose chain of parents ends without a cycle, its
    /// sorted hashed properties: a child's are its parent's merged with its own, so a deep
    /// hierarchy hashes every property once and sorts nothing twice.
    private func entityHash(
        _ entity: Entity, memo: inout [String: [UInt8]], sortedProperties: inout [String: (depth: Int, properties: [HashedProperty])],
        visiting: Set<String>
    ) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parentName = entity.parentName, !visiting.contains(parentName), let parent = lookup.entity(named: parentName) {
            bytes += entityHash(parent, memo: &memo, sortedProperties: &sortedProperties, visiting: visiting.union([entity.name]))
        }
        let properties: [HashedProperty]
        if let parentName = entity.parentName, let inherited = sortedProperties[parentName] {
            // The parent's lineage ends without a cycle, so this one's is the parent's plus this entity.
            let own = ownProperties(of: entity, depth: inherited.depth + 1, lineage: nil)
            properties = Self.merge(inherited.properties, own)
            sortedProperties[entity.name] = (inherited.depth + 1, properties)
        } else {
            let ancestors = lookup.ancestors(of: entity)
            let lineage = ancestors.reversed() + [entity]
            var all: [HashedProperty] = []
            for (depth, owner) in lineage.enumerated() { all += ownProperties(of: owner, depth: depth, lineage: lineage) }
            properties = all.sorted(by: HashedProperty.precedes)
            let lastParent = (ancestors.last ?? entity).parentName
            if lastParent.map({ lookup.entity(named: $0) == nil }) ?? true { sortedProperties[entity.name] = (ancestors.count, properties) }
        }
        for property in properties { bytes += property.hash }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }
        for constraint in constraints.sorted(by: Self.precedes) { bytes += Array(constraint.utf8) }
        let hash = Digest.sha256(bytes)
        memo[entity.name] = hash
        return hash
    }

    /// The non-transient properties an entity declares, hashed, in order. `lineage` is the one
    /// relationships are hashed in; nil for the entity's own (its ancestors, then itself).
    private func ownProperties(of owner: Entity, depth: Int, lineage: [Entity]?) -> [HashedProperty] {
        var result: [HashedProperty] = []
        for (index, attribute) in owner.attributes.enumerated() where !attribute.isTransient {
            result.append(
                HashedProperty(name: attribute.name, hash: attributeHash(attribute), isRelationship: false, depth: depth, index: index))
        }
        for (index, relationship) in owner.relationships.enumerated() where !relationship.isTransient {
            let hash = lineage.map { relationshipHash(relationship, lineage: $0) } ?? relationshipHash(relationship, of: owner)
            result.append(HashedProperty(name: relationship.name, hash: hash, isRelationship: true, depth: depth, index: index))
        }
        return result.sorted(by: HashedProperty.precedes)
    }

    /// Merges two lists sorted by ``HashedProperty/precedes(_:_:)``.
    private static func merge(_ a: [HashedProperty], _ b: [HashedProperty]) -> [HashedProperty] {
        var result: [HashedProperty] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if HashedProperty.precedes(b[j], a[i]) {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
            }
        }
        result += a[i...]
        result += b[j...]
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
        // A name no other entity declares has no other declarer in the lineage to look for.
        if relationshipDeclarers[relationship.name, default: 0] <= 1, entity.relationship(named: relationship.name) != nil {
            return relationshipHash(relationship, lineage: [entity])
        }
        return relationshipHash(relationship, lineage: lookup.ancestors(of: entity).reversed() + [entity])
    }

    /// `lineage`: the entity's ancestors from the top down, then the entity.
    private func relationshipHash(_ relationship: Relationship, lineage: [Entity]) -> [UInt8] {
        var bytes = Self.baseHash(
            name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            versionHashModifier: relationship.versionHashModifier)
        bytes += Array(relationship.destinationName.utf8)
        if let inverse = relationship.inverseName, !isOwnInverse(relationship.name, lineage: lineage) {
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
    private func isOwnInverse(_ name: String, lineage: [Entity]) -> Bool {
        for declaring in lineage {
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

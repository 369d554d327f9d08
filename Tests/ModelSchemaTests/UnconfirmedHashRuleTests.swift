import Testing

@testable import ModelSchema

/// The hash rules that no fixture exercises yet (see docs/VersionHashes.md, "Unconfirmed"):
/// each test restates the documented formula byte by byte and checks the hasher follows it.
/// The confirmed rules are covered by the fixture tests in ModelCompilerTests.
struct UnconfirmedHashRuleTests {
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func base(_ name: String, optional: Bool = true, modifier: String? = nil) -> [UInt8] {
        Digest.sha256(utf8(name) + le16(optional ? 1 : 0) + (modifier.map(utf8) ?? []))
    }

    static let trip = Entity(
        name: "Trip",
        attributes: [Attribute(name: "photo", type: .binaryData, isOptional: true, allowsExternalBinaryDataStorage: true)],
        relationships: [Relationship(name: "stops", destinationName: "Stop", isToMany: true, isOrdered: true, inverseName: "trip")])
    static let stop = Entity(name: "Stop", relationships: [Relationship(name: "trip", destinationName: "Trip", inverseName: "stops")])

    @Test func orderedRelationshipAppendsAFlag() {
        let hasher = VersionHasher(ModelVersion(name: "V", entities: [Self.trip, Self.stop]))
        let expected = Digest.sha256(
            Self.base("stops") + Self.utf8("Stop") + Self.utf8("trip") + Self.le32(0) + Self.le32(0) + Self.le16(1))
        #expect(hasher.relationshipHash(Self.trip.relationships[0], of: Self.trip) == expected)
    }

    @Test func externalBinaryStorageAppendsAByte() {
        let expected = Digest.sha256(Self.base("photo") + Self.le32(1000) + [1])
        #expect(VersionHasher.storedAttributeHash(Self.trip.attributes[0]) == expected)
    }

    @Test func versionHashModifierExtendsPropertyAndEntityHashes() {
        let attribute = Attribute(name: "name", type: .string, versionHashModifier: "v2")
        #expect(
            VersionHasher.storedAttributeHash(attribute)
                == Digest.sha256(Self.base("name", optional: false, modifier: "v2") + Self.le32(700)))
        let entity = Entity(name: "Tag", attributes: [attribute], versionHashModifier: "m")
        let hashes = VersionHashes(ModelVersion(name: "V", entities: [entity]))
        let expected = Digest.sha256(Self.utf8("Tag") + [0] + VersionHasher.storedAttributeHash(attribute) + Self.utf8("m"))
        #expect(hashes.entityHashes["Tag"] == expected)
    }

    @Test func selfInverseRelationshipLeavesOutTheInverseName() {
        let person = Entity(name: "Person", relationships: [Relationship(name: "spouse", destinationName: "Person", inverseName: "spouse")])
        let hasher = VersionHasher(ModelVersion(name: "V", entities: [person]))
        let expected = Digest.sha256(Self.base("spouse") + Self.utf8("Person") + Self.le32(1) + Self.le32(0))
        #expect(hasher.relationshipHash(person.relationships[0], of: person) == expected)
    }

    @Test func compositeHashesItsLeavesSortedByPath() {
        let location = CompositeType(
            name: "Location",
            attributes: [
                Attribute(name: "longitude", type: .double), Attribute(name: "latitude", type: .double),
                Attribute(name: "place", type: .composite("Place"), isOptional: true),
            ])
        let place = CompositeType(name: "Place", attributes: [Attribute(name: "name", type: .string)])
        let field = Attribute(name: "location", type: .composite("Location"))
        let hasher = VersionHasher(ModelVersion(name: "V", composites: [location, place]))
        let leaves = [location.attributes[1], location.attributes[0], place.attributes[0]].map(VersionHasher.storedAttributeHash)
        #expect(hasher.attributeHash(field) == Digest.sha256(leaves.flatMap { $0 }))
    }

    @Test func derivedAttributeHashesItsCanonicalExpression() {
        let hasher = VersionHasher(ModelVersion(name: "V"))
        let derived = Attribute(name: "stopCount", type: .integer64, derivationExpression: "stops.@count")
        #expect(hasher.attributeHash(derived) == Digest.sha256(Self.utf8("count:(stops)")))
    }

    @Test func derivationExpressionsRenderInTheirCanonicalForm() {
        #expect(DerivationExpression.canonicalPredicateFormat("stops.@count") == "count:(stops)")
        #expect(DerivationExpression.canonicalPredicateFormat(" trip.name ") == "trip.name")
        #expect(DerivationExpression.canonicalPredicateFormat("now()") == "now()")
        #expect(DerivationExpression.canonicalPredicateFormat("lowercase:( name )") == "lowercase:(name)")
        #expect(DerivationExpression.canonicalPredicateFormat("stops.@sum.cost") == nil)
    }

    @Test func namesSortByTheirUTF8Bytes() {
        // "Z" (0x5A) sorts before "a" (0x61); "é" (0xC3 0xA9) after every ASCII letter.
        let hashes = VersionHashes(entityHashes: ["a": [1], "Z": [2], "é": [3]])
        #expect(hashes.sortedEntityNames == ["Z", "a", "é"])
    }
}

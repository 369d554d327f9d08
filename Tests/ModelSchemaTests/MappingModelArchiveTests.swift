import Foundation
import Testing

@testable import ModelSchema

/// The `.cdm` codec against the mapping model Xcode compiled from CoreDataPlus's `V2toV3`
/// (`SampleModel2` → `SampleModel3`): it decodes to the mappings Xcode's editor shows, and
/// re-encoding it gives Xcode's object graph.
struct MappingModelArchiveTests {
    static let fixture = Fixtures.coredata.appendingPathComponent("mapping-models/CoreDataPlus-SampleModel/V2toV3.cdm")

    static func fixtureBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixture))
    }

    @Test func xcodesArchiveDecodesToItsEntityMappingsInOrder() throws {
        let model = try MappingModelArchive.decode(Self.fixtureBytes())
        #expect(model.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        #expect(model.entityMappings.map(\.kind) == [.custom, .custom, .copy, .custom, .add])
        #expect(
            model.entityMappings.map(\.entityMigrationPolicyClassName) == [
                "REPLACE_AT_RUNTIME.V2to3MakerPolicy", "REPLACE_AT_RUNTIME.V2to3MakerPolicy", nil, "REPLACE_AT_RUNTIME.V2to3MakerPolicy",
                nil,
            ])
        #expect(model.entityMappings.allSatisfy { $0.userInfo.isEmpty })
    }

    @Test func aCopyMappingFetchesItsSourceAndCopiesEachProperty() throws {
        let model = try MappingModelArchive.decode(Self.fixtureBytes())
        let person = try #require(model.entityMappings.first { $0.name == "PersonToPerson" })
        #expect(person.sourceEntityName == "Person")
        #expect(person.destinationEntityName == "Person")
        #expect(person.sourceEntityVersionHash?.count == 32)
        #expect(person.destinationEntityVersionHash?.count == 32)
        #expect(person.sourceEntityVersionHash != person.destinationEntityVersionHash)
        #expect(person.sourceExpression == .fetchSource(entityName: "Person"))
        #expect(
            person.attributeMappings == [
                .init(name: "firstName", valueExpression: .sourceValue("firstName")),
                .init(name: "lastName", valueExpression: .sourceValue("lastName")),
                .init(name: "updatedAt", valueExpression: .sourceValue("updatedAt")),
            ])
        let byRelationship = { (name: String) in
            MappingExpression.function(
                target: .variable("manager"), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                arguments: [.constant(.string(name)), .sourceValue(name)])
        }
        #expect(
            person.relationshipMappings == [
                .init(name: "cars", valueExpression: byRelationship("cars")),
                .init(name: "previousCars", valueExpression: byRelationship("cars")),
            ])
    }

    @Test func anAddMappingHasNoSourceAndNoValues() throws {
        let model = try MappingModelArchive.decode(Self.fixtureBytes())
        let maker = try #require(model.entityMappings.last)
        #expect(maker.sourceEntityName == nil && maker.sourceEntityVersionHash == nil && maker.sourceExpression == nil)
        #expect(maker.destinationEntityName == "Maker")
        #expect(maker.attributeMappings == [.init(name: "name")])
        #expect(maker.relationshipMappings == [.init(name: "cars")])
    }

    @Test func aRelationshipToAnEntityWithOneMappingNamesThatMapping() throws {
        let model = try MappingModelArchive.decode(Self.fixtureBytes())
        let car = try #require(model.entityMappings.first)
        #expect(
            car.relationshipMappings == [
                .init(name: "createdBy"),
                .init(name: "owner", valueExpression: .destinationInstances(mappingName: "PersonToPerson", sourceRelationship: "owner")),
                .init(
                    name: "previousOwners",
                    valueExpression: .destinationInstances(mappingName: "PersonToPerson", sourceRelationship: "owner")),
            ])
    }

    @Test func reencodingXcodesArchiveGivesTheSameObjectGraph() throws {
        let bytes = try Self.fixtureBytes()
        let encoded = MappingModelArchive.encode(try MappingModelArchive.decode(bytes))
        #expect(try ArchiveTree.tree(encoded) == ArchiveTree.tree(bytes))
        #expect(try MappingModelArchive.decode(encoded) == MappingModelArchive.decode(bytes))
    }

    @Test func theObjectGraphComparisonSeesAChangedValue() throws {
        let bytes = try Self.fixtureBytes()
        var model = try MappingModelArchive.decode(bytes)
        model.entityMappings[2].attributeMappings[0].valueExpression = .sourceValue("lastName")
        #expect(try ArchiveTree.tree(MappingModelArchive.encode(model)) != ArchiveTree.tree(bytes))
    }

    @Test func encodingIsDeterministic() throws {
        let model = try MappingModelArchive.decode(Self.fixtureBytes())
        #expect(MappingModelArchive.encode(model) == MappingModelArchive.encode(model))
    }

    @Test func everyExpressionKindAndUserInfoRoundTrips() throws {
        let expression = MappingExpression.function(
            target: .evaluatedObject, selector: "with:values:",
            arguments: [
                .aggregate([.constant(.integer(-3)), .constant(.real(2.5)), .constant(.boolean(true)), .constant(.null)]),
                .constant(.date(123.5)), .constant(.data([1, 2, 3])), .keyPath(operand: .variable("source"), path: "a.b"),
            ])
        let model = MappingModel(entityMappings: [
            .init(
                name: "AToB", kind: .transform, sourceEntityName: "A", sourceEntityVersionHash: Array(repeating: 1, count: 32),
                destinationEntityName: "B", destinationEntityVersionHash: Array(repeating: 2, count: 32),
                sourceExpression: .fetchSource(entityName: "A", predicate: "x > 1"),
                userInfo: ["note": .string("n"), "list": .array([.integer(1), .dictionary([(key: "k", value: .boolean(false))])])],
                attributeMappings: [.init(name: "v", valueExpression: expression, userInfo: ["why": .string("because")])])
        ])
        #expect(try MappingModelArchive.decode(MappingModelArchive.encode(model)) == model)
        #expect(try MappingExpressionArchive.decode(MappingExpressionArchive.encode(expression)) == expression)
    }

    @Test func xcodesArchivedValueExpressionDecodes() throws {
        // The value expression of `previousOwners` as Xcode's editor stores it in `xcmapping.xml`.
        let xml = try String(
            contentsOf: Fixtures.coredata.appendingPathComponent(
                "mapping-models/CoreDataPlus-SampleModel/V2toV3.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        let start = try #require(xml.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"))
        let end = try #require(xml[start.upperBound...].range(of: "</attribute>"))
        let data = try #require(Data(base64Encoded: String(xml[start.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters))
        #expect(
            try MappingExpressionArchive.decode([UInt8](data))
                == .destinationInstances(mappingName: "PersonToPerson", sourceRelationship: "owner"))
    }

    @Test(arguments: [0, 9, 100, 2000, 5000])
    func truncatedArchivesAreErrors(_ length: Int) throws {
        let bytes = try Self.fixtureBytes()
        #expect(throws: MappingModelArchive.ReadError.self) { try MappingModelArchive.decode(Array(bytes.prefix(length))) }
    }

    @Test func anArchiveOfAnotherClassIsAnError() throws {
        let mom = try [UInt8](
            Data(contentsOf: Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.momd/SampleModel2.mom")))
        let error = try #require(throws: MappingModelArchive.ReadError.self) { try MappingModelArchive.decode(mom) }
        #expect(error.message.contains("NSManagedObjectModel"))
    }

    @Test func anExpressionThatContainsItselfIsAnError() throws {
        // A function expression whose operand is itself: the walk stops at its depth limit.
        var builder = KeyedArchiveBuilder()
        let (root, _) = builder.reserve()
        let selector = builder.string("f:")
        let arguments = builder.array(mutable: true, [])
        builder.fill(
            root, classChain: ["NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [("NSOperand", root), ("NSSelectorName", selector), ("NSArguments", arguments), ("NSExpressionType", .integer(4))])
        let bytes = BinaryPropertyList.encode(builder.archive(root: root))
        let error = try #require(throws: MappingModelArchive.ReadError.self) { try MappingExpressionArchive.decode(bytes) }
        #expect(error.message.contains("nested too deeply"))
    }

    @Test func everyDamagedByteOfTheFixtureIsAnErrorOrAModel() throws {
        // Flipping bytes across the archive must never crash the decoder.
        let bytes = try Self.fixtureBytes()
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var damaged = bytes
            let index = Int(random.next() % UInt64(bytes.count))
            damaged[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            _ = try? MappingModelArchive.decode(damaged)
        }
    }
}

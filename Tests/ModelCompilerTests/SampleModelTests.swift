import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// The bundled sample is valid, and its canonical dump is a golden file: any change to how a
/// model is read shows up as a reviewable diff of `Golden/Trips.dump.json`.
struct SampleModelTests {
    static let sample = Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path

    @Test func sampleIsValidWithoutWarnings() {
        let result = Pipeline.load(Self.sample)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.model?.versions.map(\.name) == ["Trips 1", "Trips 2"])
        #expect(result.model?.currentVersionName == "Trips 2")
    }

    @Test func sampleReadsAsDeclared() throws {
        let model = try #require(Pipeline.load(Self.sample).model)
        let version = try #require(model.currentVersion)
        let trip = try #require(version.entity(named: "Trip"))
        #expect(trip.attributes.map(\.name) == ["id", "name", "startDate", "endDate", "isFavorite", "rating", "status", "stopCount"])
        let status = try #require(trip.attribute(named: "status"))
        #expect(status.type == .string)
        #expect(status.enumName == "TripStatus")
        #expect(status.defaultValue == .string("planned"))
        let rating = try #require(trip.attribute(named: "rating"))
        #expect(rating.validation.minimum == .integer(0))
        #expect(rating.validation.maximum == .integer(5))
        let stops = try #require(trip.relationship(named: "stops"))
        #expect(stops.isToMany && stops.isOrdered && stops.deleteRule == .cascade && stops.inverseName == "trip")
        #expect(trip.uniquenessConstraints == [["id"]])
        #expect(trip.fetchIndexes.first?.elements.map(\.isAscending) == [true, false])
        let location = try #require(version.entity(named: "Stop")?.attribute(named: "location"))
        #expect(location.type == .composite("Location") && location.isOptional)
    }

    @Test func dumpMatchesGoldenFile() throws {
        let model = try #require(Pipeline.load(Self.sample).model)
        let actual = ModelDump.json(model).rendered()
        #expect(actual == (try Golden.expected(actual, at: Fixtures.golden.appendingPathComponent("Trips.dump.json"))))
    }
}

struct ModelLanguageTests {
    static func model(_ text: String) throws -> ModelVersion {
        let result = Pipeline.load(text: text, path: "test.model.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        return try #require(result.model?.versions.first)
    }

    @Test func anchorsInExtensionKeysAreMergedIntoAttributes() throws {
        let version = try Self.model(
            "x-audit: &audit\n  createdAt: Date\nentities:\n  Trip:\n    attributes:\n      <<: *audit\n      name: String\n")
        #expect(version.entities[0].attributes.map(\.name) == ["name", "createdAt"])
    }

    @Test func shorthandQuestionMarkMakesAttributesOptional() throws {
        let version = try Self.model("entities:\n  Trip:\n    attributes:\n      a: String\n      b: String?\n      c: Integer 16 ?\n")
        #expect(version.entities[0].attributes.map(\.isOptional) == [false, true, true])
    }

    @Test func integerEnumsNumberListedCasesFromZero() throws {
        let version = try Self.model("enums:\n  Level: { type: Integer 32, cases: [low, high] }\n")
        #expect(version.enums[0].cases.map(\.rawValue) == [.integer(0), .integer(1)])
    }

    @Test func uniqueItemsAreSingleOrCompoundConstraints() throws {
        let version = try Self.model("entities:\n  Trip:\n    attributes:\n      a: String\n      b: String\n    unique: [a, [a, b]]\n")
        #expect(version.entities[0].uniquenessConstraints == [["a"], ["a", "b"]])
    }

    @Test func inheritedPropertiesSatisfyConstraintsAndInverses() throws {
        let version = try Self.model(
            """
            entities:
              Base:
                abstract: true
                attributes:
                  id: UUID
                relationships:
                  owner: { to: Owner, inverse: items }
              Item:
                parent: Base
                unique: [id]
              Owner:
                relationships:
                  items: { to: Base, toMany: true, inverse: owner }
            """)
        #expect(version.entities.map(\.name) == ["Base", "Item", "Owner"])
    }

    @Test func literalsKeepTheirWrittenPrecision() throws {
        let version = try Self.model("entities:\n  Price:\n    attributes:\n      amount: { type: Decimal, default: 19.990 }\n")
        #expect(version.entities[0].attributes[0].defaultValue == .number("19.990"))
    }
}

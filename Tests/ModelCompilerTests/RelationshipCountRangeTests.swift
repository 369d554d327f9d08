import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Relationship counts must fit the 32 bits version hashes record them in; readers reject the
/// rest with a located error, and hashing never traps whatever a `Model` holds.
struct RelationshipCountRangeTests {
    static func yaml(_ counts: String) -> Pipeline.Result {
        Pipeline.load(
            text: """
                entities:
                  Trip:
                    relationships:
                      stops: { to: Stop, toMany: true, inverse: trip, \(counts) }
                  Stop:
                    relationships:
                      trip: { to: Trip, inverse: stops }
                """, path: "counts.model.yaml")
    }

    @Test func negativeMinCountInYAMLIsALocatedError() throws {
        let error = try #require(Self.yaml("minCount: -1").diagnostics.first { $0.severity == .error })
        #expect(error.message == "'minCount' must be at least 0, found -1")
        #expect(error.location.line == 4)
    }

    @Test func countsPastThirtyTwoBitsInYAMLAreLocatedErrors() throws {
        let result = Self.yaml("minCount: 4294967296, maxCount: 9223372036854775807")
        let messages = result.diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(messages.contains("'minCount' must be at most 4294967295, found 4294967296"))
        #expect(messages.contains("'maxCount' must be at most 4294967295, found 9223372036854775807"))
        #expect(!Self.yaml("minCount: 4294967295, maxCount: 4294967295").hasErrors)
    }

    static func xcode(_ attributes: String) throws -> Pipeline.Result {
        try XcodeModelReaderTests.load(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model>
                <entity name="Trip">
                    <relationship name="stops" toMany="YES" \(attributes) destinationEntity="Trip" inverseName="stops"/>
                </entity>
            </model>
            """)
    }

    @Test func outOfRangeCountsInXcodeModelsAreLocatedErrors() throws {
        let result = try Self.xcode("minCount=\"-1\" maxCount=\"4294967296\"")
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(
            Set(errors.map(\.message)) == [
                "'minCount' of relationship 'Trip.stops' must be a whole number from 0 to 4294967295, found '-1'",
                "'maxCount' of relationship 'Trip.stops' must be a whole number from 0 to 4294967295, found '4294967296'",
            ])
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.location.line == 4 })
        #expect(result.model == nil)
    }

    @Test func inRangeCountsInXcodeModelsAreRead() throws {
        let result = try Self.xcode("minCount=\"1\" maxCount=\"4294967295\"")
        let relationship = try #require(result.model?.versions.first?.entities.first?.relationships.first)
        #expect(relationship.minCount == 1 && relationship.maxCount == 4_294_967_295)
    }

    @Test func hashingNeverTrapsOnCountsNoReaderAccepts() {
        for count in [-1, Int.min, Int.max, 1 << 32] {
            let relationship = Relationship(
                name: "stops", destinationName: "Trip", isToMany: true, inverseName: "stops", minCount: count, maxCount: count)
            let version = ModelVersion(name: "V", entities: [Entity(name: "Trip", relationships: [relationship])])
            #expect(VersionHashes(version).versionChecksum.count == 44)
        }
    }
}

import Foundation
import ModelSchema
import Testing

@testable import ModelgenCLI

struct StoreVersionChoiceTests {
    static func version(_ name: String, identifier: String?, attribute: String = "title") -> ModelVersion {
        ModelVersion(
            name: name,
            entities: [Entity(name: "Note", attributes: [Attribute(name: attribute, type: .string, isOptional: false)])],
            versionIdentifier: identifier)
    }

    static let versions = [
        version("Notes 1", identifier: "1"), version("Notes 2", identifier: "2"), version("Notes 3", identifier: nil),
        version("Notes 4", identifier: "4", attribute: "body"),
    ]
    static let sharedHashes = VersionHashes(versions[0]).entityHashes

    @Test func storeIdentifiersPickAmongVersionsWithTheSameHashes() {
        let choice = StoreVersionChoice.choose(storeHashes: Self.sharedHashes, storeIdentifiers: ["2"], versions: Self.versions)
        #expect(choice == StoreVersionChoice(candidates: ["Notes 1", "Notes 2", "Notes 3"], chosen: "Notes 2"))
        #expect(choice?.description.hasPrefix("written by model version: Notes 2 (") == true)
    }

    @Test func noRecordedIdentifierPicksTheVersionWithoutOne() {
        let choice = StoreVersionChoice.choose(storeHashes: Self.sharedHashes, storeIdentifiers: [], versions: Self.versions)
        #expect(choice?.chosen == "Notes 3")
    }

    @Test func identifiersThatNameNoOrSeveralCandidatesLeaveItAmbiguous() {
        let unknown = StoreVersionChoice.choose(storeHashes: Self.sharedHashes, storeIdentifiers: ["9"], versions: Self.versions)
        #expect(unknown?.chosen == nil)
        #expect(unknown?.description.contains("do not tell them apart") == true)
        let twins = [Self.version("A", identifier: "x"), Self.version("B", identifier: "x")]
        #expect(StoreVersionChoice.choose(storeHashes: Self.sharedHashes, storeIdentifiers: ["x"], versions: twins)?.chosen == nil)
    }

    @Test func aSingleMatchingVersionNeedsNoChoice() {
        let hashes = VersionHashes(Self.versions[3]).entityHashes
        #expect(StoreVersionChoice.choose(storeHashes: hashes, storeIdentifiers: [], versions: Self.versions) == nil)
    }

    /// An Xcode model whose versions all have the contents that wrote the fixture store, with
    /// the given version identifiers.
    static func sameHashModel(identifiers: [String: String], in folder: URL) throws -> String {
        let fixture = CoreDataCommandTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3")
        let contents = try String(
            contentsOf: fixture.appendingPathComponent("SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel/contents"), encoding: .utf8)
        let model = folder.appendingPathComponent("Same.xcdatamodeld")
        for (name, identifier) in identifiers {
            let version = model.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let text = contents.replacingOccurrences(
                of: "userDefinedModelVersionIdentifier=\"1\"", with: "userDefinedModelVersionIdentifier=\"\(identifier)\"")
            try text.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        return model.path
    }

    @Test func inspectStoreSaysWhichSameHashVersionWroteTheStoreOrThatItCannotTell() throws {
        let folder = try ChecksumCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CoreDataCommandTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite").path
        let decided = CapturedRun([
            "inspect-store", store, "--model", try Self.sameHashModel(identifiers: ["A": "7", "B": "1"], in: folder),
        ])
        #expect(decided.status == 0)
        #expect(decided.output.contains("written by model version: B (versions 'A', 'B' have the same hashes"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Same.xcdatamodeld"))
        let ambiguous = CapturedRun([
            "inspect-store", store, "--json", "--model", try Self.sameHashModel(identifiers: ["A": "7", "B": "8"], in: folder),
        ])
        #expect(ambiguous.status == 0)
        #expect(ambiguous.output.contains("\"ambiguous\": true"))
        #expect(ambiguous.output.contains("\"sameHashVersions\": ["))
    }
}

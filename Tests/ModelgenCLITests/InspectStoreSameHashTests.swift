import Foundation
import ModelSchema
import Testing

@testable import ModelgenCLI

/// `inspect-store --model` when several versions have the store's hashes.
struct InspectStoreSameHashTests {
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

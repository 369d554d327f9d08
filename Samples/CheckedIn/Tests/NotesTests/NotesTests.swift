import Foundation
import Notes
import Testing

struct NotesTests {
    @Test func compiledModelShipsWithTheModule() throws {
        let url = try #require(NotesModel.compiledModelURL)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("VersionInfo.plist").path))
    }

    @Test func generatedConstantsDescribeTheModel() {
        #expect(NotesModel.Version.allCases.map(\.rawValue) == ["Notes"])
        #expect(NotesModel.currentVersion.checksum.count == 44)
        #expect(Priority.allCases.map(\.rawValue) == [0, 1, 2])
    }
}

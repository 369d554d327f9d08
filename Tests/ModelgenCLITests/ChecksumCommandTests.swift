import Foundation
import Testing

@testable import ModelgenCLI

struct ChecksumCommandTests {
    static let names = ["Model 10", "Model", "Model 2"]
    static let sampleContents = CoreDataCommandTests.coredata.appendingPathComponent(
        "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents")

    /// A `.momd` as older `momc` wrote it: hashes for each version, no current version name.
    static func bundleWithoutCurrentVersion(in folder: URL) throws -> URL {
        let momd = folder.appendingPathComponent("Model.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        let hashes = Dictionary(uniqueKeysWithValues: names.map { ($0, ["Thing": Data(repeating: 7, count: 32)]) })
        let plist: [String: Any] = ["NSManagedObjectModel_VersionHashes": hashes]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: momd.appendingPathComponent("VersionInfo.plist"))
        return momd
    }

    static func xcodeModel(in folder: URL) throws -> URL {
        let model = folder.appendingPathComponent("Model.xcdatamodeld")
        for name in names {
            let version = model.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sampleContents, to: version.appendingPathComponent("contents"))
        }
        return model
    }

    static func temporaryFolder() throws -> URL {
        try Fixtures.temporaryFolder("checksum")
    }

    static func listedVersions(_ output: String) -> [String] {
        output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { line in
            String(line[..<line.lastIndex(of: ":")!]).replacingOccurrences(of: " (current)", with: "")
        }
    }

    @Test func bundleWithoutCurrentVersionNameTakesTheFirstVersionByNameAndSaysSo() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = CapturedRun(["checksum", try Self.bundleWithoutCurrentVersion(in: folder).path])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Model (current): (no checksum recorded)\n"))
        #expect(run.errors.contains("warning: NSManagedObjectModel_CurrentVersionName is missing; taking 'Model'"))
    }

    @Test func compiledBundleAndXcodeModelListVersionsInTheSameOrder() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled = CapturedRun(["checksum", try Self.bundleWithoutCurrentVersion(in: folder).path])
        let xcode = CapturedRun(["checksum", try Self.xcodeModel(in: folder).path])
        #expect(xcode.status == 0)
        #expect(Self.listedVersions(compiled.output) == ["Model", "Model 2", "Model 10"])
        #expect(Self.listedVersions(xcode.output) == Self.listedVersions(compiled.output))
    }
}

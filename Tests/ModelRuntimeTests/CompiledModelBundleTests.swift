import Foundation
import ModelRuntime
import ModelSchema
import Testing

struct CompiledModelBundleTests {
    static let coredata = Fixtures.coredata
    static let bundleURL = coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3.momd")

    @Test func readsVersionsAndChecksumsOfAMomcBundle() throws {
        let bundle = try CompiledModelBundle(contentsOf: Self.bundleURL)
        #expect(bundle.name == "SampleModel3")
        #expect(bundle.currentVersionName == "SampleModel3")
        #expect(bundle.versions.map(\.name) == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        #expect(bundle.currentVersion?.checksum == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
        #expect(bundle.versions[1].entityHashes.keys.sorted() == ["Pet", "User"])
    }

    @Test func matchesStoreMetadataToTheVersionThatWroteIt() throws {
        let bundle = try CompiledModelBundle(contentsOf: Self.bundleURL)
        let v2 = try #require(bundle.versions.first { $0.name == "SampleModel3_v2" })
        let metadata: [String: Any] = ["NSStoreModelVersionHashes": v2.entityHashes, "NSStoreType": "SQLite"]
        #expect(bundle.version(matchingStoreMetadata: metadata)?.name == "SampleModel3_v2")
        var changed = v2.entityHashes
        changed["Pet"] = Data(repeating: 0, count: 32)
        #expect(bundle.version(matchingStoreMetadata: ["NSStoreModelVersionHashes": changed]) == nil)
        #expect(bundle.version(matchingStoreMetadata: [:]) == nil)
    }

    @Test func aMissingOrBrokenBundleIsAnError() throws {
        #expect(throws: CompiledModelBundle.ReadError.self) {
            try CompiledModelBundle(contentsOf: URL(fileURLWithPath: "/nonexistent/X.momd"))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-runtime-\(UUID().uuidString).momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a plist".utf8).write(to: folder.appendingPathComponent("VersionInfo.plist"))
        #expect(throws: CompiledModelBundle.ReadError.self) { try CompiledModelBundle(contentsOf: folder) }
    }

    @Test func readsWhatModelgenCompiles() throws {
        let model = Model(
            name: "Tiny",
            versions: [
                ModelVersion(name: "Tiny 1", entities: [Entity(name: "Item", attributes: [Attribute(name: "name", type: .string)])])
            ],
            currentVersionName: "Tiny 1")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-runtime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in CompiledModel.files(for: model) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        let bundle = try CompiledModelBundle(contentsOf: folder.appendingPathComponent("Tiny.momd"))
        #expect(bundle.currentVersion?.checksum == VersionHashes(model.versions[0]).versionChecksum)
    }
}

import CSQLite
import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Ground truth from Apple's tools: every version of every fixture model, imported from its
/// `.xcdatamodeld`, hashes to exactly what `momc` wrote into the `.momd`'s VersionInfo.plist.
struct CoreDataFixtureTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    /// (model folder, compiled bundle) pairs of the fixtures that have both.
    static let compiledModels: [(model: String, bundle: String)] = [
        ("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", "CoreDataPlus-SampleModel/SampleModel.momd"),
        ("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld", "CoreDataPlus-SampleModel3/SampleModel3.momd"),
    ]

    static func versionInfo(_ bundle: String) throws -> VersionInfo {
        try VersionInfo(plist: Data(contentsOf: coredata.appendingPathComponent(bundle).appendingPathComponent(VersionInfo.fileName)))
    }

    @Test(arguments: compiledModels.map(\.model))
    func importedVersionsHashLikeMomc(_ modelPath: String) throws {
        let bundle = try #require(Self.compiledModels.first { $0.model == modelPath }?.bundle)
        let info = try Self.versionInfo(bundle)
        let model = try #require(Pipeline.load(Self.coredata.appendingPathComponent(modelPath).path).model)
        #expect(Set(model.versions.map(\.name)) == Set(info.versionHashes.keys))
        #expect(model.currentVersionName == info.currentVersionName)
        for version in model.versions {
            let hashes = VersionHashes(version)
            for (entity, expected) in info.versionHashes[version.name] ?? [:] {
                #expect(hashes.entityHashes[entity] == expected, "\(version.name)/\(entity)")
            }
            #expect(Set(hashes.entityHashes.keys) == Set((info.versionHashes[version.name] ?? [:]).keys))
            if let checksum = info.versionChecksums[version.name] {
                #expect(hashes.versionChecksum == checksum, "\(version.name)")
            }
        }
    }
}

/// Every fixture store was written by one version of its model: that version reproduces the
/// store's entity hashes, hashes digest and (where recorded) checksum byte for byte.
struct CoreDataStoreFixtureTests {
    static let coredata = Fixtures.root.appendingPathComponent("coredata")

    /// Store → (model, the version that wrote it).
    static let stores: [String: (model: String, version: String)] = [
        "CoreDataPlus-SampleModel/SampleModel_V1.sqlite": ("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", "SampleModel"),
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite": ("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", "SampleModel2"),
        "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite": ("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_1.sqlite": (
            "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example"
        ),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite": (
            "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 2"
        ),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_3.sqlite": (
            "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 3"
        ),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite": (
            "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 4"
        ),
    ]

    @Test func everyFixtureStoreIsListed() throws {
        let enumerator = FileManager.default.enumerator(atPath: Self.coredata.path)
        let found = (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".sqlite") }
        #expect(Set(found) == Set(Self.stores.keys))
    }

    @Test(arguments: stores.keys.sorted())
    func writingVersionReproducesStoreMetadata(_ store: String) throws {
        let expected = try #require(Self.stores[store])
        let metadata = try StoreInspector.inspect(Self.coredata.appendingPathComponent(store).path)
        let model = try #require(Pipeline.load(Self.coredata.appendingPathComponent(expected.model).path).model)
        let version = try #require(model.versions.first { $0.name == expected.version })
        let hashes = VersionHashes(version)
        #expect(hashes.entityHashes == metadata.entityHashes)
        if let digest = metadata.hashesDigest { #expect(hashes.hashesDigest == digest) }
        if let checksum = metadata.versionChecksum { #expect(hashes.versionChecksum == checksum) }
        #expect(StoreModelMatch.match(metadata, against: model).matchingVersion == expected.version)
    }

    @Test func inspectingAWALStoreLeavesTheFixtureUntouched() throws {
        let path = Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite").path
        let before = try [path, path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let metadata = try StoreInspector.inspect(path)
        #expect(!metadata.storeUUID.isEmpty)
        let after = try [path, path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func nonStoresGetClearErrors() throws {
        #expect(throws: StoreInspectionError(message: "no such file")) { try StoreInspector.inspect("missing.sqlite") }
        let notSQLite = Fixtures.samples.appendingPathComponent("Trips/Trips.modeld/versions.yaml").path
        #expect(throws: StoreInspectionError(message: "not a SQLite database")) { try StoreInspector.inspect(notSQLite) }
        let plainDatabase = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-plain-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: plainDatabase) }
        var handle: OpaquePointer?
        #expect(sqlite3_open(plainDatabase.path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "CREATE TABLE notes (body TEXT)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(throws: StoreInspectionError(message: "not a Core Data store: the database has no Z_METADATA table")) {
            try StoreInspector.inspect(plainDatabase.path)
        }
    }
}

struct StoreRobustnessTests {
    /// Corrupted copies of a real store give an error or partial metadata, never a crash.
    @Test func corruptedStoresNeverCrash() throws {
        let original = [UInt8](
            try Data(
                contentsOf: CoreDataStoreFixtureTests.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SplitMix64(seed: 5)
        for round in 0..<60 {
            var bytes = original
            for _ in 0..<8 {
                // Keep the 16-byte header so most rounds reach SQLite and the metadata decoder.
                let index = Int.random(in: 16..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            let path = folder.appendingPathComponent("store-\(round).sqlite").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            _ = try? StoreInspector.inspect(path)
        }
    }
}

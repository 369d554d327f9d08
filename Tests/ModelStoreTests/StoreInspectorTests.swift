import CSQLite
import Foundation
import ModelCompiler
import ModelSchema
import ModelStore
import Testing

/// Every fixture store was written by one version of its model: that version reproduces the
/// store's entity hashes, hashes digest and (where recorded) checksum byte for byte.
struct StoreInspectorTests {
    @Test func everyFixtureStoreIsListed() throws {
        let enumerator = FileManager.default.enumerator(atPath: Fixtures.coredata.path)
        let found = (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".sqlite") }
        #expect(Set(found) == Set(FixtureStores.stores.keys))
    }

    @Test(arguments: FixtureStores.stores.keys.sorted())
    func writingVersionReproducesStoreMetadata(_ store: String) throws {
        let expected = try #require(FixtureStores.stores[store])
        let metadata = try StoreInspector.inspect(Fixtures.coredata.appendingPathComponent(store).path)
        let model = try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(expected.model).path).model)
        let version = try #require(model.versions.first { $0.name == expected.version })
        let hashes = VersionHashes(version)
        #expect(hashes.entityHashes == metadata.entityHashes)
        if let digest = metadata.hashesDigest { #expect(hashes.hashesDigest == digest) }
        if let checksum = metadata.versionChecksum { #expect(hashes.versionChecksum == checksum) }
        #expect(StoreModelMatch.match(metadata, against: model).matchingVersion == expected.version)
    }

    /// Inspection writes nothing: every fixture file is byte-identical afterwards and no `-shm`
    /// (or any other file) appears beside the stores.
    @Test func inspectingEveryFixtureStoreLeavesTheFixturesUntouched() throws {
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for folder in Set(FixtureStores.stores.keys.map { ($0 as NSString).deletingLastPathComponent }) {
                let url = Fixtures.coredata.appendingPathComponent(folder)
                for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.contains(".sqlite") {
                    files[folder + "/" + name] = try Data(contentsOf: url.appendingPathComponent(name))
                }
            }
            return files
        }
        let before = try snapshot()
        for store in FixtureStores.stores.keys {
            _ = try StoreInspector.inspect(Fixtures.coredata.appendingPathComponent(store).path)
        }
        #expect(try snapshot() == before)
    }

    /// The un-checkpointed WAL is applied: the in-memory image reads exactly what SQLite reads
    /// from a private copy of the store (where it may checkpoint and create `-shm` freely).
    @Test func aStoreWithAnUncheckpointedWALReadsLikeSQLiteReadsACopy() throws {
        let store = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite"
        let folder = try Fixtures.temporaryFolder("wal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try StoreConnection(path: try Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let viaCopy = try StoreInspector.read(copy)
        let inspected = try StoreInspector.inspect(Fixtures.coredata.appendingPathComponent(store).path)
        #expect(inspected == viaCopy)
        #expect(inspected.entityTables.map(\.rowCount) == [84, 84])
        let image = try StoreInspector.open(Fixtures.coredata.appendingPathComponent(store).path)
        for table in ["ZPOST", "ZCOLOR", "Z_PRIMARYKEY"] {
            #expect(try image.rows("SELECT * FROM \(table) ORDER BY 1") == copy.rows("SELECT * FROM \(table) ORDER BY 1"))
        }
    }

    @Test func nonStoresGetClearErrors() throws {
        #expect(throws: StoreInspectionError(message: "no such file")) { try StoreInspector.inspect("missing.sqlite") }
        let notSQLite = Fixtures.samples.appendingPathComponent("Trips/Trips.modeld/versions.yaml").path
        #expect(throws: StoreInspectionError(message: "not a SQLite database")) { try StoreInspector.inspect(notSQLite) }
        let folder = try Fixtures.temporaryFolder("plain")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plainDatabase = folder.appendingPathComponent("plain.sqlite").path
        var handle: OpaquePointer?
        #expect(sqlite3_open(plainDatabase, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "CREATE TABLE notes (body TEXT)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(throws: StoreInspectionError(message: "not a Core Data store: the database has no Z_METADATA table")) {
            try StoreInspector.inspect(plainDatabase)
        }
        #expect(throws: StoreInspectionError(message: "'\(folder.path)' is a folder, not a store file")) {
            try StoreInspector.inspect(folder.path)
        }
    }

    /// Reading a FIFO would block forever: it is refused before it is opened.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let folder = try Fixtures.temporaryFolder("fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("store.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: StoreInspectionError.self) { try StoreInspector.inspect(fifo) }
        do {
            _ = try StoreInspector.inspect(fifo)
        } catch {
            #expect(error.message.contains("not a regular file"))
        }
    }

    @Test func pathsWithURISpecialCharactersOpen() throws {
        let folder = try Fixtures.temporaryFolder("uri")
        defer { try? FileManager.default.removeItem(at: folder) }
        let odd = folder.appendingPathComponent("a?b#c%d e")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let copy = try Fixtures.copyStore("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite", to: odd)
        #expect(try StoreInspector.inspect(copy).entityTables.map(\.entityName) == ["User"])
    }

    /// Corrupted copies of a real store give an error or partial metadata, never a crash.
    @Test func corruptedStoresNeverCrash() throws {
        let original = [UInt8](
            try Data(contentsOf: Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")))
        let folder = try Fixtures.temporaryFolder("corrupt")
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

    /// Corrupted `-wal` files are applied up to their last valid commit, never crash.
    @Test func corruptedWALFilesNeverCrash() throws {
        let store = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite"
        let database = [UInt8](try Data(contentsOf: Fixtures.coredata.appendingPathComponent(store)))
        let wal = [UInt8](try Data(contentsOf: Fixtures.coredata.appendingPathComponent(store + "-wal")))
        var generator = SplitMix64(seed: 9)
        for _ in 0..<30 {
            var bytes = wal
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
            if let image = try? WALReplay.image(
                database: database, wal: Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))))
            {
                _ = try? StoreInspector.read(StoreConnection.readOnlyImage(image))
            }
        }
    }
}

struct StoreModelMatchTests {
    static let a = [UInt8](repeating: 1, count: 32)
    static let b = [UInt8](repeating: 2, count: 32)

    @Test func theOneCandidateWithTheStoresHashesMatches() {
        let candidates = [
            StoreModelMatch.Candidate(name: "v1", entityHashes: ["Item": Self.a]),
            StoreModelMatch.Candidate(name: "v2", entityHashes: ["Item": Self.b]),
        ]
        let match = StoreModelMatch.match(["Item": Self.a], identifiers: ["9"], against: candidates)
        #expect(match.matchingVersion == "v1")
        #expect(match.sameHashVersions == ["v1"])
        #expect(!match.isAmbiguous)
    }

    @Test func withoutAMatchTheClosestVersionAndItsDifferencesAreReported() {
        let candidates = [
            StoreModelMatch.Candidate(name: "v1", entityHashes: ["Item": Self.b]),
            StoreModelMatch.Candidate(name: "v2", entityHashes: ["Item": Self.b, "Tag": Self.a]),
            StoreModelMatch.Candidate(name: "v3", entityHashes: ["Item": Self.b]),
        ]
        let match = StoreModelMatch.match(["Item": Self.a], against: candidates)
        #expect(match.matchingVersion == nil)
        #expect(match.sameHashVersions.isEmpty)
        #expect(match.closestVersion == "v3")
        #expect(match.differences == [.init(entityName: "Item", kind: .changed)])
    }

    static let sameHash = [
        StoreModelMatch.Candidate(name: "Notes 1", entityHashes: ["Note": a], versionIdentifier: "1"),
        StoreModelMatch.Candidate(name: "Notes 2", entityHashes: ["Note": a], versionIdentifier: "2"),
        StoreModelMatch.Candidate(name: "Notes 3", entityHashes: ["Note": a]),
        StoreModelMatch.Candidate(name: "Notes 4", entityHashes: ["Note": b], versionIdentifier: "4"),
    ]

    @Test func storeIdentifiersPickAmongVersionsWithTheSameHashes() {
        let match = StoreModelMatch.match(["Note": Self.a], identifiers: ["2"], against: Self.sameHash)
        #expect(match.sameHashVersions == ["Notes 1", "Notes 2", "Notes 3"])
        #expect(match.matchingVersion == "Notes 2")
    }

    /// Stores written by a version without an identifier record none, or an empty string.
    @Test func noRecordedIdentifierPicksTheVersionWithoutOne() {
        #expect(StoreModelMatch.match(["Note": Self.a], identifiers: [], against: Self.sameHash).matchingVersion == "Notes 3")
        #expect(StoreModelMatch.match(["Note": Self.a], identifiers: [""], against: Self.sameHash).matchingVersion == "Notes 3")
    }

    @Test func identifiersThatNameNoOrSeveralCandidatesLeaveItAmbiguous() {
        let unknown = StoreModelMatch.match(["Note": Self.a], identifiers: ["9"], against: Self.sameHash)
        #expect(unknown.matchingVersion == nil)
        #expect(unknown.isAmbiguous)
        let twins = [
            StoreModelMatch.Candidate(name: "A", entityHashes: ["Note": Self.a], versionIdentifier: "x"),
            StoreModelMatch.Candidate(name: "B", entityHashes: ["Note": Self.a], versionIdentifier: "x"),
        ]
        #expect(StoreModelMatch.match(["Note": Self.a], identifiers: ["x"], against: twins).isAmbiguous)
        // Without the candidates' identifiers the first candidate is taken.
        #expect(StoreModelMatch.match(["Note": Self.a], against: twins).matchingVersion == "A")
    }

    @Test func metadataWithoutDataHashesHasNoEntityHashes() {
        #expect(StoreModelMatch.entityHashes(inMetadata: [:]) == nil)
        #expect(StoreModelMatch.entityHashes(inMetadata: ["NSStoreModelVersionHashes": ["Item": "text"]]) == nil)
        #expect(StoreModelMatch.entityHashes(inMetadata: ["NSStoreModelVersionHashes": ["Item": Data(Self.a)]]) == ["Item": Self.a])
    }
}

struct WALReplayTests {
    static let store = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite"

    /// Frames after the last commit frame are not part of the store.
    @Test func framesAfterTheLastCommitAreIgnored() throws {
        let database = [UInt8](try Data(contentsOf: Fixtures.coredata.appendingPathComponent(Self.store)))
        let wal = [UInt8](try Data(contentsOf: Fixtures.coredata.appendingPathComponent(Self.store + "-wal")))
        let full = try WALReplay.image(database: database, wal: wal)
        // Cutting the WAL inside its last frame drops only that (or a later) transaction.
        let truncated = try WALReplay.image(database: database, wal: Array(wal.dropLast(100)))
        #expect(truncated != full)
        #expect(try WALReplay.image(database: database, wal: []) == WALReplay.image(database: database, wal: Array(wal.prefix(31))))
        let empty = try StoreConnection.readOnlyImage(WALReplay.image(database: database, wal: []))
        #expect(try empty.rows("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [[.integer(0)], [.integer(0)]])
        let image = try StoreConnection.readOnlyImage(full)
        #expect(try image.rows("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [[.integer(84)], [.integer(84)]])
    }

    @Test func aWALWithoutItsHeaderIsAnError() {
        #expect(throws: WALReplay.FormatError.self) { try WALReplay.image(database: [], wal: [UInt8](repeating: 7, count: 64)) }
    }
}

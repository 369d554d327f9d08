import Foundation
import ModelCompiler
import ModelSchema
import ModelStore
import Testing

/// For every fixture model version with a store Core Data wrote, the schema this module creates
/// equals the store's `sqlite_master` (normalised SQL), and the bookkeeping rows agree.
struct StoreSchemaFixtureTests {
    static func version(for store: String) throws -> ModelVersion {
        let expected = try #require(FixtureStores.stores[store])
        let model = try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(expected.model).path).model)
        return try #require(model.versions.first { $0.name == expected.version })
    }

    /// `type|name|table|sql` per schema object, whitespace normalised, sorted.
    static func schema(_ connection: StoreConnection) throws -> [String] {
        try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master").map { row in
            row.map { $0.textValue ?? "" }.map(normalise).joined(separator: "|")
        }.sorted()
    }

    static func normalise(_ sql: String) -> String {
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        text = text.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        return text
    }

    @Test(arguments: FixtureStores.stores.keys.sorted())
    func createdSchemaEqualsTheFixtureStoresSchema(_ store: String) throws {
        let version = try Self.version(for: store)
        let folder = try Fixtures.temporaryFolder("schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let created = try StoreSchema.create(at: folder.appendingPathComponent("created.sqlite").path, version: version)
        let expected = try Self.schema(fixture)
        #expect(expected.count >= 4)
        #expect(try Self.schema(created) == expected)
    }

    /// The runtime's path, without the compiler: the `.mom` momc compiled, decoded, gives the
    /// same schema as the store's.
    @Test(arguments: [
        ("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", "CoreDataPlus-SampleModel/SampleModel.momd/SampleModel.mom"),
        ("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", "CoreDataPlus-SampleModel/SampleModel.momd/SampleModel2.mom"),
        ("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite", "CoreDataPlus-SampleModel3/SampleModel3.momd/SampleModel3.mom"),
    ])
    func schemaFromMomcsCompiledModelEqualsTheStoresSchema(_ store: String, _ mom: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.coredata.appendingPathComponent(mom)))
        let version = try CompiledModel.decodeMom(bytes, versionName: "V").version
        let folder = try Fixtures.temporaryFolder("mom")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let created = try StoreSchema.create(at: folder.appendingPathComponent("created.sqlite").path, version: version)
        #expect(try Self.schema(created) == Self.schema(fixture))
    }

    /// `Z_PRIMARYKEY` numbering (roots by name, sub-entities depth-first) as in every fixture;
    /// after a rename migration the store keeps the old name, the entity's renaming identifier.
    @Test(arguments: FixtureStores.stores.keys.sorted())
    func entityNumbersMatchTheFixtureStoresPrimaryKeyTable(_ store: String) throws {
        let version = try Self.version(for: store)
        let folder = try Fixtures.temporaryFolder("numbers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let rows = try fixture.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        let layout = StoreLayout(version)
        #expect(rows.count == layout.entities.count)
        for (row, entity) in zip(rows, layout.entities) {
            let names = [entity.name, version.entity(named: entity.name)?.renamingIdentifier].compactMap { $0 }
            #expect(row[0].integerValue == Int64(entity.entityNumber))
            #expect(names.contains(row[1].textValue ?? ""), "\(row) vs \(entity.name)")
            #expect(row[2].integerValue == Int64(entity.superEntityNumber))
        }
    }

    /// The check an engine runs before using a store: no differences for any fixture store and
    /// the version that wrote it; a changed column or entity is reported.
    @Test(arguments: FixtureStores.stores.keys.sorted())
    func fixtureStoresHaveNoDifferencesFromTheirLayout(_ store: String) throws {
        let version = try Self.version(for: store)
        let folder = try Fixtures.temporaryFolder("check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let existing = try StoreSchema.existingLayout(of: fixture, version: version)
        #expect(existing.differences == [])
        // Read by name, the store has the names a new store of its version gets.
        #expect(!existing.differsFromNewStores)
    }

    @Test func aStoreFromAnotherVersionHasDifferences() throws {
        let store = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_3.sqlite"
        let model = try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(FixtureStores.wibosco).path).model)
        let version4 = try #require(model.versions.first { $0.name == "CoreDataMigration_Example 4" })
        let version1 = try #require(model.versions.first { $0.name == "CoreDataMigration_Example" })
        let folder = try Fixtures.temporaryFolder("check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        #expect(
            try StoreSchema.existingLayout(of: fixture, version: version4).differences == ["table ZPOST lacks column ZHIDE (INTEGER)"])
        let differences = try StoreSchema.existingLayout(of: fixture, version: version1).differences
        #expect(differences == ["Z_PRIMARYKEY has entity 1 'Color', which the model does not have"])
    }

    @Test func aCreatedStoreHasCoreDatasPragmasRowsAndMetadata() throws {
        let store = "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite"
        let version = try Self.version(for: store)
        let folder = try Fixtures.temporaryFolder("created")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("created.sqlite").path
        let created = try StoreSchema.create(at: path, version: version, storeUUID: "5443A63D-EF0E-44C2-B216-AE8B5ED2FD09")
        #expect(try created.rows("PRAGMA page_size") == [[.integer(4096)]])
        #expect(try created.rows("PRAGMA auto_vacuum") == [[.integer(2)]])
        #expect(try created.rows("PRAGMA journal_mode") == [[.text("wal")]])
        #expect(try created.rows("SELECT * FROM Z_PRIMARYKEY") == [[.integer(1), .text("User"), .integer(0), .integer(0)]])

        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let expected = try #require(try StoreMetadataTable.read(fixture))
        let written = try #require(try StoreMetadataTable.read(created))
        #expect(written.storeUUID == expected.storeUUID)
        guard case .dictionary(let writtenMembers) = written.plist, case .dictionary(let expectedMembers) = expected.plist else {
            Issue.record("metadata is not a dictionary")
            return
        }
        #expect(Set(writtenMembers.map(\.key)) == Set(expectedMembers.map(\.key)))
        for (key, value) in expectedMembers where key != "NSPersistenceFrameworkVersion" {
            #expect(written.plist[key] == value, "\(key)")
        }
        // The inspector reads it like an Apple-written store.
        let metadata = try StoreInspector.inspect(path)
        #expect(metadata.entityHashes == VersionHashes(version).entityHashes)
        #expect(metadata.versionChecksum == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
    }

    @Test func theModelCacheIsTheRawDeflatedModelArchive() throws {
        let store = "CoreDataPlus-SampleModel/SampleModel_V1.sqlite"
        let version = try Self.version(for: store)
        let folder = try Fixtures.temporaryFolder("cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let created = try StoreSchema.create(at: folder.appendingPathComponent("created.sqlite").path, version: version)
        let content = try #require(try created.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first?.blobValue)
        #expect(try ModelCache.inflate(content) == CompiledModel.mom(for: version))
        // Apple's cache in the fixture is the same kind of data: raw DEFLATE of a binary plist archive.
        let fixture = try StoreConnection(path: Fixtures.copyStore(store, to: folder), mode: .readWrite)
        let apple = try #require(try fixture.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first?.blobValue)
        #expect(try ModelCache.inflate(apple).starts(with: Array("bplist00".utf8)))
        #expect(throws: ModelCache.CompressionError.self) { try ModelCache.inflate([1, 2, 3, 4]) }
    }

    @Test func creatingOverAnExistingFileIsRefused() throws {
        let folder = try Fixtures.temporaryFolder("exists")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreSchema.CreationError.self) { try StoreSchema.create(at: path, version: ModelVersion(name: "V", entities: [])) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("x".utf8))
    }

    /// Two entities whose tables would have the same name make the DDL fail: nothing is left behind.
    @Test func aFailedCreationLeavesNoFiles() throws {
        let folder = try Fixtures.temporaryFolder("failed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let clash = ModelVersion(name: "V", entities: [Entity(name: "item"), Entity(name: "Item")])
        #expect(throws: StoreSQLiteError.self) { try StoreSchema.create(at: path, version: clash) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

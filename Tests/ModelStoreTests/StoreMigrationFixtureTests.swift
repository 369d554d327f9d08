import Foundation
import ModelCompiler
import ModelSchema
import ModelStore
import Testing

/// Ground truth for store migration: Apple-written fixture stores migrated to their model's
/// current version keep every row and relationship, and end with the schema of a new store of
/// that version; the one store Core Data itself migrated is reproduced exactly.
struct StoreMigrationFixtureTests {
    static func model(_ path: String) throws -> Model {
        try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(path).path).model)
    }

    static func bytes(_ path: String) -> [String: Data?] {
        Dictionary(uniqueKeysWithValues: ["", "-wal", "-shm"].map { ($0, FileManager.default.contents(atPath: path + $0)) })
    }

    /// Core Data migrated SampleModel_V1 to version 2 (renaming `ExpensiveSportCar` to `LuxuryCar`
    /// through its renaming identifier, dropping attributes, adding a fetch index) and the
    /// result is in the fixtures: the migrated store has its schema, its bookkeeping rows (the
    /// renamed entity keeps its old name in `Z_PRIMARYKEY`), its UUID and its data.
    @Test func sampleModelV1MigratesToExactlyTheStoreCoreDataMigrated() throws {
        let model = try Self.model(FixtureStores.sampleModel)
        let folder = try Fixtures.temporaryFolder("migrate-v2")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let versions = try #require(StoreMigrator.path(in: model, from: "SampleModel", to: "SampleModel2"))
        try StoreMigrator.migrate(storeAt: path, through: versions)

        let migrated = try StoreConnection(path: path, mode: .readWrite)
        let apple = try StoreConnection(
            path: Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", to: folder), mode: .readWrite)
        #expect(try StoreSchemaFixtureTests.schema(migrated) == StoreSchemaFixtureTests.schema(apple))
        #expect(try migrated.rows("SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == apple.rows("SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT"))
        for table in ["ZCAR", "ZPERSON"] {
            #expect(
                try migrated.rows("SELECT * FROM \(table) ORDER BY Z_PK") == apple.rows("SELECT * FROM \(table) ORDER BY Z_PK"), "\(table)")
        }
        let metadata = try StoreInspector.read(migrated)
        let appleMetadata = try StoreInspector.read(apple)
        #expect(metadata.storeUUID == appleMetadata.storeUUID)
        #expect(metadata.entityHashes == appleMetadata.entityHashes)
        #expect(metadata.entityHashes == VersionHashes(versions[1]).entityHashes)
        #expect(!FileManager.default.fileExists(atPath: path + ".migration"))
    }

    /// The model every Apple-written store recorded in `Z_MODELCACHE` (archived with
    /// `NSKnownKeysDictionary1`s and sub-entities listing inherited properties) decodes to a
    /// version with the store's entity hashes: a source model when no version is bundled.
    @Test(arguments: FixtureStores.stores.keys.sorted())
    func theModelCacheDecodesToTheVersionThatWroteTheStore(_ store: String) throws {
        let folder = try Fixtures.temporaryFolder("model-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = try StoreInspector.open(Fixtures.copyStore(store, to: folder))
        guard let content = try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first?.blobValue else {
            #expect(store.hasPrefix("wibosco"), "only the oldest stores have no model cache")
            return
        }
        #expect(try VersionHashes(ModelCache.decode(content)).entityHashes == StoreInspector.read(connection).entityHashes)
    }

    /// Every fixture store whose steps to the newest version are all inferable migrates; the
    /// others are refused and left byte for byte as they were.
    @Test(arguments: FixtureStores.stores.keys.sorted())
    func fixtureStoreMigratesToTheNewestVersionKeepingEveryRow(_ store: String) throws {
        let expected = try #require(FixtureStores.stores[store])
        let model = try Self.model(expected.model)
        let versions = try #require(StoreMigrator.path(in: model, from: expected.version, to: model.versions.last?.name ?? ""))
        let folder = try Fixtures.temporaryFolder("migrate-fixture")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixtures.copyStore(store, to: folder)
        let original = try StoreSnapshot.read(StoreInspector.open(path), versions[0])
        let before = Self.bytes(path)
        let inferable = zip(versions, versions.dropFirst()).allSatisfy { MigrationPlanner.step(from: $0, to: $1).isInferable }
        if !inferable {
            #expect(throws: StoreMigrationError.self) { try StoreMigrator.migrate(storeAt: path, through: versions) }
            #expect(Self.bytes(path) == before)
            #expect(!FileManager.default.fileExists(atPath: path + ".migration"))
            return
        }
        try StoreMigrator.migrate(storeAt: path, through: versions)
        try Self.expectMigrated(path, versions: versions, original: original, folder: folder)
    }

    /// wibosco's step 2 → 3 needs code (a new required relationship), as the project's own
    /// mapping model says; run as a custom stage (no inference check), the rows still arrive.
    @Test(arguments: [
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_1.sqlite",
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite",
    ])
    func wiboscoStoresMigrateThroughTheCustomStep(_ store: String) throws {
        let expected = try #require(FixtureStores.stores[store])
        let model = try Self.model(expected.model)
        let versions = try #require(StoreMigrator.path(in: model, from: expected.version, to: model.versions.last?.name ?? ""))
        let folder = try Fixtures.temporaryFolder("migrate-custom")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixtures.copyStore(store, to: folder)
        let original = try StoreSnapshot.read(StoreInspector.open(path), versions[0])
        let session = try StoreMigrationSession(storeAt: path)
        for (source, destination) in zip(versions, versions.dropFirst()) {
            try session.migrate(from: source, to: destination, allowingObstacles: true)
        }
        try session.commit()
        try Self.expectMigrated(path, versions: versions, original: original, folder: folder)
    }

    /// The Trips sample: a `Trips 1` store holding rows of every entity, every relationship set,
    /// migrates to `Trips 2` (four attributes added; composites, a derived attribute, an ordered
    /// to-many and a many-to-many) with every row, value and pair.
    @Test func aTripsOneStoreMigratesToTripsTwo() throws {
        let model = try #require(Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path).model)
        let versions = try #require(StoreMigrator.path(in: model, from: "Trips 1", to: "Trips 2"))
        let folder = try Fixtures.temporaryFolder("migrate-trips")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Trips.sqlite").path
        try Self.fill(StoreSchema.create(at: path, version: versions[0]), layout: StoreLayout(versions[0]))
        let original = try StoreSnapshot.read(StoreInspector.open(path), versions[0])
        #expect(original.rows.values.allSatisfy { $0.count == 3 })
        try StoreMigrator.migrate(storeAt: path, through: versions)
        try Self.expectMigrated(path, versions: versions, original: original, folder: folder)
        // New attributes take their defaults; the new derived count is computed by the store's
        // triggers (every stop belongs to trip 1).
        let store = try StoreConnection(path: path, mode: .readWrite)
        #expect(
            try store.rows("SELECT ZSTATUS, ZSTOPCOUNT FROM ZTRIP ORDER BY Z_PK") == [
                [.text("planned"), .integer(3)], [.text("planned"), .integer(0)], [.text("planned"), .integer(0)],
            ])
        #expect(try store.rows("SELECT DISTINCT ZCOLOR FROM ZTAG") == [[.text("#FFAA00")]])
    }

    /// Three rows of every concrete entity, with distinct values in every column, every to-one
    /// set to a row of its destination and every join table holding a pair per row.
    static func fill(_ connection: StoreConnection, layout: StoreLayout) throws {
        var keys: [String: Int64] = [:]
        var rowsByEntity: [Int: [Int64]] = [:]
        for entity in layout.entities {
            let table = layout.table(of: entity)
            for _ in 0..<3 {
                let key = keys[table.name, default: 0] + 1
                keys[table.name] = key
                rowsByEntity[entity.entityNumber, default: []].append(key)
            }
        }
        for entity in layout.entities {
            let table = layout.table(of: entity)
            for key in rowsByEntity[entity.entityNumber] ?? [] {
                var values: [Int: SQLiteValue] = [0: .integer(key), 1: .integer(Int64(entity.entityNumber)), 2: .integer(1)]
                for property in entity.properties {
                    switch property.storage {
                    case .column(let index): values[index] = value(table.columns[index].type, key)
                    case .composite(let indexes): for index in indexes { values[index] = value(table.columns[index].type, key) }
                    case .toOne(let keyColumn, let entityColumn, _):
                        guard let number = property.destinationEntityNumber, let target = rowsByEntity[number]?.first else { continue }
                        values[keyColumn] = .integer(target)
                        if let entityColumn { values[entityColumn] = .integer(Int64(number)) }
                    default: break
                    }
                }
                let columns = values.keys.sorted()
                let statement = try connection.prepare(
                    "INSERT INTO \(table.name) (" + columns.map { table.columns[$0].name }.joined(separator: ", ") + ") VALUES ("
                        + columns.map { _ in "?" }.joined(separator: ", ") + ")")
                statement.bind(columns.map { values[$0]! })
                try statement.step()
            }
        }
        for joinTable in layout.joinTables {
            guard let first = layout.entity(named: joinTable.first.entityName),
                let second = layout.entity(named: joinTable.second.entityName)
            else { continue }
            for (a, b) in zip(rowsByEntity[first.entityNumber] ?? [], rowsByEntity[second.entityNumber] ?? []) {
                let columns = [joinTable.first.column, joinTable.second.column] + joinTable.orderColumns
                try connection.execute(
                    "INSERT INTO \(joinTable.name) (\(columns.joined(separator: ", "))) VALUES (\(([a, b] + joinTable.orderColumns.map { _ in 1 }).map(String.init).joined(separator: ", ")))"
                )
            }
        }
        for (table, key) in keys {
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(key) WHERE Z_NAME = '\(table.dropFirst())' COLLATE NOCASE")
        }
    }

    static func value(_ type: StoreLayout.ColumnType, _ key: Int64) -> SQLiteValue {
        switch type {
        case .integer: .integer(key)
        case .float, .decimal, .timestamp: .real(Double(key) + 0.5)
        case .varchar: .text("value \(key)")
        case .blob: .blob([UInt8(key & 0xff), 1, 2])
        }
    }

    /// The migrated store has the schema of a new store of the last version and the metadata of
    /// that version with the original UUID, and every original row with every mapped value.
    static func expectMigrated(_ path: String, versions: [ModelVersion], original: StoreSnapshot, folder: URL) throws {
        let destination = try #require(versions.last)
        let migrated = try StoreConnection(path: path, mode: .readWrite)
        let fresh = try StoreSchema.create(at: folder.appendingPathComponent("fresh.sqlite").path, version: destination)
        #expect(try StoreSchemaFixtureTests.schema(migrated) == StoreSchemaFixtureTests.schema(fresh))
        #expect(try StoreSchema.existingLayout(of: migrated, version: destination).differences == [])
        let metadata = try StoreInspector.read(migrated)
        #expect(metadata.entityHashes == VersionHashes(destination).entityHashes)
        #expect(try StoreMetadataTable.read(migrated)?.storeUUID == original.storeUUID)
        let after = try StoreSnapshot.read(migrated, destination)
        let mapping = ComposedMapping(versions)
        for (entity, originalEntity) in mapping.entities {
            let rows = after.rows[entity] ?? [:]
            let originalRows = original.rows[originalEntity] ?? [:]
            #expect(Set(rows.keys) == Set(originalRows.keys), "\(entity)")
            for (property, originalProperty) in mapping.properties[entity] ?? [:] {
                if let pairs = after.pairs[entity]?[property] {
                    let expected = try #require(versions.first).expectedPairs(original, originalEntity, originalProperty)
                    #expect(pairs == expected, "\(entity).\(property)")
                    continue
                }
                for (key, values) in rows {
                    guard let before = originalRows[key]?[originalProperty] else { continue }
                    #expect(values[property] == before, "\(entity).\(property) of row \(key)")
                }
            }
        }
    }
}

extension ModelVersion {
    /// The pairs a many-to-many relationship holds after a migration from this version, where it
    /// was `property` of `entity`: its pairs, or for a to-one made a to-many its keys' values
    /// (`BookmarksModel 3` → `4`: `favoriteFolder` → `favoriteFolders`), or for the to-many
    /// inverse of such a to-one the same pairs reversed.
    func expectedPairs(_ snapshot: StoreSnapshot, _ entity: String, _ property: String) -> Set<[Int64]> {
        if let pairs = snapshot.pairs[entity]?[property] { return pairs }
        let lookup = VersionLookup(self)
        guard let declared = self.entity(named: entity),
            let relationship = lookup.allProperties(of: declared).relationships.first(where: { $0.name == property })
        else { return [] }
        func keys(of entity: String, _ property: String) -> [[Int64]] {
            (snapshot.rows[entity] ?? [:]).compactMap { key, values in values[property]?.integerValue.map { [key, $0] } }
        }
        if !relationship.isToMany { return Set(keys(of: entity, property)) }
        guard let inverse = relationship.inverseName else { return [] }
        var reversed: Set<[Int64]> = []
        for destination in entities
        where destination.name == relationship.destinationName
            || lookup.ancestors(of: destination).contains(where: { $0.name == relationship.destinationName })
        {
            for pair in keys(of: destination.name, inverse) { reversed.insert([pair[1], pair[0]]) }
        }
        return reversed
    }
}

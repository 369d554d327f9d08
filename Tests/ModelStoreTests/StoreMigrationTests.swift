import Foundation
import ModelSchema
import ModelStore
import Testing

/// Lightweight migration steps on a small model that exercises what the fixtures do not: an
/// entity added in front (every entity renumbered), a property renamed twice (staged migration
/// keeps its values), a new required attribute with a default, a to-one becoming to-many (a new
/// join table), an unordered to-many becoming ordered, and the all-or-nothing guarantee.
struct StoreMigrationTests {
    static let v1 = ModelVersion(
        name: "V1",
        entities: [
            Entity(
                name: "Author", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                relationships: [Relationship(name: "books", destinationName: "Book", isToMany: true, inverseName: "author")]),
            Entity(
                name: "Book",
                attributes: [
                    Attribute(name: "notes", type: .string, isOptional: true), Attribute(name: "title", type: .string, isOptional: true),
                ],
                relationships: [Relationship(name: "author", destinationName: "Author", inverseName: "books")]),
        ])

    static let v2 = ModelVersion(
        name: "V2",
        entities: [
            Entity(name: "Aardvark", attributes: [Attribute(name: "size", type: .integer32, isOptional: true)]),
            Entity(
                name: "Author", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                relationships: [
                    Relationship(name: "books", destinationName: "Book", isToMany: true, isOrdered: true, inverseName: "author")
                ]),
            Entity(
                name: "Book",
                attributes: [
                    Attribute(name: "pages", type: .integer32, defaultValue: .integer(7)),
                    Attribute(name: "remarks", type: .string, isOptional: true, renamingIdentifier: "notes"),
                    Attribute(name: "title", type: .string, isOptional: true),
                ],
                relationships: [Relationship(name: "author", destinationName: "Author", inverseName: "books")]),
        ])

    static let v3 = ModelVersion(
        name: "V3",
        entities: [
            Entity(name: "Aardvark", attributes: [Attribute(name: "size", type: .integer32, isOptional: true)]),
            Entity(
                name: "Author", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                relationships: [
                    Relationship(name: "books", destinationName: "Book", isToMany: true, isOrdered: true, inverseName: "authors")
                ]),
            Entity(
                name: "Book",
                attributes: [
                    Attribute(name: "comment", type: .string, isOptional: true, renamingIdentifier: "notes"),
                    Attribute(name: "pages", type: .integer32, defaultValue: .integer(7)),
                    Attribute(name: "title", type: .string, isOptional: true),
                ],
                relationships: [
                    Relationship(
                        name: "authors", destinationName: "Author", isToMany: true, inverseName: "books", renamingIdentifier: "author")
                ]),
        ])

    /// A V1 store: authors 1 and 2; books 1–3 by author 1, book 4 by author 2, book 5 by nobody.
    static func makeStore(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("books.sqlite").path
        let connection = try StoreSchema.create(at: path, version: v1)
        try connection.execute(
            """
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Ann'), (2, 1, 3, 'Bo');
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZNOTES, ZTITLE) VALUES
              (1, 2, 1, 1, 'n1', 't1'), (2, 2, 1, 1, NULL, 't2'), (3, 2, 2, 1, 'n3', 't3'), (4, 2, 1, 2, 'n4', 't4'),
              (5, 2, 1, NULL, 'n5', 't5');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 1;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_ENT = 2;
            """)
        return path
    }

    @Test func stagedStepsRenumberEntitiesKeepChainedRenamesAndBuildTheJoinTable() throws {
        let folder = try Fixtures.temporaryFolder("migrate-books")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeStore(in: folder)
        let uuid = try StoreMetadataTable.read(StoreInspector.open(path))?.storeUUID
        try StoreMigrator.migrate(storeAt: path, through: [Self.v1, Self.v2, Self.v3])

        let store = try StoreConnection(path: path, mode: .readWrite)
        let fresh = try StoreSchema.create(at: folder.appendingPathComponent("fresh.sqlite").path, version: Self.v3)
        #expect(try StoreSchemaFixtureTests.schema(store) == StoreSchemaFixtureTests.schema(fresh))
        // Aardvark is 1 now: Author 1 → 2, Book 2 → 3; keys and Z_OPT are kept.
        #expect(
            try store.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ZAUTHOR ORDER BY Z_PK") == [
                [.integer(1), .integer(2), .integer(1), .text("Ann")], [.integer(2), .integer(2), .integer(3), .text("Bo")],
            ])
        // The twice-renamed notes keep their values; the new required pages take the default.
        #expect(
            try store.rows("SELECT Z_PK, Z_ENT, ZCOMMENT, ZPAGES, ZTITLE FROM ZBOOK ORDER BY Z_PK") == [
                [.integer(1), .integer(3), .text("n1"), .integer(7), .text("t1")],
                [.integer(2), .integer(3), .null, .integer(7), .text("t2")],
                [.integer(3), .integer(3), .text("n3"), .integer(7), .text("t3")],
                [.integer(4), .integer(3), .text("n4"), .integer(7), .text("t4")],
                [.integer(5), .integer(3), .text("n5"), .integer(7), .text("t5")],
            ])
        // The to-one became many-to-many: the pairs moved to the join table, and Author.books,
        // ordered since V2, has its books in key order (Core Data's order values 2048, 3072, …).
        let joinTable = try #require(StoreLayout(Self.v3).joinTables.first)
        #expect(joinTable.name == "Z_2BOOKS")
        let pairs = try store.rows(
            "SELECT \(joinTable.first.column), \(joinTable.second.column), \(joinTable.orderColumns.joined(separator: ", ")) FROM Z_2BOOKS ORDER BY 1, 2"
        )
        let expectedPairs: [[Int64]] = [[1, 1], [1, 2], [1, 3], [2, 4]]
        let expectedOrder: [Int64] = [2048, 3072, 4096, 2048]
        #expect(pairs.map { Array($0.prefix(2)) } == expectedPairs.map { $0.map(SQLiteValue.integer) })
        #expect(pairs.map { $0[2] } == expectedOrder.map(SQLiteValue.integer))
        #expect(
            try store.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                [.integer(1), .text("Aardvark"), .integer(0), .integer(0)], [.integer(2), .text("Author"), .integer(0), .integer(2)],
                [.integer(3), .text("Book"), .integer(0), .integer(9)],
            ])
        let metadata = try StoreInspector.read(store)
        #expect(metadata.storeUUID == uuid)
        #expect(metadata.versionChecksum == VersionHashes(Self.v3).versionChecksum)
        #expect(
            try ModelCache.inflate(try #require(store.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first?.blobValue))
                == CompiledModel.mom(for: Self.v3))
    }

    /// Plain lightweight migration from the first version straight to the last pairs `comment`
    /// with `notes` too (the identifier was kept), but misses nothing else either: the direct
    /// step must give the same store as the staged one.
    @Test func aDirectStepGivesTheSameRowsAsTheStagedSteps() throws {
        let folder = try Fixtures.temporaryFolder("migrate-direct")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeStore(in: folder)
        try StoreMigrator.migrate(storeAt: path, through: [Self.v1, Self.v3])
        let store = try StoreConnection(path: path, mode: .readWrite)
        #expect(
            try store.rows("SELECT ZCOMMENT FROM ZBOOK ORDER BY Z_PK")
                == [SQLiteValue.text("n1"), .null, .text("n3"), .text("n4"), .text("n5")].map { [$0] })
    }

    /// A step that fails half-way (a new uniqueness constraint over duplicate values) leaves the
    /// store's files byte for byte as they were, and nothing beside them.
    @Test func aFailingStepLeavesTheStoreUntouched() throws {
        let folder = try Fixtures.temporaryFolder("migrate-fail")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeStore(in: folder)
        try StoreConnection(path: path, mode: .readWrite).execute("UPDATE ZBOOK SET ZTITLE = 'same'")
        var unique = Self.v2
        unique.entities[2].uniquenessConstraints = [["title"]]
        let before = StoreMigrationFixtureTests.bytes(path)
        #expect(before[""]! != nil)
        #expect(throws: StoreMigrationError.self) { try StoreMigrator.migrate(storeAt: path, through: [Self.v1, unique]) }
        #expect(StoreMigrationFixtureTests.bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + ".migration"))
        #expect(try StoreInspector.inspect(path).entityHashes == VersionHashes(Self.v1).entityHashes)
    }

    @Test func aStepLightweightMigrationCannotInferIsRefusedWithItsReason() throws {
        let folder = try Fixtures.temporaryFolder("migrate-refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeStore(in: folder)
        var required = Self.v1
        required.entities[1].attributes.append(Attribute(name: "isbn", type: .string))
        let error = try #require(throws: StoreMigrationError.self) {
            try StoreMigrator.migrate(storeAt: path, through: [Self.v1, required])
        }
        #expect(error.kind == .notInferable)
        #expect(error.message.contains("'Book.isbn'"))
        let wrongSource = try #require(throws: StoreMigrationError.self) {
            try StoreMigrator.migrate(storeAt: path, through: [Self.v2, Self.v3])
        }
        #expect(wrongSource.kind == .sourceMismatch)
    }

    /// A migration interrupted after its commit point is finished by the next recovery; one
    /// interrupted before it is discarded.
    @Test func recoveryFinishesACommittedMigrationAndDiscardsAnUncommittedOne() throws {
        let folder = try Fixtures.temporaryFolder("migrate-recover")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeStore(in: folder)
        let before = StoreMigrationFixtureTests.bytes(path)
        try FileManager.default.createDirectory(atPath: path + ".migration", withIntermediateDirectories: false)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: path + ".migration/store.sqlite"))
        try StoreMigrationSession.recover(storeAt: path)
        #expect(StoreMigrationFixtureTests.bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + ".migration"))

        // A complete copy and the marker: recovery moves the copy into place.
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
        let migratedPath = try Self.makeStore(in: other)
        try StoreMigrator.migrate(storeAt: migratedPath, through: [Self.v1, Self.v2])
        try FileManager.default.createDirectory(atPath: path + ".migration", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: migratedPath, toPath: path + ".migration/store.sqlite")
        _ = FileManager.default.createFile(atPath: path + ".migration/committed", contents: Data())
        try StoreMigrationSession.recover(storeAt: path)
        #expect(try StoreInspector.inspect(path).entityHashes == VersionHashes(Self.v2).entityHashes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + ".migration"))
    }
}

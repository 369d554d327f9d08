import Foundation
import ModelSchema
import ModelStore
import Testing

struct StoreConnectionTests {
    static let version = ModelVersion(
        name: "V",
        entities: [
            Entity(name: "Note", attributes: [Attribute(name: "body", type: .string, isOptional: true)]),
            Entity(name: "Draft", parentName: "Note"), Entity(name: "Tag"),
        ])

    @Test func cachedStatementsAreReusedAndBindByIndex() throws {
        let connection = try StoreConnection()
        try connection.execute("CREATE TABLE t (a INTEGER, b TEXT, c BLOB, d FLOAT)")
        let insert = try connection.cachedStatement("INSERT INTO t VALUES (?, ?, ?, ?)")
        insert.bind(Int64(1), at: 1)
        insert.bind("one", at: 2)
        insert.bind(bytes: [], at: 3)
        insert.bind(2.5, at: 4)
        try insert.step()
        #expect(try connection.cachedStatement("INSERT INTO t VALUES (?, ?, ?, ?)") === insert)
        let select = try connection.cachedStatement("SELECT a, b, c, d FROM t")
        #expect(try select.step())
        #expect(select.int64(at: 0) == 1)
        #expect(select.string(at: 1) == "one")
        #expect(select.bytes(at: 2) == [])
        #expect(select.double(at: 3) == 2.5)
        #expect(try select.step() == false)
    }

    @Test func textWithNULAndEmptyTextRoundTrip() throws {
        let connection = try StoreConnection()
        try connection.execute("CREATE TABLE t (v TEXT)")
        let insert = try connection.cachedStatement("INSERT INTO t VALUES (?)")
        for text in ["a\u{0}b", "", "ünïcödé"] {
            insert.reset()
            insert.bind(text, at: 1)
            try insert.step()
        }
        #expect(
            try connection.rows("SELECT v, length(CAST(v AS BLOB)) FROM t ORDER BY rowid") == [
                [.text("a\u{0}b"), .integer(3)], [.text(""), .integer(0)], [.text("ünïcödé"), .integer(11)],
            ])
    }

    @Test func aThrowingTransactionRollsBack() throws {
        struct Failure: Error {}
        let connection = try StoreConnection()
        try connection.execute("CREATE TABLE t (a INTEGER)")
        #expect(throws: Failure.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(try connection.rows("SELECT COUNT(*) FROM t") == [[.integer(0)]])
        #expect(!connection.isInTransaction)
        try connection.transaction(.immediate) { try connection.execute("INSERT INTO t VALUES (1)") }
        #expect(try connection.rows("SELECT COUNT(*) FROM t") == [[.integer(1)]])
    }

    /// Keys come from the root's `Z_PRIMARYKEY` row; two connections never receive the same keys.
    @Test func primaryKeysAreAllocatedPerRootWithoutOverlap() throws {
        let folder = try Fixtures.temporaryFolder("keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let first = try StoreSchema.create(at: path, version: Self.version)
        let second = try StoreConnection.openStore(at: path)
        #expect(try second.rows("PRAGMA journal_mode") == [[.text("wal")]])
        let layout = StoreLayout(Self.version)
        let note = try #require(layout.entity(named: "Draft")).rootEntityNumber
        #expect(try PrimaryKeyAllocator(connection: first).allocate(3, rootEntityNumber: note) == 1)
        #expect(try PrimaryKeyAllocator(connection: second).allocate(5, rootEntityNumber: note) == 4)
        #expect(try PrimaryKeyAllocator(connection: first).allocate(1, rootEntityNumber: note) == 9)
        let tag = try #require(layout.entity(named: "Tag")).entityNumber
        #expect(try PrimaryKeyAllocator(connection: second).allocate(2, rootEntityNumber: tag) == 1)
        #expect(
            try first.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                [.integer(1), .integer(9)], [.integer(2), .integer(0)], [.integer(3), .integer(2)],
            ])
        #expect(throws: PrimaryKeyAllocator.AllocationError.self) {
            try PrimaryKeyAllocator(connection: first).allocate(1, rootEntityNumber: 99)
        }
    }

    @Test func metadataRoundTrips() throws {
        let folder = try Fixtures.temporaryFolder("metadata")
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = try StoreSchema.create(
            at: folder.appendingPathComponent("store.sqlite").path, version: Self.version, storeUUID: "U")
        var row = try #require(try StoreMetadataTable.read(connection))
        #expect(row.storeUUID == "U")
        row.plist = .dictionary([("NSStoreType", .string("SQLite")), ("custom", .integer(7))])
        try StoreMetadataTable.write(row, to: connection)
        #expect(try StoreMetadataTable.read(connection) == row)
        #expect(try connection.rows("SELECT COUNT(*) FROM Z_METADATA") == [[.integer(1)]])
    }

    @Test func openingAMissingStoreReadOnlyFails() {
        #expect(throws: StoreSQLiteError.self) { try StoreConnection(path: "/nonexistent/store.sqlite", mode: .readOnly) }
    }
}

#if !canImport(CoreData)
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Join tables whose sides are told apart by relationship name: a self-referencing
/// many-to-many (`following` ↔ `followers`) and a to-many without an inverse.
struct FetchSQLJoinTableTests {
    static let version = ModelVersion(
        name: "Social",
        entities: [
            Entity(
                name: "Member", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                relationships: [
                    Relationship(name: "following", destinationName: "Member", isToMany: true, inverseName: "followers"),
                    Relationship(name: "followers", destinationName: "Member", isToMany: true, inverseName: "following"),
                    Relationship(name: "bookmarks", destinationName: "Note", isToMany: true, isOneWay: true),
                ]),
            Entity(name: "Note", attributes: [Attribute(name: "title", type: .string, isOptional: true)]),
        ])

    /// Member 1 follows 2 and 3, 2 follows 3, 4 follows 1; member 1 bookmarks note 2, member 3 note 1.
    static func store() throws -> (StoreLayout, StoreConnection, String) {
        let layout = StoreLayout(version)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("joins-\(UUID().uuidString).sqlite").path
        let connection = try StoreSchema.create(at: path, version: version, layout: layout)
        let member = layout.entity(named: "Member")!.entityNumber
        let note = layout.entity(named: "Note")!.entityNumber
        for (key, name) in ["a", "b", "c", "d"].enumerated() {
            _ = try connection.rows(
                "INSERT INTO ZMEMBER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)",
                [.integer(Int64(key + 1)), .integer(Int64(member)), .text(name)])
        }
        for (key, title) in ["x", "y"].enumerated() {
            _ = try connection.rows(
                "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, ?, 1, ?)",
                [.integer(Int64(key + 1)), .integer(Int64(note)), .text(title)])
        }
        func insert(_ relationship: String, _ pairs: [(Int64, Int64)]) throws {
            let table = try #require(
                layout.joinTables.first { $0.first.relationshipName == relationship || $0.second.relationshipName == relationship })
            let (source, target) = table.second.relationshipName == relationship ? (table.first, table.second) : (table.second, table.first)
            for (from, to) in pairs {
                _ = try connection.rows(
                    "INSERT INTO \(table.name) (\(source.column), \(target.column)) VALUES (?, ?)", [.integer(from), .integer(to)])
            }
        }
        try insert("following", [(1, 2), (1, 3), (2, 3), (4, 1)])
        try insert("bookmarks", [(1, 2), (3, 1)])
        return (layout, connection, path)
    }

    static func keys(_ format: String, _ layout: StoreLayout, _ connection: StoreConnection) throws -> [Int64] {
        let statement = try FetchSQLTranslator.translate(
            .init(
                entity: layout.entity(named: "Member")!, predicate: NSPredicate(format: format),
                sortDescriptors: [NSSortDescriptor(key: "name", ascending: true)], selection: .objectIDs),
            layout: layout)
        return try connection.rows(statement.sql, statement.bindings).map { $0[1].integerValue ?? -1 }
    }

    @Test func selfReferencingAndInverseLessToManyRelationshipsReadTheRightJoinColumns() throws {
        let (layout, connection, path) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Self.keys("ANY following.name == 'c'", layout, connection) == [1, 2])
        #expect(try Self.keys("ANY followers.name == 'a'", layout, connection) == [2, 3])
        #expect(try Self.keys("followers.@count == 0", layout, connection) == [4])
        #expect(try Self.keys("following.@count == 2", layout, connection) == [1])
        #expect(try Self.keys("ANY following.following.name == 'c'", layout, connection) == [1, 4])
        #expect(try Self.keys("ANY bookmarks.title == 'x'", layout, connection) == [3])
        #expect(try Self.keys("bookmarks.@count == 0", layout, connection) == [2, 4])
    }
}
#endif

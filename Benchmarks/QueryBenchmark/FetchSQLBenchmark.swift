#if !canImport(CoreData)
import ModelRuntime
import ModelSchema
import ModelStore

/// Translates fetches to SQL repeatedly, then runs translated fetches on a store of 200,000
/// rows, to show what translation costs next to running the statement.
func benchmarkFetchSQL() throws {
    let version = ModelVersion(
        name: "Bench",
        entities: [
            Entity(
                name: "Person",
                attributes: [
                    Attribute(name: "name", type: .string, isOptional: true), Attribute(name: "age", type: .integer32, isIndexed: true),
                ],
                relationships: [
                    Relationship(name: "city", destinationName: "City", inverseName: "people"),
                    Relationship(name: "tags", destinationName: "Tag", isToMany: true, inverseName: "people"),
                ]),
            Entity(
                name: "City", attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                relationships: [Relationship(name: "people", destinationName: "Person", isToMany: true, inverseName: "city")]),
            Entity(
                name: "Tag", attributes: [Attribute(name: "label", type: .string, isOptional: true)],
                relationships: [Relationship(name: "people", destinationName: "Person", isToMany: true, inverseName: "tags")]),
        ])
    let layout = StoreLayout(version)
    let person = layout.entity(named: "Person")!
    let formats = [
        "age > 30 AND name BEGINSWITH[c] 'person 1'",
        "city.name == 'City 7' OR age BETWEEN {10, 20}",
        "ANY tags.label == 'swift' AND NOT name CONTAINS[cd] 'MULLER 5'",
        "age == 42",
    ]
    let predicates = formats.map { NSPredicate(format: $0) }
    let sort = [NSSortDescriptor(key: "city.name", ascending: true), NSSortDescriptor(key: "age", ascending: false)]
    var statements: [FetchSQL] = []
    let translateTime = try seconds {
        for _ in 0..<5_000 {
            statements = try predicates.map {
                try FetchSQLTranslator.translate(.init(entity: person, predicate: $0, sortDescriptors: sort), layout: layout)
            }
        }
    }
    print(
        "translate: \(predicates.count * 5_000) fetches in \(String(format: "%.3f", translateTime)) s"
            + " (\(String(format: "%.1f", translateTime / Double(predicates.count * 5_000) * 1e6)) µs each)")

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fetchsql-bench-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let connection = try StoreSchema.create(at: path, version: version, layout: layout)
    try connection.transaction {
        for index in 0..<50 {
            _ = try connection.rows(
                "INSERT INTO ZCITY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", [.integer(Int64(index + 1)), .text("City \(index)")])
        }
        for index in 0..<2 {
            _ = try connection.rows(
                "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (?, 3, 1, ?)",
                [.integer(Int64(index + 1)), .text(["swift", "linux"][index])])
        }
        let insert = try connection.prepare("INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZAGE, ZCITY, ZNAME) VALUES (?, 2, 1, ?, ?, ?)")
        let tag = try connection.prepare("INSERT INTO Z_2TAGS (Z_2PEOPLE, Z_3TAGS) VALUES (?, 1)")
        for index in 0..<200_000 {
            insert.reset()
            insert.bind([
                .integer(Int64(index + 1)), .integer(Int64(index % 90)), .integer(Int64(index % 50 + 1)),
                .text("Person \(index % 9973) Müller"),
            ])
            try insert.step()
            if index % 7 == 0 {
                tag.reset()
                tag.bind([.integer(Int64(index + 1))])
                try tag.step()
            }
        }
    }
    for (index, statement) in statements.enumerated() {
        var count = 0
        let runTime = try seconds { count = try connection.rows(statement.sql, statement.bindings).count }
        print("fetch \"\(formats[index])\" sorted by city.name, age desc: \(count) rows in \(String(format: "%.3f", runTime)) s")
    }
}

func seconds(_ body: () throws -> Void) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
#endif

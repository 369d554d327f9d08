#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// Generated predicates and sort descriptors run two ways over the same data: translated to SQL
/// and run on a real store, and evaluated in memory by the Query layer over the same objects.
/// Both must return the same objects in the same order.
struct FetchSQLDifferentialTests {
    /// The in-memory result of a fetch.
    static func evaluate(
        _ fixture: FetchSQLFixture, entity: String, includesSubentities: Bool, predicate: NSPredicate?, sort: [NSSortDescriptor],
        limit: Int,
        offset: Int
    ) -> [Int64] {
        var objects = fixture.objects(of: entity, includingSubentities: includesSubentities)
        if let predicate { objects = objects.filter { predicate.evaluate(with: $0) } }
        objects.sort { lhs, rhs in
            for descriptor in sort {
                let order = descriptor.compare(lhs, to: rhs)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return false
        }
        var keys = objects.map(\.row.primaryKey).dropFirst(offset)
        if limit > 0 { keys = keys.prefix(limit) }
        return Array(keys)
    }

    @Test(arguments: [
        ("Item", true, UInt64(1)), ("Item", false, 2), ("Special", true, 3), ("Person", true, 4), ("Part", true, 5), ("Tag", true, 6),
    ])
    func generatedPredicatesSelectTheSameObjectsInTheSameOrderAsInMemoryEvaluation(
        entity: String, includesSubentities: Bool, seed: UInt64
    ) throws {
        let fixture = try FetchSQLFixture()
        var generator = PredicateGenerator(random: SeededGenerator(seed: seed), fixture: fixture, entity: entity)
        var failures: [String] = []
        var nonEmpty = 0
        let total = ["Item", "Special"].contains(entity) ? 150 : 60
        let ordered = ["Item", "Special"].contains(entity)
        for _ in 0..<total {
            let clause = generator.predicate()
            let predicate = try NSPredicate(parsing: clause.format, arguments: clause.arguments)
            let sort = generator.sortDescriptors()
            let limit = ordered && generator.chance(20) ? Int.random(in: 1...10, using: &generator.random) : 0
            let offset = ordered && generator.chance(15) ? Int.random(in: 1...5, using: &generator.random) : 0
            let request = FetchSQLRequest(
                entity: fixture.entity(entity), predicate: predicate, sortDescriptors: sort, limit: limit, offset: offset,
                selection: .objectIDs, includesSubentities: includesSubentities)
            let expected = Self.evaluate(
                fixture, entity: entity, includesSubentities: includesSubentities, predicate: predicate, sort: sort, limit: limit,
                offset: offset)
            if !expected.isEmpty { nonEmpty += 1 }
            do {
                let statement = try FetchSQLTranslator.translate(request, layout: fixture.layout)
                let actual = try fixture.primaryKeys(statement)
                if !ordered {
                    // Ties have no defined order: the same objects, each in order after the one before.
                    let byKey = Dictionary(
                        uniqueKeysWithValues: fixture.objects(of: entity, includingSubentities: true).map { ($0.row.primaryKey, $0) })
                    let objects = actual.compactMap { byKey[$0] }
                    let inOrder = zip(objects, objects.dropFirst()).allSatisfy { pair in
                        for descriptor in sort {
                            let order = descriptor.compare(pair.0, to: pair.1)
                            if order != .orderedSame { return order == .orderedAscending }
                        }
                        return true
                    }
                    if Set(actual) != Set(expected) || actual.count != expected.count || !inOrder {
                        failures.append(
                            "\(predicate) sorted \(sort): SQL \(actual) memory \(expected)\n  \(statement.sql) \(statement.bindings)")
                    }
                } else if actual != expected {
                    failures.append(
                        "\(predicate) sorted \(sort): SQL \(actual) memory \(expected)\n  \(statement.sql) \(statement.bindings)")
                }
            } catch {
                failures.append("\(predicate): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) differences:\n\(failures.prefix(8).joined(separator: "\n"))")
        // The generated predicates must be selective enough to test something.
        #expect(nonEmpty > total / 4)
    }

    @Test func countAndDictionaryResultsAgreeWithTheObjectsFetched() throws {
        let fixture = try FetchSQLFixture()
        let predicate = NSPredicate(format: "owner.age > 30 OR ANY tags.label BEGINSWITH[c] 'a'")
        let item = fixture.entity("Item")
        let expected = Self.evaluate(
            fixture, entity: "Item", includesSubentities: true, predicate: predicate, sort: [], limit: 0, offset: 0)
        let count = try FetchSQLTranslator.translate(.init(entity: item, predicate: predicate, selection: .count), layout: fixture.layout)
        #expect(try fixture.connection.rows(count.sql, count.bindings) == [[.integer(Int64(expected.count))]])
        let page = try FetchSQLTranslator.translate(
            .init(entity: item, predicate: predicate, limit: 5, offset: 2, selection: .count), layout: fixture.layout)
        #expect(try fixture.connection.rows(page.sql, page.bindings) == [[.integer(Int64(min(5, max(0, expected.count - 2))))]])

        let sort = [NSSortDescriptor(key: "serial", ascending: true)]
        let properties = try FetchSQLTranslator.translate(
            .init(entity: item, predicate: predicate, sortDescriptors: sort, selection: .properties(["name", "owner.name", "owner"])),
            layout: fixture.layout)
        let rows = try fixture.connection.rows(properties.sql, properties.bindings)
        let objects = Self.evaluate(
            fixture, entity: "Item", includesSubentities: true, predicate: predicate, sort: sort, limit: 0, offset: 0
        )
        .map { key in fixture.objects(of: "Item", includingSubentities: true).first { $0.row.primaryKey == key }! }
        #expect(rows.count == objects.count)
        for (row, object) in zip(rows, objects) {
            let owner = object.values["owner"] as? StoredObject
            #expect(row[0].textValue == object.values["name"] as? String)
            #expect(row[1].textValue == owner?.values["name"] as? String)
            #expect(row[2].integerValue == owner?.row.primaryKey)
        }
        #expect(
            properties.resultColumns.map { if case .property(let keyPath, _) = $0 { keyPath } else { "" } } == [
                "name", "owner.name", "owner",
            ])
    }

    @Test func fullRowsSelectTheColumnsOfTheFetchedEntitiesAndSubentities() throws {
        let fixture = try FetchSQLFixture()
        let item = fixture.entity("Item")
        let table = fixture.layout.table(of: item)
        let statement = try FetchSQLTranslator.translate(.init(entity: item), layout: fixture.layout)
        let rows = try fixture.connection.rows(statement.sql)
        #expect(rows.count == fixture.objects(of: "Item", includingSubentities: true).count)
        let level = try #require(table.columns.firstIndex { $0.name == "ZLEVEL" })
        #expect(statement.resultColumns.contains(.tableColumn(level)))
        let parentOnly = try FetchSQLTranslator.translate(.init(entity: item, includesSubentities: false), layout: fixture.layout)
        #expect(!parentOnly.resultColumns.contains(.tableColumn(level)))
        #expect(Array(statement.resultColumns.prefix(3)) == [.entityNumber, .primaryKey, .optimisticLock])
    }
}
#endif

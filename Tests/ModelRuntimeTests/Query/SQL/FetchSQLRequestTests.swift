#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// Whole requests (entities, inheritance, sorting, pages, selections), refused predicates, and
/// the query plan of an indexed equality.
struct FetchSQLRequestTests {
    static func sql(
        _ fixture: FetchSQLFixture, _ entity: String, _ format: String? = nil, _ arguments: [Any] = [], sort: [NSSortDescriptor] = [],
        limit: Int = 0, offset: Int = 0, selection: FetchSQLRequest.Selection = .objectIDs, includesSubentities: Bool = true
    ) throws -> String {
        let request = FetchSQLRequest(
            entity: fixture.entity(entity), predicate: format.map { NSPredicate(format: $0, argumentArray: arguments) },
            sortDescriptors: sort,
            limit: limit, offset: offset, selection: selection, includesSubentities: includesSubentities)
        let statement = try FetchSQLTranslator.translate(request, layout: fixture.layout)
        _ = try fixture.connection.rows(statement.sql, statement.bindings)
        return statement.sql
    }

    @Test func entitiesSelectTheirRowsAndRestrictTheEntityNumberOnlyWhenTheTableHoldsOthers() throws {
        let fixture = try FetchSQLFixture()
        #expect(
            try Self.sql(fixture, "Tag", "label == 'x'", selection: .rows)
                == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZLABEL FROM ZTAG t0 WHERE t0.ZLABEL = ?")
        #expect(try Self.sql(fixture, "Item") == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0")
        #expect(try Self.sql(fixture, "Special") == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = 2")
        #expect(
            try Self.sql(fixture, "Item", "count > 1", includesSubentities: false)
                == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = 1 AND t0.ZCOUNT > ?")
    }

    @Test func sortDescriptorsUseCollationsForTheirSelectorsAndJoinToOneKeyPaths() throws {
        let fixture = try FetchSQLFixture()
        let sort = [
            NSSortDescriptor(key: "name", ascending: false, selector: "caseInsensitiveCompare:"),
            NSSortDescriptor(key: "owner.name", ascending: true, selector: "localizedStandardCompare:"),
            NSSortDescriptor(key: "owner.name", ascending: true, selector: "localizedCompare:"),
            NSSortDescriptor(key: "name", ascending: true, selector: "localizedCaseInsensitiveCompare:"),
            NSSortDescriptor(key: "born", ascending: true),
        ]
        #expect(
            try Self.sql(fixture, "Item", sort: sort, limit: 10, offset: 20)
                == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK ORDER BY "
                + "t0.ZNAME COLLATE NSCollateNoCase DESC, t1.ZNAME COLLATE NSCollateFinderlike, t1.ZNAME COLLATE NSCollateLocaleSensitive, "
                + "t0.ZNAME COLLATE NSCollateLocaleSensitiveNoCase, t0.ZBORN LIMIT 10 OFFSET 20")
        #expect(try Self.sql(fixture, "Tag", offset: 5) == "SELECT t0.Z_ENT, t0.Z_PK FROM ZTAG t0 LIMIT -1 OFFSET 5")
    }

    @Test func countsAndDictionarySelectionsReadOnlyWhatTheyNeed() throws {
        let fixture = try FetchSQLFixture()
        #expect(try Self.sql(fixture, "Item", "count > 1", selection: .count) == "SELECT COUNT(*) FROM ZITEM t0 WHERE t0.ZCOUNT > ?")
        #expect(
            try Self.sql(fixture, "Item", "count > 1", limit: 3, selection: .count)
                == "SELECT COUNT(*) FROM (SELECT 1 FROM ZITEM t0 WHERE t0.ZCOUNT > ? LIMIT 3)")
        #expect(
            try Self.sql(fixture, "Item", selection: .properties(["name", "owner.location"]))
                == "SELECT t0.ZNAME, t1.ZLATITUDE, t1.ZLONGITUDE FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK")
    }

    @Test func relationshipsAreReadThroughInverseKeysAndJoinTablesFromEitherSide() throws {
        let fixture = try FetchSQLFixture()
        let item = fixture.objects(of: "Special", includingSubentities: false)[0]
        #expect(
            try Self.sql(fixture, "Part", "item == %@", [item])
                == "SELECT t0.Z_ENT, t0.Z_PK FROM ZPART t0 WHERE t0.Z1_ITEM = ? AND t0.ZITEM = ?")
        #expect(
            try Self.sql(fixture, "Person", "ANY items.name == 'x'")
                == "SELECT t0.Z_ENT, t0.Z_PK FROM ZPERSON t0 WHERE EXISTS (SELECT 1 FROM ZITEM t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.ZNAME = ?)"
        )
        #expect(
            try Self.sql(fixture, "Tag", "items.@count > 1")
                == "SELECT t0.Z_ENT, t0.Z_PK FROM ZTAG t0 WHERE (SELECT COUNT(*) FROM Z_1TAGS t1 JOIN ZITEM t2 ON t2.Z_PK = t1.Z_1ITEMS WHERE t1.Z_5TAGS = t0.Z_PK) > ?"
        )
        // An object of another entity than the relationship's destination is no row of it.
        let tag = fixture.objects(of: "Tag", includingSubentities: false)[0]
        #expect(try Self.sql(fixture, "Item", "owner == %@", [tag]) == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE 0")
    }

    @Test func longListsOfObjectsAreWrittenAsLiteralKeysSoNoParameterLimitApplies() throws {
        let fixture = try FetchSQLFixture()
        let people = fixture.objects(of: "Person", includingSubentities: false)
        // References to rows that do not exist, plus two real people.
        let many: [Any] =
            (1000..<3_000).map {
                StoredObject(row: StoreRow(entityNumber: people[0].row.entityNumber, primaryKey: Int64($0)), entityName: "Person")
            } + [people[1], people[4]]
        let statement = try FetchSQLTranslator.translate(
            .init(
                entity: fixture.entity("Person"), predicate: NSPredicate(format: "SELF IN %@", argumentArray: [many]), selection: .objectIDs
            ),
            layout: fixture.layout)
        #expect(statement.bindings.isEmpty)
        let found = try fixture.primaryKeys(statement).sorted()
        #expect(found == [people[1].row.primaryKey, people[4].row.primaryKey])
    }

    static func error(_ fixture: FetchSQLFixture, _ predicate: NSPredicate?, sort: [NSSortDescriptor] = []) -> FetchSQLError? {
        do {
            _ = try FetchSQLTranslator.translate(
                .init(entity: fixture.entity("Item"), predicate: predicate, sortDescriptors: sort), layout: fixture.layout)
            return nil
        } catch {
            return error
        }
    }

    @Test func untranslatablePredicatesAreErrorsNamingThePart() throws {
        let fixture = try FetchSQLFixture()
        let unknown = Self.error(fixture, NSPredicate(format: "nothing == 1"))
        #expect(unknown?.reason == .unknownKeyPath)
        #expect(unknown?.message == "keypath nothing not found in entity Item")
        #expect(
            Self.error(fixture, NSPredicate(format: "owner.nothing == 1"))?.message == "keypath owner.nothing not found in entity Person")
        let transient = Self.error(fixture, NSPredicate(format: "note == 'x'"))
        #expect(transient?.reason == .transientProperty)
        #expect(transient?.message.contains("note") == true)
        #expect(Self.error(fixture, NSPredicate { _, _ in true })?.message.contains("block predicate") == true)
        #expect(Self.error(fixture, NSPredicate(format: "tags.label == 'x'"))?.message.contains("ANY, ALL, NONE") == true)
        #expect(Self.error(fixture, NSPredicate(format: "name == $v"))?.message.contains("$v") == true)
        let function = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "uppercase:", arguments: [NSExpression(forKeyPath: "name")]),
            rightExpression: NSExpression(forConstantValue: "A"), modifier: .direct, type: .equalTo)
        #expect(Self.error(fixture, function)?.message.contains("uppercase:") == true)
        let comparator = NSSortDescriptor(key: "name", ascending: true) { _, _ in .orderedSame }
        #expect(Self.error(fixture, nil, sort: [comparator])?.message.contains("comparator") == true)
        #expect(Self.error(fixture, nil, sort: [NSSortDescriptor(key: "tags", ascending: true)]) != nil)
        let error = try #require(unknown).nsError
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 134060)
    }

    @Test func anEqualityOnAnIndexedAttributeUsesTheIndex() throws {
        let fixture = try FetchSQLFixture()
        let index = try #require(fixture.layout.indexes.first { $0.elements.map(\.column) == ["ZSERIAL"] })
        let statement = try FetchSQLTranslator.translate(
            .init(entity: fixture.entity("Item"), predicate: NSPredicate(format: "serial == 1010"), selection: .objectIDs),
            layout: fixture.layout)
        let plan = try fixture.connection.rows("EXPLAIN QUERY PLAN " + statement.sql, statement.bindings).compactMap { $0.last?.textValue }
        #expect(
            plan.contains {
                $0.contains("USING INDEX \(index.name) (ZSERIAL=?)") || $0.contains("USING COVERING INDEX \(index.name) (ZSERIAL=?)")
            }, "\(plan)")
        #expect(try fixture.primaryKeys(statement).count == 1)
    }
}
#endif

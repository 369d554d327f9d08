#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// Hand-written fetches whose SQL text and bindings are pinned: what each construct translates
/// to, readable as a table.
struct FetchSQLGoldenTests {
    struct Case {
        let format: String
        let arguments: [Any]
        let sql: String
        let bindings: [SQLiteValue]
        init(_ format: String, _ arguments: [Any], _ sql: String, _ bindings: [SQLiteValue]) {
            self.format = format
            self.arguments = arguments
            self.sql = sql
            self.bindings = bindings
        }
    }

    static func predicateCases(_ fixture: FetchSQLFixture) -> [Case] {
        let items = fixture.objects(of: "Item", includingSubentities: true)
        let person = fixture.objects(of: "Person", includingSubentities: false)[2]
        let tag = fixture.objects(of: "Tag", includingSubentities: false)[1]
        return [
            Case("name == 'a'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = ?", [.text("a")]),
            Case("name != 'a'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME IS NOT ?", [.text("a")]),
            Case("name == nil", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME IS NULL", []),
            Case("name != nil", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME IS NOT NULL", []),
            Case("count < 5", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCOUNT < ?", [.integer(5)]),
            Case("5 < count", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCOUNT > ?", [.integer(5)]),
            Case(
                "count BETWEEN {1, 5}", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCOUNT BETWEEN ? AND ?",
                [.integer(1), .integer(5)]),
            Case(
                "count IN {1, 2, 3}", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCOUNT IN (?, ?, ?)",
                [.integer(1), .integer(2), .integer(3)]),
            Case("name IN {'a', nil}", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = ? OR t0.ZNAME IS NULL", [.text("a")]),
            Case(
                "name IN[c] {'a', 'b'}", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringCompare(t0.ZNAME, ?, 4, 1, 0) OR NSCoreDataStringCompare(t0.ZNAME, ?, 4, 1, 0)",
                [.text("a"), .text("b")]),
            Case(
                "name BEGINSWITH[cd] 'a'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 137, 0)",
                [.text("a")]),
            Case(
                "name ENDSWITH 'a'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 12, 0)",
                [.text("a")]),
            Case(
                "name CONTAINS[c] 'a'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 1, 0)",
                [.text("a")]),
            Case("name LIKE[c] 'a*'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataLike(t0.ZNAME, ?, 1)", [.text("a*")]),
            Case(
                "name MATCHES 'a.*'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataMatches(t0.ZNAME, ?, 0)", [.text("a.*")]),
            Case(
                "'ph' IN name", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 0, 0)", [.text("ph")]),
            Case(
                "name ==[c] 'x'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringCompare(t0.ZNAME, ?, 4, 1, 0)",
                [.text("x")]),
            Case(
                "name !=[c] 'x'", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE IFNULL(NSCoreDataStringCompare(t0.ZNAME, ?, 5, 1, 0), 1)", [.text("x")]),
            Case(
                "name <[d] 'x'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NSCoreDataStringCompare(t0.ZNAME, ?, 0, 128, 0)",
                [.text("x")]),
            Case(
                "born > %@", [FetchSQLFixture.dates[0]], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZBORN > ?", [.real(700000000.0)]),
            Case(
                "ident == %@", [FetchSQLFixture.uuids[1]], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZIDENT = ?",
                [.blob([0, 0, 0, 1, 17, 17, 34, 34, 51, 51, 68, 68, 85, 85, 102, 97])]),
            Case("flag == YES", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZFLAG = ?", [.integer(1)]),
            Case("price < %@", [Decimal(string: "2.5")!], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZPRICE < ?", [.real(2.5)]),
            Case(
                "link == %@", [FetchSQLFixture.links[0]], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZLINK = ?",
                [.text("https://example.com/a")]),
            Case("count == 'x'", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE 0", []),
            Case(
                "owner.name == 'x'", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK WHERE t1.ZNAME = ?", [.text("x")]),
            Case(
                "owner.location.latitude > 1 AND owner.name != nil", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK WHERE t1.ZLATITUDE > ? AND t1.ZNAME IS NOT NULL",
                [.integer(1)]),
            Case(
                "ANY tags.label == 'x'", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_5TAGS WHERE t1.Z_1ITEMS = t0.Z_PK AND t2.ZLABEL = ?)",
                [.text("x")]),
            Case(
                "ALL parts.amount > 3", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NOT EXISTS (SELECT 1 FROM ZPART t1 WHERE t1.ZITEM = t0.Z_PK AND NOT IFNULL(t1.ZAMOUNT > ?, 0))",
                [.integer(3)]),
            Case(
                "NONE tags.label == 'x'", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NOT EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_5TAGS WHERE t1.Z_1ITEMS = t0.Z_PK AND t2.ZLABEL = ?)",
                [.text("x")]),
            Case(
                "tags.@count > 2", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE (SELECT COUNT(*) FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_5TAGS WHERE t1.Z_1ITEMS = t0.Z_PK) > ?",
                [.integer(2)]),
            Case(
                "parts.@sum.amount > 10", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE IFNULL((SELECT SUM(t1.ZAMOUNT) FROM ZPART t1 WHERE t1.ZITEM = t0.Z_PK), 0) > ?",
                [.integer(10)]),
            Case(
                "parts.@avg.amount < 3", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE (SELECT AVG(t1.ZAMOUNT) FROM ZPART t1 WHERE t1.ZITEM = t0.Z_PK) < ?",
                [.integer(3)]),
            Case(
                "SUBQUERY(parts, $p, $p.amount > 3 AND $p.item.name == name).@count > 0", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE (SELECT COUNT(*) FROM ZPART t1 LEFT OUTER JOIN ZITEM t2 ON t1.ZITEM = t2.Z_PK WHERE t1.ZITEM = t0.Z_PK AND (t1.ZAMOUNT > ? AND t2.ZNAME IS t0.ZNAME)) > ?",
                [.integer(3), .integer(0)]),
            Case(
                "SELF == %@", [items[3]], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = ? AND t0.Z_PK = ?",
                [.integer(1), .integer(4)]),
            Case("owner == %@", [person], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZOWNER = ?", [.integer(3)]),
            Case("owner == nil", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZOWNER IS NULL", []),
            Case(
                "owner IN %@", [[person, NSNull()]], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.ZOWNER = ? OR t0.ZOWNER IS NULL",
                [.integer(3)]),
            Case(
                "%@ IN tags", [tag],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE EXISTS (SELECT 1 FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_5TAGS WHERE t1.Z_1ITEMS = t0.Z_PK AND t2.Z_PK = ?)",
                [.integer(2)]),
            Case(
                "SELF IN %@", [[items[0], items[1], items[2], items[5]]],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE (t0.Z_ENT = ? AND t0.Z_PK IN (?, ?)) OR (t0.Z_ENT = ? AND t0.Z_PK IN (?, ?))",
                [.integer(1), .integer(1), .integer(2), .integer(2), .integer(3), .integer(6)]),
            Case("TRUEPREDICATE", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0", []),
            Case("FALSEPREDICATE", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE 0", []),
            Case("NOT (count > 5)", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NOT IFNULL(t0.ZCOUNT > ?, 0)", [.integer(5)]),
            Case(
                "(count > 1 OR score < 2) AND name == 'a'", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE (t0.ZCOUNT > ? OR t0.ZSCORE < ?) AND t0.ZNAME = ?",
                [.integer(1), .integer(2), .text("a")]),
            Case(
                "NOT tags.@count == 2", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NOT ((SELECT COUNT(*) FROM Z_1TAGS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_5TAGS WHERE t1.Z_1ITEMS = t0.Z_PK) = ?)",
                [.integer(2)]),
            Case("NOT name == nil", [], "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE NOT (t0.ZNAME IS NULL)", []),
            Case(
                "count < owner.age", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK WHERE t0.ZCOUNT < t1.ZAGE", []),
            Case(
                "name ==[c] owner.name", [],
                "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 LEFT OUTER JOIN ZPERSON t1 ON t0.ZOWNER = t1.Z_PK WHERE IFNULL(NSCoreDataStringCompare(t0.ZNAME, t1.ZNAME, 4, 1, 0), t0.ZNAME IS t1.ZNAME)",
                []),
        ]
    }

    @Test func predicatesTranslateToThePinnedSQLAndBindings() throws {
        let fixture = try FetchSQLFixture()
        for golden in Self.predicateCases(fixture) {
            let predicate = NSPredicate(format: golden.format, argumentArray: golden.arguments)
            let statement = try FetchSQLTranslator.translate(
                .init(entity: fixture.entity("Item"), predicate: predicate, selection: .objectIDs), layout: fixture.layout)
            #expect(statement.sql == golden.sql, "\(golden.format)")
            #expect(statement.bindings == golden.bindings, "\(golden.format)")
            // Every pinned statement runs on a real store.
            _ = try fixture.connection.rows(statement.sql, statement.bindings)
        }
    }
}
#endif

import Foundation
import ModelStore
import Testing

/// Core Data's SQL functions and collations are registered on every connection and compute what
/// the predicates and sort descriptors they stand for mean.
struct SQLFunctionTests {
    static func value(_ sql: String) throws -> SQLiteValue {
        try StoreConnection().rows("SELECT " + sql).first?.first ?? .null
    }

    @Test func likeMatchesWholeStringsWithWildcardsAndOptions() throws {
        #expect(try Self.value("NSCoreDataLike('Hello', 'H*o', 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataLike('Hello', 'h*o', 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataLike('Hello', 'h*o', 1)") == .integer(1))
        #expect(try Self.value("NSCoreDataLike('Hello', 'H?llo', 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataLike('Hello', 'H?lo', 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataLike('Héllo', 'Hello', 2)") == .integer(1))
        #expect(try Self.value("NSCoreDataLike('Héllo', 'Hello', 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataLike('a*b', 'a\\*b', 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataLike('axb', 'a\\*b', 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataLike(NULL, '*', 0)") == .integer(0))
        // `?` is one character (a grapheme), not one byte or scalar, outside ASCII.
        #expect(CoreDataStringSemantics.like("cafe\u{301}", pattern: "caf?", flags: []))
        #expect(CoreDataStringSemantics.like("CAFÉ au lait", pattern: "café*", flags: [.caseInsensitive]))
        // A trailing lone backslash stands for itself.
        #expect(CoreDataStringSemantics.like("ab\\", pattern: "ab\\", flags: []))
        #expect(CoreDataStringSemantics.like("abc", pattern: "ab\\", flags: []) == false)
        #expect(CoreDataStringSemantics.like("ab\\", pattern: "ab\\\\", flags: []))
        #expect(
            CoreDataStringSemantics.like(String(repeating: "a", count: 2000), pattern: String(repeating: "*a", count: 40) + "b", flags: [])
                == false)
    }

    @Test func matchesUsesWholeStringRegularExpressions() throws {
        #expect(try Self.value("NSCoreDataMatches('abc123', '[a-z]+[0-9]+', 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataMatches('abc123x', '[a-z]+[0-9]+', 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataMatches('ABC', '[a-z]+', 1)") == .integer(1))
        #expect(try Self.value("NSCoreDataMatches('ab', 'a|ab', 0)") == .integer(1))
        let connection = try StoreConnection()
        #expect(throws: StoreSQLiteError.self) { try connection.rows("SELECT NSCoreDataMatches('a', '(', 0)") }
        // The compiled pattern is reused across rows of one statement.
        try connection.execute("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('a1'), ('b'), ('c22')")
        #expect(
            try connection.rows("SELECT v FROM t WHERE NSCoreDataMatches(v, '[a-z][0-9]+', 0) ORDER BY v") == [
                [.text("a1")], [.text("c22")],
            ])
    }

    /// Option bits as Core Data writes them: 1 case-insensitive, 0x80 diacritic-insensitive,
    /// 0x100 width-insensitive, 8 anchored (BEGINSWITH), 12 anchored + backwards (ENDSWITH).
    @Test func stringSearchImplementsContainsBeginsWithAndEndsWith() throws {
        #expect(try Self.value("NSCoreDataStringSearch('Crème brûlée', 'BRULEE', 385, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringSearch('Crème brûlée', 'brulee', 0, 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataStringSearch('Maui beach', 'maui', 417, 1)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringSearch('Maui beach', 'Maui', 8, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringSearch('Maui beach', 'beach', 8, 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataStringSearch('Maui beach', 'beach', 12, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringSearch(NULL, 'x', 0, 0)") == .integer(0))
    }

    @Test func stringCompareAppliesTheOperatorWithCompareOptions() throws {
        #expect(try Self.value("NSCoreDataStringCompare('abc', 'ABD', 0, 1, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringCompare('abc', 'ABC', 4, 1, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringCompare('abc', 'ABC', 4, 0, 0)") == .integer(0))
        #expect(try Self.value("NSCoreDataStringCompare('abc', 'ABC', 5, 0, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringCompare('b', 'a', 3, 0, 0)") == .integer(1))
        #expect(try Self.value("NSCoreDataStringCompare(NULL, 'a', 3, 0, 0)") == .null)
    }

    @Test func caseFunctionsAndCanonicalForm() throws {
        #expect(try Self.value("NSCoreDataToUpper('straße')") == .text("STRASSE"))
        #expect(try Self.value("NSCoreDataToLower('ÀB')") == .text("àb"))
        #expect(try Self.value("NSCoreDataCanonical('Crème BRÛLÉE')") == .text("creme brulee"))
        #expect(try Self.value("NSCoreDataToUpper(NULL)") == .null)
    }

    @Test func nowIsSecondsSinceTheReferenceDate() throws {
        guard case .real(let now) = try Self.value("NSCoreDataNow()") else {
            Issue.record("NSCoreDataNow did not return a real")
            return
        }
        #expect(abs(now - Date().timeIntervalSinceReferenceDate) < 60)
    }

    /// A derived attribute's trigger (as Core Data writes them for `now()`) runs, and the
    /// connection learns which object's value changed.
    @Test func derivedAttributeTriggersReportChangedObjects() throws {
        let connection = try StoreConnection()
        try connection.execute(
            """
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUPDATED TIMESTAMP);
            CREATE TRIGGER Z_DA_ZITEM_Item_updated_UPDATE AFTER UPDATE OF Z_OPT ON ZITEM FOR EACH ROW BEGIN
              UPDATE ZITEM SET ZUPDATED = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK;
              SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZITEM', Z_ENT, Z_PK, 'updated', ZUPDATED) FROM ZITEM WHERE Z_PK = NEW.Z_PK;
            END;
            INSERT INTO ZITEM VALUES (7, 3, 1, NULL);
            UPDATE ZITEM SET Z_OPT = 2 WHERE Z_PK = 7;
            """)
        let changes = connection.takeDerivedValueChanges()
        #expect(changes.count == 1)
        #expect(changes.first?.tableName == "ZITEM")
        #expect(changes.first?.entityNumber == 3)
        #expect(changes.first?.primaryKey == 7)
        #expect(changes.first?.propertyName == "updated")
        #expect(connection.derivedValueChanges.isEmpty)
    }

    @Test func mergeableStringsAreRefusedExceptNull() throws {
        #expect(try Self.value("NSCoreDataDATriggerMergeableString('ZNOTE', 1, 1, 'title', NULL)") == .null)
        #expect(throws: StoreSQLiteError.self) { try Self.value("NSCoreDataDATriggerMergeableString('ZNOTE', 1, 1, 'title', 'x')") }
    }

    static func sorted(_ values: [String], _ collation: String) throws -> [String] {
        let connection = try StoreConnection()
        try connection.execute("CREATE TABLE t (v TEXT)")
        for value in values { _ = try connection.rows("INSERT INTO t VALUES (?)", [.text(value)]) }
        return try connection.rows("SELECT v FROM t ORDER BY v COLLATE \(collation), v").map { $0[0].textValue ?? "" }
    }

    @Test func collationsOrderLikeTheirFoundationComparisons() throws {
        #expect(try Self.sorted(["b", "A", "a", "C"], "NSCollateNoCase") == ["A", "a", "b", "C"])
        #expect(try Self.sorted(["file10", "File2", "file1"], "NSCollateNumericallyNoCase") == ["file1", "File2", "file10"])
        #expect(try Self.sorted(["file10", "File2", "file1"], "NSCollateFinderlike") == ["file1", "File2", "file10"])
        #expect(try Self.sorted(["f", "é", "e"], "NSCollateLocaleSensitive") == ["e", "é", "f"])
        #expect(try Self.sorted(["f", "É", "e"], "NSCollateLocaleSensitiveNoCase") == ["e", "É", "f"])
        #expect(try Self.sorted(["f", "é", "e"], "BINARY") == ["e", "f", "é"])
        let connection = try StoreConnection()
        #expect(try connection.rows("SELECT 'ABC' = 'abc' COLLATE NSCollateNoCase") == [[.integer(1)]])
    }

    @Test func historyTriggerFunctionsAreRegisteredSoATriggerCallingThemRuns() throws {
        let connection = try StoreConnection()
        // Without a model the mask is NULL; the union ORs blob masks and skips other values.
        #expect(try connection.rows("SELECT NSPersistentHistoryBatchDeleteUpdateTrigger(3, 'name')").first?.first == .null)
        #expect(
            try connection.rows("SELECT NSPersistentHistoryBatchDeleteUpdateTriggerDataBlobOperator(x'8001', x'20', NULL)").first?.first
                == .blob([0xA0, 0x01]))
        #expect(try connection.rows("SELECT NSPersistentHistoryBatchDeleteUpdateTriggerDataBlobOperator(NULL)").first?.first == .null)
        connection.setHistoryColumnMask { entity, names in entity == 3 ? [names.contains("owner") ? 0x40 : 0] : nil }
        #expect(try connection.rows("SELECT NSPersistentHistoryBatchDeleteUpdateTrigger(3, 'owner')").first?.first == .blob([0x40]))
        #expect(try connection.rows("SELECT NSPersistentHistoryBatchDeleteUpdateTrigger(9, 'owner')").first?.first == .null)
        // A temporary trigger of the shape Core Data installs for a batch delete: the write runs.
        try connection.execute(
            """
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZOWNER INTEGER);
            CREATE TEMP TABLE ZCHANGES (ZENTITYPK INTEGER, ZENTITY INTEGER, ZCOLUMNS BLOB, UNIQUE (ZENTITYPK, ZENTITY));
            CREATE TEMPORARY TRIGGER ZQ_ZITEM_TRIGGER AFTER DELETE ON ZITEM FOR EACH ROW BEGIN
              INSERT INTO ZCHANGES (ZENTITYPK, ZENTITY, ZCOLUMNS) SELECT OLD.ZOWNER, 3, NSPersistentHistoryBatchDeleteUpdateTrigger(3, 'owner')
                ON CONFLICT (ZENTITYPK, ZENTITY) DO UPDATE SET ZCOLUMNS = NSPersistentHistoryBatchDeleteUpdateTriggerDataBlobOperator(ZCOLUMNS, excluded.ZCOLUMNS);
            END;
            INSERT INTO ZITEM VALUES (1, 3, 7), (2, 3, 7);
            DELETE FROM ZITEM;
            """)
        #expect(try connection.rows("SELECT ZENTITYPK, ZCOLUMNS FROM ZCHANGES") == [[.integer(7), .blob([0x40])]])
    }
}

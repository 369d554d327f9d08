#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

/// Saves into a store with `NSPersistentHistoryTrackingKey` write Core Data's history rows.
struct HistoryRecordingTests {
    @Test func trackedStoreGetsCoreDataHistoryTablesAndEntityNumbers() throws {
        let folder = EngineTestModel.Folder()
        _ = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store)
        let tables = try HistoryTestSupport.rows(folder.store, "SELECT sql FROM sqlite_master WHERE name = 'ACHANGE'")
        #expect(
            tables.first?.first?.textValue
                == "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, "
                + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB)")
        let columns = try HistoryTestSupport.rows(folder.store, "SELECT name, type FROM pragma_table_info('ATRANSACTION')")
        #expect(
            columns.map { "\($0[0].textValue!) \($0[1].textValue!)" } == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZAUTHORTS INTEGER", "ZBUNDLEIDTS INTEGER", "ZCONTEXTNAMETS INTEGER",
                "ZPROCESSIDTS INTEGER", "ZTIMESTAMP FLOAT", "ZAUTHOR VARCHAR", "ZBUNDLEID VARCHAR", "ZCONTEXTNAME VARCHAR",
                "ZPROCESSID VARCHAR", "ZQUERYGEN BLOB",
            ])
        let entities = try HistoryTestSupport.rows(folder.store, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(entities.map { $0[0].integerValue } == [16001, 16002, 16003])
    }

    @Test func untrackedStoreHasNoHistoryTables() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store, options: [:])
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "A"])
            try context.save()
        }
        #expect(try HistoryTestSupport.rows(folder.store, "SELECT name FROM sqlite_master WHERE name LIKE 'A%'").isEmpty)
    }

    @Test func eachSaveRecordsATransactionWithInternedStringsAndOneChangePerObject() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store, name: "editor")
        let code = UUID()
        try context.performAndWait {
            context.transactionAuthor = "app"
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Alps", "code": code])
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "Chur"])
            stop.setValue(trip, forKey: "trip")
            try context.save()
            trip.setValue(9.5, forKey: "distance")
            trip.setValue("windy", forKey: "note")
            try context.save()
            context.delete(trip)
            try context.save()
        }
        let transactions = try HistoryTestSupport.rows(
            folder.store,
            "SELECT Z_PK, Z_ENT, ZAUTHOR, ZCONTEXTNAME, ZAUTHORTS, ZCONTEXTNAMETS, ZPROCESSID, ZBUNDLEID FROM ATRANSACTION ORDER BY Z_PK")
        #expect(transactions.map { $0[0].integerValue } == [1, 2, 3])
        #expect(transactions.allSatisfy { $0[1].integerValue == 16002 && $0[2].textValue == "app" && $0[3].textValue == "editor" })
        #expect(transactions[0][6].textValue == String(ProcessInfo.processInfo.processIdentifier))
        // Strings are stored once and shared by the transactions.
        let strings = try HistoryTestSupport.rows(folder.store, "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK")
        #expect(strings.count == 4)
        let authorKey = try #require(transactions[0][4].integerValue)
        #expect(strings.first { $0[0].integerValue == authorKey }?[1].textValue == "app")
        #expect(Set(transactions.map { $0[4].integerValue }).count == 1)

        let changes = try HistoryTestSupport.rows(
            folder.store,
            "SELECT ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE ORDER BY Z_PK")
        let tripNumber = try #require(
            HistoryTestSupport.rows(folder.store, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Trip'").first?[0].integerValue)
        // Save 1: two inserts; save 2: one update; save 3: the trip and, by cascade, its stop deleted.
        #expect(changes.filter { $0[0].integerValue == 1 }.map { $0[1].integerValue } == [0, 0])
        let update = try #require(changes.first { $0[0].integerValue == 2 })
        #expect(update[1].integerValue == 1 && update[2].integerValue == tripNumber)
        // Trip's non-transient properties by name: code, distance, done, legs, name, note, photo,
        // price, start, stops, tags, travellers; distance (1) and note (5) changed.
        #expect(update[4] == .blob([0b0100_0100, 0b0000_0000]))
        let deletes = changes.filter { $0[0].integerValue == 3 }
        #expect(deletes.allSatisfy { $0[1].integerValue == 2 && $0[4] == .null })
        let tripDelete = try #require(deletes.first { $0[2].integerValue == tripNumber })
        #expect(tripDelete[5] == .blob(Array(withUnsafeBytes(of: code.uuid) { Array($0) })))
        #expect(tripDelete[6] == .text("Alps"))
        let maxima = try HistoryTestSupport.rows(folder.store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001")
        #expect(maxima.first?[0].integerValue == Int64(changes.count))
    }

    @Test func aFailedSaveRecordsNoHistory() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try HistoryTestSupport.stack(model: HistoryTestSupport.model(), url: folder.store)
        try context.performAndWait {
            _ = EngineTestModel.insert("Tag", into: context, ["name": "x"])
            try context.save()
            context.mergePolicy = NSMergePolicy.error
            _ = EngineTestModel.insert("Tag", into: context, ["name": "x"])
            #expect(throws: (any Error).self) { try context.save() }
        }
        #expect(try HistoryTestSupport.rows(folder.store, "SELECT COUNT(*) FROM ATRANSACTION").first?[0].integerValue == 1)
    }
}
#endif

#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// An existing store is read through its own schema, as Core Data reads it: columns by name
/// whatever their order (stores migrated in place have later columns at the end), the join table
/// of an entity's relationship with itself under either side's name, join columns with another
/// numeric suffix, entity numbers from `Z_PRIMARYKEY`. Each case changes a copy of a store Apple
/// wrote the way real stores differ, then reads, saves and reads again. A store that lacks what
/// the model needs is refused with 134020 naming it, and left as it was.
struct ExistingStoreLayoutTests {
    static let bookmarksV4 = FixtureStoreTests.Case(
        model: "duckduckgo-bsk/BookmarksModel.xcdatamodeld", store: "duckduckgo-bsk/stores/Bookmarks_V4.sqlite")
    static let syncMetadata = FixtureStoreTests.Case(
        model: "duckduckgo-bsk/SyncMetadata.xcdatamodeld", store: "duckduckgo-bsk/stores/SyncMetadata_V3.sqlite")

    /// SyncMetadata's two entities numbered the other way round, rows included.
    static let swappedEntityNumbers = [
        "UPDATE Z_PRIMARYKEY SET Z_ENT = Z_ENT + 10 WHERE Z_ENT IN (1, 2)",
        "UPDATE Z_PRIMARYKEY SET Z_ENT = 13 - Z_ENT WHERE Z_ENT IN (11, 12)",
        "UPDATE ZSYNCABLESETTINGSMETADATA SET Z_ENT = 2", "UPDATE ZSYNCFEATUREENTITY SET Z_ENT = 1",
    ]

    /// Runs `statements` on the copy, in one transaction.
    static func alter(_ opened: AppleStoreRoundTripTests.Opened, _ statements: [String]) throws {
        let connection = try StoreConnection(path: opened.url.path, mode: .readWrite)
        try connection.transaction(.exclusive) { for statement in statements { try connection.execute(statement) } }
    }

    /// Reads every object, saves the generic changes, and reads them back equal.
    static func expectReadAndSaved(_ opened: AppleStoreRoundTripTests.Opened) throws {
        var expected: [String: [String: String]] = [:]
        do {
            let (coordinator, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
            try context.performAndWait { () throws in
                #expect(!(try AppleStoreRoundTripTests.snapshot(context, opened.model)).isEmpty)
                _ = try StoreChanges.apply(to: context, model: opened.model)
                try context.save()
                expected = try AppleStoreRoundTripTests.snapshot(context, opened.model)
            }
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        #expect(try context.performAndWait { try AppleStoreRoundTripTests.snapshot(context, opened.model) } == expected)
    }

    @Test func columnsInAnotherOrderAreReadAndWrittenByName() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.bookmarksV4)
        // As `ALTER TABLE … ADD COLUMN` leaves a migrated table: some columns at the end.
        try Self.alter(
            opened,
            [
                "CREATE TABLE ZNEW ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUUID VARCHAR, ZTITLE VARCHAR, ZPARENT INTEGER, ZISFOLDER INTEGER, ZURL VARCHAR, Z_FOK_PARENT INTEGER, ZMODIFIEDAT TIMESTAMP, ZISPENDINGDELETION INTEGER )",
                "INSERT INTO ZNEW (Z_PK, Z_ENT, Z_OPT, ZUUID, ZTITLE, ZPARENT, ZISFOLDER, ZURL, Z_FOK_PARENT, ZMODIFIEDAT, ZISPENDINGDELETION) SELECT Z_PK, Z_ENT, Z_OPT, ZUUID, ZTITLE, ZPARENT, ZISFOLDER, ZURL, Z_FOK_PARENT, ZMODIFIEDAT, ZISPENDINGDELETION FROM ZBOOKMARKENTITY",
                "DROP TABLE ZBOOKMARKENTITY", "ALTER TABLE ZNEW RENAME TO ZBOOKMARKENTITY",
            ])
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        try context.performAndWait { () throws in
            let root = try BookmarksStoreTests.folder("bookmarks_root", in: context)
            #expect(root.value(forKey: "isFolder") as? Bool == true)
            let children = try BookmarksStoreTests.fileChildren(opened.url, folder: AppleStoreRoundTripTests.primaryKey(of: root))
            #expect(children.count == 5)
            #expect(BookmarksStoreTests.keys(root.value(forKey: "children")) == children)
        }
        try Self.expectReadAndSaved(opened)
    }

    /// Which side names such a table is not explained (it flips between versions of one app):
    /// the same columns with the same meaning under the other side's name.
    @Test func aSelfReferencingJoinTableNamedByTheOtherSideIsUsedWhereItIs() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.bookmarksV4)
        try Self.alter(opened, ["ALTER TABLE Z_1FAVORITES RENAME TO Z_1FAVORITEFOLDERS"])
        let (coordinator, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        var expected: [Int64] = []
        try context.performAndWait { () throws in
            let folder = try BookmarksStoreTests.folder("favorites_root", in: context)
            #expect(BookmarksStoreTests.keys(folder.value(forKey: "favorites")) == [8, 1, 10, 7, 9])
            let first = try #require((folder.value(forKey: "favorites") as? NSOrderedSet)?.firstObject as? NSManagedObject)
            #expect((first.value(forKey: "favoriteFolders") as? NSSet)?.contains(folder) == true)
            folder.mutableOrderedSetValue(forKey: "favorites").removeObject(at: 0)
            folder.mutableOrderedSetValue(forKey: "favorites").add(first)
            try context.save()
            expected = BookmarksStoreTests.keys(folder.value(forKey: "favorites"))
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        #expect(expected == [1, 10, 7, 9, 8])
        let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
        let rows = try raw.rows("SELECT Z_1FAVORITES FROM Z_1FAVORITEFOLDERS WHERE Z_1FAVORITEFOLDERS = 3 ORDER BY Z_FOK_1FAVORITES")
        #expect(rows.map { $0[0].integerValue ?? 0 } == expected)
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE name = 'Z_1FAVORITES'").isEmpty)
        try Self.expectReadAndSaved(opened)
    }

    @Test func joinColumnsWithAnotherSuffixAreUsed() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.bookmarksV4)
        try Self.alter(
            opened,
            [
                "ALTER TABLE Z_1FAVORITES RENAME COLUMN Z_1FAVORITEFOLDERS TO Z_1FAVORITEFOLDERS2",
                "ALTER TABLE Z_1FAVORITES RENAME COLUMN Z_1FAVORITES TO Z_1FAVORITES1",
                "ALTER TABLE Z_1FAVORITES RENAME COLUMN Z_FOK_1FAVORITES TO Z_FOK_1FAVORITES1",
            ])
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        try context.performAndWait { () throws in
            let folder = try BookmarksStoreTests.folder("favorites_root", in: context)
            #expect(BookmarksStoreTests.keys(folder.value(forKey: "favorites")) == [8, 1, 10, 7, 9])
        }
        try Self.expectReadAndSaved(opened)
    }

    /// Entities numbered otherwise than a new store numbers them (here swapped): rows are read
    /// by the store's numbers and inserted rows get them.
    @Test func entityNumbersComeFromTheStoresPrimaryKeyTable() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.syncMetadata)
        try Self.alter(
            opened,
            Self.swappedEntityNumbers)
        let before = try StoreConnection(path: opened.url.path, mode: .readOnly).rows("SELECT COUNT(*) FROM ZSYNCFEATUREENTITY")
        let (coordinator, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        try context.performAndWait { () throws in
            let features = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "SyncFeatureEntity"))
            #expect(features.count == Int(before.first?.first?.integerValue ?? -1))
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "SyncableSettingsMetadata")) > 0)
            let feature = NSEntityDescription.insertNewObject(forEntityName: "SyncFeatureEntity", into: context)
            feature.setValue("inserted", forKey: "name")
            let setting = NSEntityDescription.insertNewObject(forEntityName: "SyncableSettingsMetadata", into: context)
            setting.setValue("inserted", forKey: "key")
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
        #expect(try raw.rows("SELECT Z_ENT FROM ZSYNCFEATUREENTITY WHERE ZNAME = 'inserted'") == [[.integer(1)]])
        #expect(try raw.rows("SELECT Z_ENT FROM ZSYNCABLESETTINGSMETADATA WHERE ZKEY = 'inserted'") == [[.integer(2)]])
        #expect(try raw.rows("SELECT DISTINCT Z_ENT FROM ZSYNCFEATUREENTITY") == [[.integer(1)]])
        try Self.expectReadAndSaved(opened)
    }

    /// One coordinator reads all its stores with one layout: a store numbered otherwise than
    /// the coordinator's first store is refused, and a new store takes the first store's layout.
    @Test func aCoordinatorsStoresShareOneLayout() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.syncMetadata)
        let renumbered = try AppleStoreRoundTripTests.open(Self.syncMetadata)
        try Self.alter(
            renumbered,
            Self.swappedEntityNumbers)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: opened.model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: opened.url, options: nil)
        let before = try StoreFiles(renumbered.url)
        #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: renumbered.url, options: nil)
        }
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: renumbered.url, options: nil)
        } catch let error as NSError {
            #expect(error.code == NSPersistentStoreIncompatibleSchemaError)
            #expect(error.userInfo[NSFilePathErrorKey] as? String == renumbered.url.path)
        }
        #expect(try StoreFiles(renumbered.url) == before)
        // A coordinator of its own reads it; a new store added after it gets its numbers.
        let own = NSPersistentStoreCoordinator(managedObjectModel: renumbered.model)
        try own.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: renumbered.url, options: nil)
        let fresh = renumbered.folder.url.appendingPathComponent("fresh.sqlite")
        try own.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: fresh, options: nil)
        let raw = try StoreConnection(path: fresh.path, mode: .readOnly)
        #expect(
            try raw.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                [.integer(1), .text("SyncFeatureEntity")], [.integer(2), .text("SyncableSettingsMetadata")],
            ])
    }

    @Test func aStoreLackingAColumnIsRefusedNamingItAndLeftAsItWas() throws {
        let opened = try AppleStoreRoundTripTests.open(Self.bookmarksV4)
        try Self.alter(opened, ["DROP INDEX Z_BookmarkEntity_byURL", "ALTER TABLE ZBOOKMARKENTITY DROP COLUMN ZURL"])
        let before = try StoreFiles(opened.url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: opened.model)
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: opened.url, options: nil)
            Issue.record("the store was added")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreIncompatibleSchemaError)
            #expect(error.localizedDescription.contains("ZBOOKMARKENTITY lacks column ZURL"))
            #expect(error.localizedDescription.contains(opened.url.path))
        }
        #expect(try StoreFiles(opened.url) == before)
    }
}
#endif

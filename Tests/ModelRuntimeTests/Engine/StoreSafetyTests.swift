#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a store's files (`.sqlite`, `-wal`, `-shm`, `-journal`; nil where absent), and
/// every file of its folder, to compare before and after.
struct StoreFileSnapshot: Equatable, CustomStringConvertible {
    let files: [String: Data?]
    let listing: [String]

    init(_ url: URL) {
        var files: [String: Data?] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            var isFolder: ObjCBool = false
            let path = url.path + suffix
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            files[suffix] = exists && !isFolder.boolValue && Self.isRegular(path) ? FileManager.default.contents(atPath: path) : nil
        }
        self.files = files
        // The folder's other files, except for devices (`/dev` changes by itself).
        let parent = url.deletingLastPathComponent().path
        listing = parent == "/dev" ? [] : ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).sorted()
    }

    static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    var description: String {
        files.keys.sorted().map { "\($0.isEmpty ? "store" : $0): \(files[$0]!.map { "\($0.count) bytes" } ?? "absent")" }
            .joined(separator: ", ") + "; folder: \(listing)"
    }
}

/// A file that is not a Core Data store (text, a truncated store, a SQLite database of its own,
/// a folder, a FIFO, a device) is refused by `addPersistentStore`, read-write and read-only,
/// with Core Data's error naming it, and is left byte for byte with nothing beside it.
@Suite struct NonStoreFileTests {
    static let sampleStore = Fixtures.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel_V2.sqlite")

    static func load(_ url: URL, readOnly: Bool) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: readOnly ? [NSReadOnlyPersistentStoreOption: true] : nil)
    }

    /// Loads `url` read-write and read-only; each fails with `code`, names the file and changes nothing.
    static func expectRefused(_ url: URL, code: Int, sqliteCode: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = StoreFileSnapshot(url)
        for readOnly in [false, true] {
            let error = #expect(throws: NSError.self, sourceLocation: sourceLocation) { try load(url, readOnly: readOnly) }
            #expect(error?.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
            #expect(error?.code == code, "read-only: \(readOnly): \(error?.localizedDescription ?? "")", sourceLocation: sourceLocation)
            #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path, sourceLocation: sourceLocation)
            #expect(error?.localizedDescription.contains(url.path) == true, sourceLocation: sourceLocation)
            if let sqliteCode { #expect(error?.userInfo[NSSQLiteErrorDomain] as? Int == sqliteCode, sourceLocation: sourceLocation) }
            #expect(StoreFileSnapshot(url) == before, "read-only: \(readOnly)", sourceLocation: sourceLocation)
        }
    }

    @Test func aSQLiteDatabaseWithoutCoreDatasTablesIsRefusedAndKeepsItsJournalMode() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.url.appendingPathComponent("Other.sqlite")
        do {
            let database = try StoreConnection(path: url.path, mode: .create)
            try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')")
        }
        Self.expectRefused(url, code: NSPersistentStoreInvalidTypeError)
        let header = try #require(FileManager.default.contents(atPath: url.path))
        #expect(header[18] == 1 && header[19] == 1, "still a rollback-journal database, not switched to WAL")
    }

    @Test func textFilesAndFilesShorterThanSQLitesHeaderAreNotInTheCorrectFormat() throws {
        let folder = EngineTestModel.Folder()
        let text = folder.url.appendingPathComponent("Notes.sqlite")
        try Data("These are my notes, not a store.\n".utf8).write(to: text)
        Self.expectRefused(text, code: CocoaError.fileReadCorruptFile.rawValue, sqliteCode: 26)
        let short = folder.url.appendingPathComponent("Short.sqlite")
        try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 7, count: 20)).write(to: short)
        Self.expectRefused(short, code: CocoaError.fileReadCorruptFile.rawValue, sqliteCode: 26)
    }

    @Test func aTruncatedStoreIsNotInTheCorrectFormat() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.url.appendingPathComponent("Truncated.sqlite")
        let bytes = try Data(contentsOf: Self.sampleStore)
        try bytes.prefix(bytes.count / 2).write(to: url)
        Self.expectRefused(url, code: CocoaError.fileReadCorruptFile.rawValue, sqliteCode: 11)
    }

    @Test func foldersFIFOsAndDevicesAreRefusedAndNothingIsCreated() throws {
        let folder = EngineTestModel.Folder()
        let directory = folder.url.appendingPathComponent("Folder.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: directory.appendingPathComponent("kept.txt"))
        Self.expectRefused(directory, code: CocoaError.fileReadUnknown.rawValue)
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("kept.txt").path) == Data("inside".utf8))
        let fifo = folder.url.appendingPathComponent("Pipe.sqlite")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        Self.expectRefused(fifo, code: CocoaError.fileReadUnknown.rawValue)
        Self.expectRefused(URL(fileURLWithPath: "/dev/zero"), code: CocoaError.fileReadUnknown.rawValue)
        // A store below a file, where no folder can be made: refused naming the path.
        let plain = folder.url.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: plain)
        Self.expectRefused(plain.appendingPathComponent("Store.sqlite"), code: CocoaError.fileReadUnknown.rawValue)
    }

    /// A zero-length file is where a new store goes (Apple's file-based stores treat it so, and a
    /// destroyed SQLite store is one): the load creates the store in it. Read-only, there is
    /// nothing to read, and the file stays empty.
    @Test func aZeroLengthFileBecomesANewStoreAndStaysEmptyWhenReadOnly() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.store
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        let before = StoreFileSnapshot(url)
        let error = #expect(throws: NSError.self) { try Self.load(url, readOnly: true) }
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path)
        #expect(StoreFileSnapshot(url) == before)

        let (_, context) = try EngineTestModel.stack(url: url)
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "First"])
            try context.save()
        }
        let (_, reopened) = try EngineTestModel.stack(url: url)
        let names = try reopened.performAndWait {
            try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["First"])
    }
}

/// A SQLite database with no table, index, view or trigger at all — what a store creation leaves
/// when the process dies after SQLite wrote its header and before the creation committed — holds
/// nothing: read-only it is refused unchanged, read-write it becomes a new store (so the store
/// opens again after such a crash).
@Suite struct EmptyDatabaseTests {
    @Test func anEmptyDatabaseBecomesANewStoreAndStaysAsItWasWhenReadOnly() throws {
        let folder = EngineTestModel.Folder()
        let url = folder.store
        do {
            let database = try StoreConnection(path: url.path, mode: .create)
            try database.execute("PRAGMA page_size = 4096")
            try database.execute("PRAGMA journal_mode = WAL")
            try database.execute("CREATE TABLE scratch (x INTEGER)")
            try database.execute("DROP TABLE scratch")
        }
        let before = StoreFileSnapshot(url)
        #expect((before.files[""] ?? nil)?.isEmpty == false)
        let error = #expect(throws: NSError.self) { try NonStoreFileTests.load(url, readOnly: true) }
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path)
        #expect(StoreFileSnapshot(url) == before)

        let (_, context) = try EngineTestModel.stack(url: url)
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "After the crash"])
            try context.save()
        }
        let (_, reopened) = try EngineTestModel.stack(url: url)
        let names = try reopened.performAndWait {
            try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["After the crash"])
    }
}

/// Load and save errors name the store file: `NSFilePathErrorKey` and the path in the
/// description, SQLite's error kept in `NSUnderlyingErrorKey`.
@Suite struct StoreErrorNamingTests {
    @Test func aSQLiteErrorWhileLoadingNamesTheStore() throws {
        let folder = EngineTestModel.Folder()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: folder.store,
                options: [NSSQLitePragmasOption: ["nowhere.synchronous": "FULL"]])
        }
        #expect(error.code == NSSQLiteError)
        #expect(error.userInfo[NSFilePathErrorKey] as? String == folder.store.path)
        #expect(error.localizedDescription.contains(folder.store.path))
        #expect(error.localizedDescription.contains("unknown database nowhere"))
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == NSSQLiteErrorDomain)
        // The store this load created is taken away again.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func aSQLiteErrorWhileSavingNamesTheStore() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        // Another connection makes every new trip fail inside SQLite.
        do {
            let other = try StoreConnection(path: folder.store.path, mode: .readWrite)
            try other.execute("CREATE TRIGGER refuse BEFORE INSERT ON ZTRIP BEGIN SELECT RAISE(ABORT, 'no more trips'); END")
        }
        let error = try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Refused"])
            return try #require(throws: NSError.self) { try context.save() }
        }
        #expect(error.userInfo[NSFilePathErrorKey] as? String == folder.store.path)
        #expect(error.localizedDescription.contains(folder.store.path))
        #expect(error.localizedDescription.contains("no more trips"))
    }

    @Test func savingToAReadOnlyStoreNamesTheStore() throws {
        let folder = EngineTestModel.Folder()
        _ = try EngineTestModel.stack(url: folder.store)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.store, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let error = try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Refused"])
            return try #require(throws: NSError.self) { try context.save() }
        }
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(error.userInfo[NSFilePathErrorKey] as? String == folder.store.path)
        #expect(error.localizedDescription.contains(folder.store.path))
    }

    /// Read-only, a store another model wrote is refused before it is opened: no `-shm` or
    /// `-wal` appears beside it.
    @Test func aReadOnlyStoreOfAnotherModelIsRefusedWithoutNewFiles() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(NonStoreFileTests.sampleStore, into: folder.url)
        let before = StoreFileSnapshot(store)
        let error = #expect(throws: NSError.self) { try NonStoreFileTests.load(store, readOnly: true) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == store.path)
        #expect(error?.localizedDescription.contains(store.path) == true)
        #expect(StoreFileSnapshot(store) == before)
    }
}

/// `destroyPersistentStore` empties a store as Core Data does — the file stays, zero bytes long,
/// its `-wal` truncated — and refuses anything that is not a regular store file, changing nothing.
@Suite struct DestroyStoreTests {
    static func destroy(_ url: URL, with coordinator: NSPersistentStoreCoordinator? = nil) throws {
        try (coordinator ?? NSPersistentStoreCoordinator(managedObjectModel: EngineTestModel.make()))
            .destroyPersistentStore(at: url, type: .sqlite)
    }

    @Test func destroyingLeavesAnEmptyFileInPlaceThatLoadsAsANewStore() throws {
        let folder = EngineTestModel.Folder()
        let (coordinator, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait {
            for name in ["A", "B"] { _ = EngineTestModel.insert("Trip", into: context, ["name": name]) }
            try context.save()
        }
        // Another coordinator keeps the store open, so its -wal and -shm stay.
        var other: NSPersistentStoreCoordinator? = try EngineTestModel.stack(url: folder.store).0
        let wal = URL(fileURLWithPath: folder.store.path + "-wal")
        #expect(try Data(contentsOf: wal).count > 0)
        try coordinator.destroyPersistentStore(at: folder.store, ofType: NSSQLiteStoreType, options: nil)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(other?.persistentStores.count == 1)
        #expect(try Data(contentsOf: folder.store).isEmpty, "the store file stays, emptied")
        #expect(try Data(contentsOf: wal).isEmpty, "the -wal stays, emptied")
        #expect(!FileManager.default.fileExists(atPath: folder.store.path + "-journal"))
        // The other connection closes without writing the old store back.
        other = nil
        #expect(try Data(contentsOf: folder.store).isEmpty)

        let (_, fresh) = try EngineTestModel.stack(url: folder.store)
        let count = try fresh.performAndWait { try fresh.count(for: NSFetchRequest<NSManagedObject>(entityName: "Trip")) }
        #expect(count == 0)
        // What libraries do next.
        try FileManager.default.removeItem(at: folder.store)
    }

    @Test func destroyingAMissingStoreIsNoErrorAndCreatesNothing() throws {
        let folder = EngineTestModel.Folder()
        try Self.destroy(folder.store)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// Expects `destroyPersistentStore` and `replacePersistentStore` onto `url` to be refused
    /// naming a path, with every file as it was.
    static func expectRefused(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = EngineTestModel.Folder()
        let (source, _) = try EngineTestModel.stack(url: folder.store)
        let before = StoreFileSnapshot(url)
        let destroyError = #expect(throws: NSError.self, sourceLocation: sourceLocation) { try destroy(url) }
        #expect(destroyError?.userInfo[NSFilePathErrorKey] is String, sourceLocation: sourceLocation)
        #expect(destroyError?.localizedDescription.contains(url.path) == true, sourceLocation: sourceLocation)
        let replaceError = #expect(throws: NSError.self, sourceLocation: sourceLocation) {
            try source.replacePersistentStore(at: url, withPersistentStoreFrom: folder.store, type: .sqlite)
        }
        #expect(replaceError?.localizedDescription.contains(url.path) == true, sourceLocation: sourceLocation)
        #expect(StoreFileSnapshot(url) == before, sourceLocation: sourceLocation)
    }

    @Test func foldersFIFOsDevicesAndFilesThatAreNotSQLiteAreRefused() throws {
        let folder = EngineTestModel.Folder()
        let directory = folder.url.appendingPathComponent("Folder.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: directory.appendingPathComponent("kept.txt"))
        try Self.expectRefused(directory)
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent("kept.txt").path) == Data("inside".utf8))
        let fifo = folder.url.appendingPathComponent("Pipe.sqlite")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        try Self.expectRefused(fifo)
        #expect(!StoreFileSnapshot.isRegular(fifo.path) && FileManager.default.fileExists(atPath: fifo.path))
        try Self.expectRefused(URL(fileURLWithPath: "/dev/null"))
        let text = folder.url.appendingPathComponent("Notes.sqlite")
        try Data("my notes".utf8).write(to: text)
        try Self.expectRefused(text)
    }

    /// Nothing is done through a symbolic link, whatever it points at: a link in place of the
    /// store or of its `-wal` refuses the whole operation and its target keeps every byte.
    @Test func symbolicLinksAreNeverFollowed() throws {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Kept"])
            try context.save()
        }
        let target = StoreFileSnapshot(folder.store)
        let link = folder.url.appendingPathComponent("Link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.store)
        try Self.expectRefused(link)
        let other = folder.url.appendingPathComponent("Other.sqlite")
        try FileManager.default.createSymbolicLink(
            at: URL(fileURLWithPath: other.path + "-wal"), withDestinationURL: URL(fileURLWithPath: folder.store.path + "-wal"))
        try Self.expectRefused(other)
        #expect(StoreFileSnapshot(folder.store).files == target.files)
    }

    @Test func aFailedReplaceLeavesTheDestinationByteForByte() throws {
        let folder = EngineTestModel.Folder()
        let destination = folder.url.appendingPathComponent("Destination.sqlite")
        let (coordinator, context) = try EngineTestModel.stack(url: destination)
        try context.performAndWait {
            _ = EngineTestModel.insert("Trip", into: context, ["name": "Kept"])
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let notAStore = folder.url.appendingPathComponent("Notes.sqlite")
        try Data("my notes".utf8).write(to: notAStore)
        let plainDatabase = folder.url.appendingPathComponent("Plain.sqlite")
        try StoreConnection(path: plainDatabase.path, mode: .create).execute("CREATE TABLE t (x)")
        let before = StoreFileSnapshot(destination)
        for source in [notAStore, plainDatabase, folder.url, folder.url.appendingPathComponent("Missing.sqlite")] {
            #expect(throws: NSError.self) {
                try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
            }
            #expect(StoreFileSnapshot(destination) == before, "source \(source.lastPathComponent)")
        }
    }
}

/// A store that no version of the app's model wrote is never wiped: with the default options
/// (automatic, inferred migration) a migration from the model the store recorded in
/// `Z_MODELCACHE` that would delete the rows of entities the app does not have fails with
/// `NSMigrationMissingSourceModelError`, and the store keeps every byte.
@Suite struct ForeignStoreTests {
    static var migrate: [AnyHashable: Any] {
        [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
    }

    @Test func aContainerRefusesAStoreAnotherAppsModelWroteAndLeavesItByteForByte() throws {
        let folder = EngineTestModel.Folder()
        let store = try FixtureStoreTests.copy(NonStoreFileTests.sampleStore, into: folder.url)
        let before = StoreFileSnapshot(store)
        let container = NSPersistentContainer(name: "Trips", managedObjectModel: EngineTestModel.make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: store)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        let error = try #require(failure as NSError?)
        #expect(error.code == NSMigrationMissingSourceModelError)
        #expect(error.code == 134130)
        #expect(error.userInfo[NSFilePathErrorKey] as? String == store.path)
        #expect(error.localizedDescription.contains(store.path))
        #expect(error.localizedDescription.contains("Car ("), "names the entities whose rows would be lost")
        #expect(StoreFileSnapshot(store) == before)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    static func entity(_ name: String, _ attributes: [String]) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.properties = attributes.map { EngineTestModel.attribute($0, .stringAttributeType) }
        return entity
    }

    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    /// From the model cache, a step that drops only entities without rows migrates (the kept
    /// rows keep their values); the same step over a store whose dropped entity holds rows is
    /// refused.
    @Test func aModelCacheStepMigratesOnlyWhenItDropsNoRows() throws {
        let folder = EngineTestModel.Folder()
        for droppedHoldsRows in [false, true] {
            let url = folder.url.appendingPathComponent("Store-\(droppedHoldsRows).sqlite")
            do {
                let coordinator = NSPersistentStoreCoordinator(
                    managedObjectModel: Self.model([Self.entity("Note", ["text"]), Self.entity("Draft", ["text"])]))
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                try context.performAndWait {
                    _ = EngineTestModel.insert("Note", into: context, ["text": "kept"])
                    if droppedHoldsRows { _ = EngineTestModel.insert("Draft", into: context, ["text": "would be lost"]) }
                    try context.save()
                }
            }
            let before = StoreFileSnapshot(url)
            let later = Self.model([Self.entity("Note", ["text", "title"])])
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: later)
            if droppedHoldsRows {
                let error = #expect(throws: NSError.self) {
                    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: Self.migrate)
                }
                #expect(error?.code == NSMigrationMissingSourceModelError)
                #expect(error?.localizedDescription.contains("Draft (1 rows)") == true)
                #expect(StoreFileSnapshot(url) == before)
            } else {
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: Self.migrate)
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                let texts = try context.performAndWait {
                    try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).compactMap {
                        $0.value(forKey: "text") as? String
                    }
                }
                #expect(texts == ["kept"])
            }
        }
    }
}
#endif

import Foundation
import ModelSchema
import ModelStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A migration survives `SIGKILL` at any moment: a child process (`modelstore-migration-child`)
/// migrates a store with an un-checkpointed `-wal` through two steps and is killed after a
/// random delay, over and over. After each kill and the recovery every open runs, the store is
/// either byte for byte the original (`.sqlite`, `-wal`, `-shm`) or completely migrated with
/// every row. Delays come from a fixed seed, printed with every failure.
struct StoreMigrationCrashTests {
    static let kills = 50
    static let books = 1000
    static let seed: UInt64 = 0x6D69_6772_6174_6521

    static var executable: URL? { BuiltProducts.executable(named: "modelstore-migration-child") }

    /// A V1 store of `books` books by 100 authors (each book's notes followed by `padding` bytes),
    /// copied while its writer is still open so the copy's rows are in its `-wal`.
    static func makePristine(in folder: URL, books: Int = books, padding: Int = 0) throws -> URL {
        let writerFolder = folder.appendingPathComponent("writer")
        try FileManager.default.createDirectory(at: writerFolder, withIntermediateDirectories: true)
        let path = writerFolder.appendingPathComponent("books.sqlite").path
        let connection = try StoreSchema.create(at: path, version: StoreMigrationTests.v1)
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        try connection.transaction {
            for author in 1...100 {
                try connection.execute("INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(author), 1, 1, 'author \(author)')")
            }
            let insert = try connection.prepare("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZNOTES, ZTITLE) VALUES (?, 2, 1, ?, ?, ?)")
            for book in 1...books {
                insert.reset()
                insert.bind([
                    .integer(Int64(book)), .integer(Int64(book % 100 + 1)),
                    .text("notes \(book)" + String(repeating: " ", count: padding)), .text("title \(book)"),
                ])
                _ = try insert.step()
            }
            try connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_ENT = 1; UPDATE Z_PRIMARYKEY SET Z_MAX = \(books) WHERE Z_ENT = 2")
        }
        let pristine = folder.appendingPathComponent("pristine")
        try FileManager.default.createDirectory(at: pristine, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: pristine.appendingPathComponent("books.sqlite").path + suffix)
        }
        return pristine.appendingPathComponent("books.sqlite")
    }

    static func files(_ store: URL) -> [Data?] { ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: store.path + $0) } }

    /// Starts the child migrating `store` through `moms`, its standard output going to the file
    /// returned (`out.txt` next to the store).
    static func launch(_ executable: URL, store: URL, moms: [URL]) throws -> (Process, URL) {
        let output = store.deletingLastPathComponent().appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = [store.path] + moms.map(\.path)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs the child on `store`, killing it `delay` seconds after it reported `ready` (nil: let
    /// it finish). Returns whether it finished, and how long it ran after `ready`.
    static func run(_ executable: URL, store: URL, moms: [URL], killAfter delay: Double?) throws -> (finished: Bool, migrating: Double) {
        let (process, output) = try launch(executable, store: store, moms: moms)
        // `ready\n` is the child's first output: waiting for six bytes is waiting for it.
        let deadline = Date().addingTimeInterval(20)
        var status = stat()
        while process.isRunning, Date() < deadline, stat(output.path, &status) == 0, status.st_size < 6 { usleep(100) }
        let ready = Date()
        if let delay {
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return (process.terminationReason == .exit && process.terminationStatus == 0, Date().timeIntervalSince(ready))
    }

    /// Every book with its notes (renamed twice) and its author (now in the join table).
    static func expectMigrated(_ store: URL, _ label: String) throws {
        let connection = try StoreConnection(path: store.path, mode: .readWrite)
        #expect(try connection.rows("PRAGMA integrity_check") == [[.text("ok")]], "\(label)")
        #expect(try StoreMetadataTable.entityHashes(connection) == VersionHashes(StoreMigrationTests.v3).entityHashes, "\(label)")
        #expect(
            try connection.rows("SELECT COUNT(*) FROM ZBOOK WHERE ZCOMMENT = 'notes ' || Z_PK AND ZPAGES = 7") == [
                [.integer(Int64(books))]
            ], "\(label)")
        #expect(
            try connection.rows("SELECT COUNT(*) FROM Z_2BOOKS WHERE Z_2AUTHORS = Z_3BOOKS % 100 + 1") == [[.integer(Int64(books))]],
            "\(label)")
    }

    @Test func aMigrationKilledAtRandomMomentsLeavesTheOriginalOrTheMigratedStore() throws {
        let executable = try #require(Self.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = try Fixtures.temporaryFolder("migration-crash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pristine = try Self.makePristine(in: folder)
        let original = Self.files(pristine)
        #expect((original[1]?.count ?? 0) > 0, "the pristine store's rows are in its -wal")
        var moms: [URL] = []
        for version in [StoreMigrationTests.v1, StoreMigrationTests.v2, StoreMigrationTests.v3] {
            let url = folder.appendingPathComponent("\(version.name).mom")
            try Data(CompiledModel.mom(for: version)).write(to: url)
            moms.append(url)
        }
        let work = folder.appendingPathComponent("work")
        func freshCopy() throws -> URL {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let store = work.appendingPathComponent("books.sqlite")
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: pristine.path + suffix, toPath: store.path + suffix)
            }
            return store
        }

        // An uninterrupted run gives the time window to kill in: from `ready` to the end.
        let calibration = try freshCopy()
        let (completed, duration) = try Self.run(executable, store: calibration, moms: moms, killAfter: nil)
        #expect(completed)
        try Self.expectMigrated(calibration, "uninterrupted")

        var delays = SplitMix64(seed: Self.seed)
        var outcomes: [String: Int] = [:]
        for kill in 0..<Self.kills {
            let store = try freshCopy()
            // Half the kills anywhere, half in the last fifth, where the copy is checkpointed,
            // committed and moved into place.
            let fraction = Double(delays.next() % 1_000_000) / 1_000_000
            let delay = (kill.isMultiple(of: 2) ? fraction : 0.8 + fraction * 0.2) * duration
            let finished = try Self.run(executable, store: store, moms: moms, killAfter: delay).finished
            try StoreMigrationSession.recover(storeAt: store.path)
            let label = "kill \(kill) after \(delay)s (seed \(Self.seed))"
            #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"), "\(label)")
            if Self.files(store) == original {
                outcomes["original", default: 0] += 1
                #expect(!finished, "\(label)")
            } else {
                outcomes["migrated", default: 0] += 1
                try Self.expectMigrated(store, label)
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.kills)
        print("migration kills: \(outcomes) over \(duration)s runs")
    }
}

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Migration on load across processes: `modelstore-migration-child --coordinator` adds a
/// `Notes 1` store to a coordinator on `Notes 2` with the options of lightweight migration.
/// Killed at any moment, it leaves the store's files byte for byte as they were (and they still
/// open with the old model) or completely migrated; two of them opening the same store at once
/// migrate it once, the second waiting and then opening the migrated store.
struct MigrationProcessTests {
    static let notes = 300
    static let kills = 50
    static let seed: UInt64 = 0x6C6F_6164_6B69_6C6C

    static var executable: URL? { BuiltProducts.executable(named: "modelstore-migration-child") }

    /// A `Notes 1` store of `notes` notes, copied while its coordinator is open, so the rows are
    /// in the copy's `-wal`.
    static func makePristine(in folder: URL, momd: URL) throws -> URL {
        let first = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("Notes 1.mom")))
        let writer = folder.appendingPathComponent("writer/Notes.sqlite")
        try FileManager.default.createDirectory(at: writer.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (coordinator, context) = try HistoryTestSupport.stack(model: first, url: writer, options: [:])
        try context.performAndWait {
            for note in 1...notes {
                _ = EngineTestModel.insert(
                    "Note", into: context, ["title": "note \(note)", "body": "body \(note)", "score": NSNumber(value: note)])
            }
            try context.save()
        }
        let pristine = folder.appendingPathComponent("pristine/Notes.sqlite")
        try FileManager.default.createDirectory(at: pristine.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: writer.path + suffix, toPath: pristine.path + suffix)
        }
        withExtendedLifetime(coordinator) {}
        return pristine
    }

    static func files(_ store: URL) -> [Data?] { ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: store.path + $0) } }

    static func freshCopy(of pristine: URL, in folder: URL) throws -> URL {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Notes.sqlite")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: pristine.path + suffix, toPath: store.path + suffix) }
        return store
    }

    /// Starts the child on `store` with its output in `output`.
    static func start(_ executable: URL, store: URL, momd: URL, output: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--coordinator", store.path, momd.path, "Note"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the child printed `ready` (its first output, six bytes) or exited.
    static func waitUntilReady(_ process: Process, output: URL) {
        let deadline = Date().addingTimeInterval(20)
        var status = stat()
        while process.isRunning, Date() < deadline, stat(output.path, &status) == 0, status.st_size < 6 { usleep(100) }
    }

    /// Every note with its renamed title, the removed body gone, the new attribute defaulted.
    static func expectMigrated(_ store: URL, momd: URL, _ label: String) throws {
        let connection = try StoreConnection(path: store.path, mode: .readWrite)
        #expect(try connection.rows("PRAGMA integrity_check") == [[.text("ok")]], "\(label)")
        #expect(
            try connection.rows("SELECT COUNT(*) FROM ZNOTE WHERE Z_ENT = 2 AND ZHEADING = 'note ' || ZSCORE AND ZARCHIVED = 0")
                == [[.integer(Int64(notes))]], "\(label)")
        let current = try #require(NSManagedObjectModel(contentsOf: momd))
        let (_, context) = try HistoryTestSupport.stack(model: current, url: store, options: [:])
        #expect(
            try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) } == notes, "\(label)")
    }

    /// The untouched original still opens with the old model (no migration asked for).
    static func expectOpensWithTheOldModel(_ store: URL, momd: URL, _ label: String) throws {
        let connection = try StoreConnection(path: store.path, mode: .readWrite)
        #expect(try connection.rows("PRAGMA integrity_check") == [[.text("ok")]], "\(label)")
        let first = try #require(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("Notes 1.mom")))
        let (_, context) = try HistoryTestSupport.stack(model: first, url: store, options: [:])
        #expect(
            try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) } == notes, "\(label)")
    }

    @Test func aMigrationOnLoadKilledAtRandomMomentsLeavesTheOriginalOrTheMigratedStore() throws {
        let executable = try #require(Self.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = EngineTestModel.Folder()
        let momd = try HistoryMigrationTests.compile(into: folder.url)
        let pristine = try Self.makePristine(in: folder.url, momd: momd)
        let original = Self.files(pristine)
        #expect((original[1]?.count ?? 0) > 0, "the pristine store's rows are in its -wal")
        let work = folder.url.appendingPathComponent("work")
        let output = folder.url.appendingPathComponent("out.txt")

        // An uninterrupted run gives the window to kill in: from `ready` to the end.
        let calibration = try Self.freshCopy(of: pristine, in: work)
        let first = try Self.start(executable, store: calibration, momd: momd, output: output)
        Self.waitUntilReady(first, output: output)
        let started = Date()
        first.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        #expect(first.terminationStatus == 0)
        #expect((try? String(contentsOf: output, encoding: .utf8))?.contains("opened \(Self.notes)") == true)
        try Self.expectMigrated(calibration, momd: momd, "uninterrupted")

        var delays = SplitMix64(seed: Self.seed)
        var outcomes: [String: Int] = [:]
        for kill in 0..<Self.kills {
            let store = try Self.freshCopy(of: pristine, in: work)
            let fraction = Double(delays.next() % 1_000_000) / 1_000_000
            let delay = (kill.isMultiple(of: 2) ? fraction : 0.5 + fraction * 0.5) * duration
            let process = try Self.start(executable, store: store, momd: momd, output: output)
            Self.waitUntilReady(process, output: output)
            usleep(useconds_t(delay * 1_000_000))
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try StoreMigrationSession.recover(storeAt: store.path)
            let label = "kill \(kill) after \(delay)s (seed \(Self.seed))"
            #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"), "\(label)")
            if Self.files(store) == original {
                outcomes["original", default: 0] += 1
                try Self.expectOpensWithTheOldModel(store, momd: momd, label)
            } else {
                outcomes["migrated", default: 0] += 1
                try Self.expectMigrated(store, momd: momd, label)
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.kills)
        print("migration-on-load kills: \(outcomes) over \(duration)s runs")
    }

    @Test func twoProcessesOpeningAnOldStoreAtOnceMigrateItOnceAndBothOpenIt() throws {
        let executable = try #require(Self.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = EngineTestModel.Folder()
        let momd = try HistoryMigrationTests.compile(into: folder.url)
        let pristine = try Self.makePristine(in: folder.url, momd: momd)
        for round in 0..<4 {
            let store = try Self.freshCopy(of: pristine, in: folder.url.appendingPathComponent("work"))
            let outputs = (0..<2).map { folder.url.appendingPathComponent("out-\(round)-\($0).txt") }
            let processes = try outputs.map { try Self.start(executable, store: store, momd: momd, output: $0) }
            for process in processes { process.waitUntilExit() }
            for (process, output) in zip(processes, outputs) {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                #expect(process.terminationStatus == 0, "round \(round): \(text)")
                #expect(text.contains("opened \(Self.notes)"), "round \(round): \(text)")
            }
            #expect(!FileManager.default.fileExists(atPath: store.path + ".migration"))
            #expect(!FileManager.default.fileExists(atPath: store.path + ".migration-lock"))
            try Self.expectMigrated(store, momd: momd, "round \(round)")
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Saves survive `SIGKILL` at any moment: a child process (`modelruntime-crash-child`) makes
/// numbered saves into one store and is killed at random moments, over and over; after every
/// kill the store opens with the runtime, passes `PRAGMA integrity_check`, holds exactly the
/// saves 1…K for some K that includes every save the child reported as finished (no save is
/// lost, none is partly there), and `Z_PRIMARYKEY` is ahead of every root's keys. The kill
/// delays come from a seed, printed with every failure; set `MODELRUNTIME_CRASH_SEED` to repeat one.
struct CrashSafetyTests {
    /// The model of the child's saves: three roots, to-one and to-many relationships, a cascade.
    static let modelText = """
        entities:
          Batch:
            attributes:
              number: Integer 64
              label: String
            relationships:
              items: { to: Item, toMany: true, inverse: batch, deleteRule: cascade }
              owner: { to: Owner, inverse: batches }
          Item:
            attributes:
              index: Integer 64
              text: String
            relationships:
              batch: { to: Batch, inverse: items }
          Owner:
            attributes:
              name: String
              saves: Integer 64
            relationships:
              batches: { to: Batch, toMany: true, inverse: owner }
        """
    static let roots = ["Batch", "Item", "Owner"]
    static let kills = 200

    static var executable: URL? { BuiltProducts.executable(named: "modelruntime-crash-child") }

    // MARK: The store's contents

    struct BatchState: Equatable, CustomStringConvertible {
        var label: String
        var owner: String
        var items: [String]
        var description: String { "\(label) of \(owner) with \(items)" }
    }

    struct OwnerState: Equatable, CustomStringConvertible {
        var saves: Int64
        var batches: [Int64]
        var description: String { "\(saves) saves, batches \(batches)" }
    }

    struct Contents: Equatable {
        var batches: [Int64: BatchState] = [:]
        var owners: [String: OwnerState] = [:]

        /// What the saves 1…`count` leave in the store, as the child's documentation states them.
        init(saves count: Int64) {
            var owners: [String: Int64] = [:]
            for number in Int64(1)...max(1, count) where count > 0 {
                let owner = "owner \(number % 3)"
                owners[owner, default: 0] += 1
                batches[number] = BatchState(
                    label: "batch \(number)", owner: owner, items: (0..<(1 + number % 3)).map { "\($0):item \(number).\($0)" })
                if batches[number - 1] != nil {
                    batches[number - 1]?.label = "batch \(number - 1) updated"
                    if number % 4 == 0 {
                        let next = "owner \((number + 1) % 3)"
                        owners[next, default: 0] += 0
                        batches[number - 1]?.owner = next
                    }
                }
                batches[number - 6] = nil
            }
            for (name, saves) in owners {
                self.owners[name] = OwnerState(saves: saves, batches: batches.filter { $0.value.owner == name }.keys.sorted())
            }
        }

        /// What the store holds, read with the runtime. An item its batch does not list (or without a
        /// batch) shows as an extra batch numbered -2, so it cannot match any expected contents.
        init(store: URL, model: NSManagedObjectModel) throws {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            var batches: [Int64: BatchState] = [:]
            var owners: [String: OwnerState] = [:]
            try context.performAndWait {
                func name(_ object: Any?) -> String { (object as? NSManagedObject)?.value(forKey: "name") as? String ?? "none" }
                func number(_ object: Any?) -> Int64 { (object as? NSManagedObject)?.value(forKey: "number") as? Int64 ?? -1 }
                for batch in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Batch")) {
                    let items = ((batch.value(forKey: "items") as? NSSet)?.allObjects ?? []).compactMap { $0 as? NSManagedObject }
                    batches[number(batch)] = BatchState(
                        label: batch.value(forKey: "label") as? String ?? "none", owner: name(batch.value(forKey: "owner")),
                        items: items.map { "\($0.value(forKey: "index") as? Int64 ?? -1):\($0.value(forKey: "text") as? String ?? "none")" }
                            .sorted())
                }
                for owner in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner")) {
                    let owned = ((owner.value(forKey: "batches") as? NSSet)?.allObjects ?? []).map(number)
                    owners[name(owner)] = OwnerState(saves: owner.value(forKey: "saves") as? Int64 ?? -1, batches: owned.sorted())
                }
                // Every item belongs to a batch that lists it: a cascade is all or nothing too.
                for item in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")) {
                    let batch = number(item.value(forKey: "batch"))
                    let entry = "\(item.value(forKey: "index") as? Int64 ?? -1):\(item.value(forKey: "text") as? String ?? "none")"
                    if batches[batch]?.items.contains(entry) != true {
                        batches[-2] = BatchState(label: "orphan", owner: "", items: [entry])
                    }
                }
            }
            self.batches = batches
            self.owners = owners
        }

        var saves: Int64 { batches.keys.max().map { max($0, 0) } ?? 0 }
    }

    /// `PRAGMA integrity_check`'s answer and, per root, `Z_MAX` and the largest `Z_PK`.
    static func sqliteChecks(_ store: URL) throws -> (integrity: [String], keys: [String: (max: Int64, largest: Int64)]) {
        let connection = try StoreConnection.openStore(at: store.path)
        let integrity = try connection.rows("PRAGMA integrity_check").map { $0.first?.textValue ?? "?" }
        var keys: [String: (max: Int64, largest: Int64)] = [:]
        for root in roots {
            let recorded = try connection.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(root)])
            let largest = try connection.rows("SELECT MAX(Z_PK) FROM Z\(root.uppercased())")
            keys[root] = (recorded.first?.first?.integerValue ?? -1, largest.first?.first?.integerValue ?? 0)
        }
        return (integrity, keys)
    }

    // MARK: The child

    struct Run {
        var lastReported: Int64 = 0
        var killed = false
        var exitStatus: Int32 = 0
        var errors = ""
    }

    /// Starts the child, kills it `delay` seconds after it is ready (or after launch), and
    /// returns the last save it reported finished.
    static func run(
        _ executable: URL, model: URL, store: URL, folder: URL, killAfter delay: Double?, fromLaunch: Bool, saves: Int? = nil
    ) throws -> Run {
        let output = folder.appendingPathComponent("out.txt")
        let errors = folder.appendingPathComponent("err.txt")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = executable
        process.arguments = [model.path, store.path] + (saves.map { ["\($0)"] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        if let delay {
            if !fromLaunch {
                let deadline = Date().addingTimeInterval(20)
                // `ready\n` is the child's first output: waiting for six bytes is waiting for it.
                var status = stat()
                while process.isRunning, Date() < deadline, stat(output.path, &status) == 0, status.st_size < 6 { usleep(200) }
            }
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        var result = Run()
        result.killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        result.exitStatus = process.terminationStatus
        result.errors = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let lines = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        // The last element is empty when the output ends with a newline, or a line cut by the kill.
        for line in lines.dropLast() where line.hasPrefix("saved ") {
            result.lastReported = max(result.lastReported, Int64(line.dropFirst(6)) ?? -1)
        }
        return result
    }

    @Test func savesSurviveSIGKILLAtRandomMoments() throws {
        let executable = try #require(Self.executable, "modelruntime-crash-child is built next to the tests")
        let seed = ProcessInfo.processInfo.environment["MODELRUNTIME_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999)
        var delays = SplitMix64(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let loaded = Pipeline.load(text: Self.modelText, path: "Crash.model.yaml")
        let version = try #require(loaded.model?.versions.first, "\(loaded.diagnostics)")
        let momURL = folder.appendingPathComponent("Crash.mom")
        try Data(CompiledModel.mom(for: version)).write(to: momURL)
        let model = try #require(NSManagedObjectModel(contentsOf: momURL))
        let store = folder.appendingPathComponent("Crash.sqlite")

        var stored: Int64 = 0
        var killedWhileSaving = 0
        // The kill window follows the child's pace: a loaded machine (or an instrumented build)
        // saves more slowly, and a fixed window would then kill most runs before their first save.
        // The window is a few saves long, estimated from the runs so far; the moment within it
        // comes from the seed.
        var secondsPerSave = 0.005
        for kill in 0...Self.kills {
            let last = kill == Self.kills
            let fromLaunch = delays.next() % 8 == 0
            let window = min(max(0.030, 6 * secondsPerSave), 2.0)
            let delay = Double(delays.next() % 1001) / 1000 * window
            let run = try Self.run(
                executable, model: momURL, store: store, folder: folder, killAfter: last ? nil : delay, fromLaunch: fromLaunch,
                saves: last ? 5 : nil)
            let context = "seed \(seed) (MODELRUNTIME_CRASH_SEED), kill \(kill) after \(delay) s from \(fromLaunch ? "launch" : "ready")"
            if last {
                try #require(run.exitStatus == 0 && !run.killed, "\(context): the last run ends normally: \(run.errors)")
            } else {
                try #require(run.killed, "\(context): the child ends only by the kill: \(run.errors)")
            }
            if run.lastReported > stored {
                killedWhileSaving += 1
                if !fromLaunch, delay > 0 {
                    secondsPerSave = 0.8 * secondsPerSave + 0.2 * delay / Double(run.lastReported - stored)
                }
            } else if !fromLaunch, delay >= window / 2 {
                // Half the window passed without a finished save: the child is slower than estimated.
                secondsPerSave *= 1.5
            }

            let contents = try Contents(store: store, model: model)
            let saves = contents.saves
            try #require(
                saves >= run.lastReported && saves >= stored, "\(context): saves \(saves), reported \(run.lastReported), before \(stored)")
            try #require(saves <= max(run.lastReported, stored) + 1, "\(context): saves \(saves), reported \(run.lastReported)")
            let expected = Contents(saves: saves)
            try #require(contents.batches == expected.batches, "\(context): batches after \(saves) saves")
            try #require(contents.owners == expected.owners, "\(context): owners after \(saves) saves")
            let checks = try Self.sqliteChecks(store)
            try #require(checks.integrity == ["ok"], "\(context): \(checks.integrity)")
            for (root, keys) in checks.keys {
                try #require(keys.max >= keys.largest, "\(context): \(root) Z_MAX \(keys.max) < largest Z_PK \(keys.largest)")
            }
            if last { #expect(saves == stored + 5, "\(context)") }
            stored = saves
        }
        // The kills landed among saves, not only before the first one.
        #expect(stored > Int64(Self.kills), "seed \(seed): \(stored) saves in \(Self.kills) runs")
        #expect(killedWhileSaving > Self.kills / 2, "seed \(seed): \(killedWhileSaving) of \(Self.kills) runs saved before the kill")
    }
}
#endif

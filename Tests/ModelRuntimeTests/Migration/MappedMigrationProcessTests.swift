#if !canImport(CoreData)
import Foundation
import ModelRuntime
import ModelStore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A migration on load through a mapping model, killed: `modelstore-migration-child
/// --coordinator` adds the version 1 store Core Data wrote (`SampleModel_V1.sqlite`, its rows in
/// its `-wal`) to a coordinator on version 3, with Xcode's `V2toV3.cdm` beside the `.momd`. The
/// chain infers 1 → 2 and maps 2 → 3 in one session. Killed at any moment, it leaves the store's
/// files byte for byte as they were or completely migrated.
@Suite(.serialized) struct MappedMigrationProcessTests {
    static let kills = 30
    static let seed: UInt64 = 0x6D61_7070_6564_6B6C

    static func start(_ executable: URL, store: URL, mom: URL, output: URL, environment: [String: String] = [:]) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        // The mapping model's policy is the app's; here the base class stands in for it.
        process.arguments = ["--coordinator", store.path, mom.path, "Car", "--policy-name", "REPLACE_AT_RUNTIME.V2to3MakerPolicy"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func numberPlates(at store: URL, _ model: NSManagedObjectModel) throws -> Set<String> {
        let context = try CompiledMappingModelTests.context(store, model)
        return try context.performAndWait {
            Set(
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")).compactMap {
                    $0.value(forKey: "numberPlate") as? String
                })
        }
    }

    /// Core Data's concurrency assertions on (`com.apple.CoreData.ConcurrencyDebug` 1, which stops
    /// the process at a context used off its queue): the manager's policies use the source and
    /// destination contexts on the migrating thread, as Core Data's do.
    @Test func aMappedMigrationUsesItsContextsOnlyWhereCoreDataAllows() throws {
        let executable = try #require(
            MigrationProcessTests.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = try CompiledMappingModelTests.resources("cdm-concurrency-debug")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mom = folder.appendingPathComponent("SampleModel.momd/SampleModel3.mom")
        let store = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder))
        let output = folder.appendingPathComponent("out.txt")
        let process = try Self.start(
            executable, store: store, mom: mom, output: output, environment: ["com.apple.CoreData.ConcurrencyDebug": "1"])
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect((try? String(contentsOf: output, encoding: .utf8))?.contains("opened 125") == true)
    }

    @Test func aMappedMigrationOnLoadKilledAtRandomMomentsLeavesTheOriginalOrTheMigratedStore() throws {
        let executable = try #require(
            MigrationProcessTests.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = try CompiledMappingModelTests.resources("cdm-kill")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mom = folder.appendingPathComponent("SampleModel.momd/SampleModel3.mom")
        let v1 = try CompiledMappingModelTests.version("SampleModel")
        let v3 = try #require(NSManagedObjectModel(contentsOf: mom))
        let pristineFolder = folder.appendingPathComponent("pristine")
        try FileManager.default.createDirectory(at: pristineFolder, withIntermediateDirectories: true)
        let pristine = URL(fileURLWithPath: try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: pristineFolder))
        let original = MigrationProcessTests.files(pristine)
        let plates = try Self.numberPlates(
            at: try MigrationProcessTests.freshCopy(of: pristine, in: folder.appendingPathComponent("read")), v1)
        #expect(plates.count == 125)
        let work = folder.appendingPathComponent("work")
        let output = folder.appendingPathComponent("out.txt")

        // An uninterrupted run gives the window to kill in: from `ready` to the end.
        let calibration = try MigrationProcessTests.freshCopy(of: pristine, in: work)
        let first = try Self.start(executable, store: calibration, mom: mom, output: output)
        MigrationProcessTests.waitUntilReady(first, output: output)
        let started = Date()
        first.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        #expect(first.terminationStatus == 0)
        #expect((try? String(contentsOf: output, encoding: .utf8))?.contains("opened 125") == true)
        #expect(try Self.numberPlates(at: calibration, v3) == plates)

        var delays = SplitMix64(seed: Self.seed)
        var outcomes: [String: Int] = [:]
        for kill in 0..<Self.kills {
            let store = try MigrationProcessTests.freshCopy(of: pristine, in: work)
            let delay = Double(delays.next() % 1_000_000) / 1_000_000 * duration
            let process = try Self.start(executable, store: store, mom: mom, output: output)
            MigrationProcessTests.waitUntilReady(process, output: output)
            usleep(useconds_t(delay * 1_000_000))
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try StoreMigrationSession.recover(storeAt: store.path)
            let label = "kill \(kill) after \(delay)s (seed \(Self.seed))"
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter {
                ($0.contains(".migration") && !$0.hasSuffix(".migration-lock")) || $0.contains(".mapping-")
            }
            #expect(leftovers.isEmpty, "\(label): \(leftovers)")
            if MigrationProcessTests.files(store) == original {
                outcomes["original", default: 0] += 1
                #expect(try Self.numberPlates(at: store, v1) == plates, "\(label)")
            } else {
                outcomes["migrated", default: 0] += 1
                #expect(try Self.numberPlates(at: store, v3) == plates, "\(label)")
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.kills)
        print("mapped migration-on-load kills: \(outcomes) over \(duration)s runs")
    }
}
#endif

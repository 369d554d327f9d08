import Foundation
import ModelSchema
import ModelStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a migration holds while it runs: memory that does not grow with the store (the copy is
/// made chunk by chunk, the `-wal` applied by SQLite in the copy), and the store's migration lock,
/// which one holder has at a time.
struct StoreMigrationResourceTests {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var isSet = false
        var value: Bool { lock.withLock { isSet } }
        func set() { lock.withLock { isSet = true } }
    }

    /// Migrates a store in `modelstore-migration-child` and returns the child's peak resident
    /// memory in KB.
    static func peakMemory(migrating store: URL, moms: [URL], executable: URL) throws -> Int {
        let (process, output) = try StoreMigrationCrashTests.launch(executable, store: store, moms: moms)
        process.waitUntilExit()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0 && text.contains("migrated"), "\(text)")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("maxrss ") })
        return try #require(Int(line.dropFirst("maxrss ".count)))
    }

    /// Two stores whose rows are all in an un-checkpointed `-wal`, one about 0.1 MB and one about
    /// 16 MB, migrate through two steps with peak memory differing by much less than their size
    /// difference (reading the larger store into memory would add at least its size). Linux only:
    /// the child reads its peak from `/proc/self/status`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func aMigrationsPeakMemoryDoesNotGrowWithTheStoresSize() throws {
        let executable = try #require(
            StoreMigrationCrashTests.executable, "modelstore-migration-child is not built (swift build --build-tests builds it)")
        let folder = try Fixtures.temporaryFolder("migration-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        var moms: [URL] = []
        for version in [StoreMigrationTests.v1, StoreMigrationTests.v2, StoreMigrationTests.v3] {
            let url = folder.appendingPathComponent("\(version.name).mom")
            try Data(CompiledModel.mom(for: version)).write(to: url)
            moms.append(url)
        }
        var peaks: [Int] = []
        var sizes: [Int] = []
        for (label, padding) in [("small", 0), ("large", 16_000)] {
            let pristine = try StoreMigrationCrashTests.makePristine(
                in: folder.appendingPathComponent(label), books: 1000, padding: padding)
            let size = ["", "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: pristine.path + $0)[.size] as? Int }
                .reduce(0, +)
            sizes.append(size / 1024)
            peaks.append(try Self.peakMemory(migrating: pristine, moms: moms, executable: executable))
        }
        print("migration peak memory: \(peaks[0]) KB for a \(sizes[0]) KB store, \(peaks[1]) KB for a \(sizes[1]) KB store")
        #expect(sizes[1] - sizes[0] > 12_000)
        #expect(peaks[1] - peaks[0] < (sizes[1] - sizes[0]) / 2)
    }

    /// A second lock on the same store waits until the first is released; the lock file is gone
    /// once nobody holds the lock.
    @Test func theMigrationLockHasOneHolderAtATime() throws {
        let folder = try Fixtures.temporaryFolder("migration-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        let first = try StoreMigrationLock(storeAt: store)
        let acquired = Flag()
        let released = Flag()
        let waiter = Thread {
            guard let second = try? StoreMigrationLock(storeAt: store) else { return }
            acquired.set()
            second.release()
            released.set()
        }
        waiter.start()
        usleep(200_000)
        #expect(!acquired.value, "the second lock was taken while the first was held")
        first.release()
        // Generous: the suite runs in parallel on a loaded machine.
        var waited = 0
        while !released.value, waited < 3000 {
            usleep(10_000)
            waited += 1
        }
        #expect(acquired.value && released.value)
        #expect(!FileManager.default.fileExists(atPath: store + ".migration-lock"))
    }
}

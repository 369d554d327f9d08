import Foundation
import ModelSchema
import ModelStore
import Synchronization
import Testing

/// A store migration reports its steps as it goes: the copy, each version step with the rows it
/// copied, the swap; `completed` climbs from 0 to `total` and ends there.
struct StoreMigrationProgressTests {
    static func migrate(through versions: [ModelVersion]) throws -> [WorkProgress] {
        let folder = try Fixtures.temporaryFolder("migration-progress")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try StoreMigrationTests.makeStore(in: folder)
        let events = Mutex<[WorkProgress]>([])
        try StoreMigrator.migrate(storeAt: path, through: versions) { progress in events.withLock { $0.append(progress) } }
        return events.withLock { $0 }
    }

    @Test func aMigrationReportsTheCopyEachStepAndTheSwap() throws {
        let events = try Self.migrate(through: [StoreMigrationTests.v1, StoreMigrationTests.v2, StoreMigrationTests.v3])
        let steps = events.filter { $0.rowsCopied == nil }
        #expect(
            steps == [
                WorkProgress(completed: 0, total: 4, step: "copying the store"),
                WorkProgress(completed: 1, total: 4, step: "migrating 'V1' to 'V2'"),
                WorkProgress(completed: 2, total: 4, step: "migrating 'V2' to 'V3'"),
                WorkProgress(completed: 3, total: 4, step: "replacing the store"),
                WorkProgress(completed: 4, total: 4, step: "migrated"),
            ])
        #expect(events.map(\.completed) == events.map(\.completed).sorted())
    }

    @Test func eachStepReportsTheRowsItCopied() throws {
        let events = try Self.migrate(through: [StoreMigrationTests.v1, StoreMigrationTests.v2])
        let rows = events.filter { $0.step == "migrating 'V1' to 'V2'" }.compactMap(\.rowsCopied)
        #expect(!rows.isEmpty)
        #expect(rows == rows.sorted())
        // Two authors and five books.
        #expect(rows.last == 7)
    }

    @Test func aStoreAlreadyAtTheVersionReportsNothing() throws {
        #expect(try Self.migrate(through: [StoreMigrationTests.v1]).isEmpty)
    }
}

import Foundation
import Testing

/// `modelgen migrate-store`: plans and migrates a fixture store through its model's versions,
/// keeping a backup, and refuses a step lightweight migration cannot infer without touching
/// the store.
struct MigrateStoreCommandTests {
    static let coredata = CoreDataCommandTests.coredata

    static func copy(_ store: String, to folder: URL) throws -> String {
        let source = coredata.appendingPathComponent(store).path
        let target = folder.appendingPathComponent((store as NSString).lastPathComponent).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
        return target
    }

    static func files(_ path: String) -> [Data?] { ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: path + $0) } }

    @Test func aDryRunPrintsThePlanForTheStoresVersionAndChangesNothing() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let before = Self.files(store)
        let model = Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3", "--dry-run"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasPrefix(
                "store written by 'SampleModel'; 2 steps to 'SampleModel3':\nSampleModel → SampleModel2: lightweight migration (inferred)\n"
            ))
        #expect(Self.files(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))
    }

    @Test func aStoreMigratesThroughEveryVersionKeepingABackup() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let before = Self.files(store)
        let model = Self.coredata.appendingPathComponent("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld").path
        let run = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == "migrated '\(store)' from 'SampleModel' to 'SampleModel3' through 2 steps; the original is in '\(store).backup'\n"
        )
        #expect(Self.files(store + ".backup") == before)
        let inspect = CapturedRun(["inspect-store", store, "--model", model])
        #expect(inspect.output.hasSuffix("written by model version: SampleModel3\n"))
        // The renamed entity keeps its old name in Z_PRIMARYKEY, as in the store Core Data migrated.
        #expect(inspect.output.contains("ExpensiveSportCar (Z_ENT 3) in ZCAR: 5 rows"))
        #expect(inspect.output.contains("Maker (Z_ENT 4) in ZMAKER: 0 rows"))
        // Again: nothing to do.
        let again = CapturedRun(["migrate-store", store, "--model", model, "--to", "SampleModel3"])
        #expect(again.output == "store written by 'SampleModel3'; it is at 'SampleModel3' already\n")
    }

    @Test func aStepThatCannotBeInferredIsRefusedAndTheStoreIsUntouched() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.copy("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite", to: folder)
        let before = Self.files(store)
        let model = Self.coredata.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld").path
        let run = CapturedRun(["migrate-store", store, "--model", model])
        #expect(run.status == 1)
        #expect(
            run.errors.contains(
                "\(store): error: cannot migrate from 'CoreDataMigration_Example 2' to 'CoreDataMigration_Example 3': lightweight migration cannot infer it"
            ))
        #expect(Self.files(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))
        let backwards = CapturedRun([
            "migrate-store", store, "--model", model, "--to", "CoreDataMigration_Example",
        ])
        #expect(backwards.status == 1)
        #expect(backwards.errors.contains("stores are not migrated backwards"))
        #expect(CapturedRun(["migrate-store", store]).status == 2)
    }
}

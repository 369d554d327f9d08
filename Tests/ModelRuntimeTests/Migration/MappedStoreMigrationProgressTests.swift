#if !canImport(CoreData)
import Foundation
import ModelSchema
import Synchronization
import Testing
import TestSupport

@testable import ModelRuntime

/// What `modelgen migrate-store` hears of a migration through a mapping model: each step as it
/// starts and ends and, in the mapped step, the manager's progress as the step's share done.
@Suite(.serialized) struct MappedStoreMigrationProgressTests {
    @Test func aMappedStepReportsItsShareDoneFromZeroToOne() throws {
        // A name of this test's own: other suites register other classes under the fixture's name.
        NSEntityMigrationPolicy.register(MakerFromNamePolicy.self, as: "MappedStoreMigrationProgressTests.MakerPolicy")
        let folder = try Fixtures.temporaryFolder("mapped-progress")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.copyStore("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", to: folder)
        let versions = try ["SampleModel", "SampleModel2", "SampleModel3"].map { name in
            var version = ModelSchemaBridge.version(of: try CompiledMappingModelTests.version(name))
            version.name = name
            return version
        }
        var mapping = try MappingModelArchive.decode([UInt8](Data(contentsOf: CompiledMappingModelTests.cdm)))
        for index in mapping.entityMappings.indices where mapping.entityMappings[index].entityMigrationPolicyClassName != nil {
            mapping.entityMappings[index].entityMigrationPolicyClassName = "MappedStoreMigrationProgressTests.MakerPolicy"
        }
        let heard = Mutex<[WorkProgress]>([])
        try MappedStoreMigration.migrate(storeAt: store, through: versions, mappings: [1: mapping]) { progress in
            heard.withLock { $0.append(progress) }
        }
        let reports = heard.withLock { $0 }
        #expect(reports.first == WorkProgress(completed: 0, total: 4, step: "copying the store"))
        #expect(reports.last == WorkProgress(completed: 4, total: 4, step: "migrated"))
        let mapped = reports.filter { $0.step == "migrating 'SampleModel2' to 'SampleModel3'" }
        let fractions = mapped.compactMap(\.stepFraction)
        #expect(mapped.allSatisfy { $0.completed == 2 })
        #expect(fractions.count > 2)
        #expect(fractions == fractions.sorted())
        #expect(fractions.last == 1)
        #expect(reports.filter { $0.step == "migrating 'SampleModel' to 'SampleModel2'" }.allSatisfy { $0.stepFraction == nil })
    }
}
#endif

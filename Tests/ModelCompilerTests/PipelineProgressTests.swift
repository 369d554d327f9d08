import Foundation
import ModelCompiler
import ModelSchema
import Synchronization
import Testing

/// The pipeline reports each step as it finishes: reading and checking each version, the checks
/// across versions, then compiling each version and `VersionInfo.plist` (or generating sources).
struct PipelineProgressTests {
    static func events(_ product: Pipeline.Product, model: String = Fixtures.tripsModel.path) -> [WorkProgress] {
        let events = Mutex<[WorkProgress]>([])
        let request = Pipeline.Request(
            modelPath: model, product: product, outputFolder: NSTemporaryDirectory(),
            progress: { progress in events.withLock { $0.append(progress) } })
        _ = Pipeline.run(request)
        return events.withLock { $0 }
    }

    @Test func compilingReportsEveryVersionReadCheckedAndCompiled() {
        let events = Self.events(.compiledModel)
        #expect(
            events.map(\.step) == [
                "reading 'Trips 1'", "reading 'Trips 2'", "checking 'Trips 1'", "checking 'Trips 2'", "checking across versions",
                "compiling Trips 1.mom", "compiling Trips 2.mom", "compiling VersionInfo.plist",
            ])
        #expect(events.map(\.completed) == Array(1...8))
        #expect(events.allSatisfy { $0.total == 8 })
    }

    @Test func generatingSourcesEndsWithTheGenerationStep() {
        let events = Self.events(.swiftSources)
        #expect(events.last == WorkProgress(completed: 6, total: 6, step: "generating the Swift sources"))
    }

    @Test func aModelWithErrorsStopsBeforeTheBackend() {
        let broken = Fixtures.golden.appendingPathComponent("Diagnostics/missing-inverse.model.yaml").path
        let events = Self.events(.compiledModel, model: broken)
        #expect(events.last?.step == "checking across versions")
        #expect(events.allSatisfy { $0.completed < $0.total })
    }
}

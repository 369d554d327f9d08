#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// What the runtime keeps per thread (docs/runtime/Safety.md, "Per-thread state"): the context
/// whose block the thread runs (`NSFetchRequest.execute()`), and the entity handed to an object
/// initialiser. Many contexts run blocks on many threads at once, blocks of one context nest in
/// another's, and each must see its own.
@Suite struct PerThreadStateTests {
    /// A context over an in-memory store of `rows` trips.
    static func context(rows: Int) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for index in 0..<rows { _ = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)"]) }
            try context.save()
        }
        return context
    }

    @Test func executeFetchesInTheContextWhoseBlockRunsOnEachThread() throws {
        let contexts = Handed(try (1...4).map { try Self.context(rows: $0) })
        let threads = StressThreads()
        for thread in 0..<4 {
            threads.start("executor \(thread)") {
                for step in 0..<100 {
                    // Blocks nest in one order only (a lower context's block around a higher
                    // one's), as any code waiting for two queues must.
                    let first = (thread + step) % 4
                    let second = (first + 1 + step % 2) % 4
                    let (outerIndex, innerIndex) = (min(first, second), max(first, second))
                    let outer = contexts.value[outerIndex]
                    let inner = contexts.value[innerIndex]
                    try outer.performAndWait { () throws in
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
                        let before = try request.execute().count
                        // A block of another context nested in this one, then this one's again.
                        let nested = try inner.performAndWait { () throws in try request.execute().count }
                        let after = try request.execute().count
                        try ensure(before == outerIndex + 1, "execute() fetched in another thread's context")
                        try ensure(nested == innerIndex + 1, "execute() in a nested block fetched in the outer context")
                        try ensure(after == before, "execute() after a nested block fetched in the inner context")
                    }
                }
            }
        }
        threads.wait()
        #expect(throws: NSError.self) { try NSFetchRequest<NSManagedObject>(entityName: "Trip").execute() }
    }

    /// Objects of the entity `Trip` inserted on several threads at once into contexts of two
    /// models with entities of those names, alternating: each object gets its own context's
    /// entity (a thread's cache of the entity it inserted last must not answer for another
    /// model).
    @Test func insertionsOnManyThreadsGetTheirOwnContextsEntity() throws {
        let models = Handed([EngineTestModel.make(), EngineTestModel.make()])
        let threads = StressThreads()
        for thread in 0..<4 {
            threads.start("inserter \(thread)") {
                for step in 0..<30 {
                    let model = models.value[(thread + step) % 2]
                    let (_, context) = try EngineTestModel.stack(model: model)
                    try context.performAndWait { () throws in
                        for index in 0..<10 {
                            let trip = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)"])
                            let stop = EngineTestModel.insert("Stop", into: context, ["name": "stop \(index)", "trip": trip])
                            try ensure(trip.entity === model.entitiesByName["Trip"], "a trip of another model's entity")
                            try ensure(stop.entity === model.entitiesByName["Stop"], "a stop of another model's entity")
                            try ensure(trip.value(forKey: "legs") as? Int64 == 1, "a trip without its entity's default")
                        }
                        try context.save()
                        try ensure(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Stop")) == 10, "stops lost")
                    }
                }
            }
        }
        threads.wait()
    }
}
#endif

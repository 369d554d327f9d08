#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// A class written as generated code is (see SlotTableTests): its accessors read through one
/// process-wide slot table, whatever model the object's entity belongs to.
final class SlotTally: NSManagedObject {
    private enum Slots {
        private static let table = SlotTable(["beta", "gamma"])
        static let beta = table[0]
        static let gamma = table[1]
    }

    var beta: Int64 {
        get { value(atSlot: Slots.beta) as? Int64 ?? -1 }
        set { setValue(newValue, atSlot: Slots.beta) }
    }
    var gamma: String? {
        get { value(atSlot: Slots.gamma) as? String }
        set { setValue(newValue, atSlot: Slots.gamma) }
    }
}

/// A transformer that answers its tag, told apart from another thread's.
final class TaggedTransformer: ValueTransformer, @unchecked Sendable {
    let tag: String
    init(_ tag: String) {
        self.tag = tag
        super.init()
    }
    override func transformedValue(_ value: Any?) -> Any? { tag }
}

/// The process-wide caches used from many threads at once (docs/runtime/Safety.md, "Process-wide
/// caches"): parsed predicate formats, translated fetch plans, a predicate's compiled pattern,
/// the engine's per-model data and generated classes' slot tables, the value transformer
/// registry. Each thread checks what it gets against what a single thread gets; the caches are
/// made to overflow (predicate formats, fetch plans, slot tables) so evictions race lookups.
@Suite struct SharedCacheRaceTests {
    static let threadCount = 4

    @Test func predicateFormatsParsedOnManyThreadsAtOnce() throws {
        // More formats than the cache keeps (512), so it empties itself while others read it.
        let formats = (0..<700).map { "number == \($0) AND label BEGINSWITH %@" }
        let expected = formats.enumerated().map { "number == \($0.offset) AND label BEGINSWITH \"x\($0.offset)\"" }
        #expect(NSPredicate(format: formats[7], "x7").predicateFormat == expected[7])
        let threads = StressThreads()
        for thread in 0..<Self.threadCount {
            threads.start("parser \(thread)") {
                for pass in 0..<2 {
                    for index in stride(from: (thread * 97 + pass * 13) % formats.count, to: formats.count + 700, by: 3) {
                        let index = index % formats.count
                        let predicate = NSPredicate(format: formats[index], "x\(index)")
                        try ensure(predicate.predicateFormat == expected[index], "\(formats[index]) parsed as \(predicate.predicateFormat)")
                    }
                }
            }
        }
        threads.wait()
    }

    @Test func fetchPlansSharedByContextsOfOneCoordinatorOnManyThreads() throws {
        let folder = EngineTestModel.Folder()
        let model = RaceModel.make()
        let coordinator = try RaceModel.seed(model, at: folder.store)
        let threads = StressThreads()
        for thread in 0..<Self.threadCount {
            let context = Handed(RaceModel.context(coordinator))
            threads.start("fetcher \(thread)") {
                try context.value.performAndWait { () throws in
                    let context = context.value
                    for step in 0..<160 {
                        // The same shapes with other constants, and (by the limit) more shapes
                        // than the cache keeps (256).
                        let first = (step * 7 + thread * 31) % RaceModel.items
                        let request = RaceModel.request()
                        request.predicate = NSPredicate(format: "number >= %d", first)
                        request.fetchLimit = 1 + (step * 5 + thread * 67) % 300
                        let items = try context.fetch(request)
                        let count = min(request.fetchLimit, RaceModel.items - first)
                        try ensure(items.map(RaceModel.number) == (first..<first + count).map { Int64($0) }, "fetch from \(first)")
                        let one = NSFetchRequest<NSManagedObject>(entityName: "Item")
                        one.predicate = NSPredicate(format: "number == %d AND version == %d", first, 0)
                        try ensure(try context.fetch(one).map(RaceModel.number) == [Int64(first)], "fetch of \(first)")
                        if step % 40 == 39 { context.reset() }
                    }
                }
            }
        }
        threads.wait()
    }

    @Test func oneMatchesPredicateEvaluatedOnManyThreadsAtOnce() throws {
        // A constant pattern compiled once, and a pattern read from each object (the cache then
        // changes with every evaluation).
        let constant = NSPredicate(format: "label MATCHES %@", "[0-9]+/1")
        let perObject = NSPredicate(format: "label MATCHES pattern")
        let threads = StressThreads()
        for thread in 0..<Self.threadCount {
            threads.start("evaluator \(thread)") {
                for step in 0..<400 {
                    let number = step * Self.threadCount + thread
                    let row: NSDictionary = ["label": "\(number)/\(step % 2)", "pattern": "\(number)/[01]"]
                    try ensure(constant.evaluate(with: row) == (step % 2 == 1), "constant pattern on \(row)")
                    try ensure(perObject.evaluate(with: row), "the object's own pattern on \(row)")
                    let other: NSDictionary = ["label": "\(number)/2", "pattern": "\(number)/[01]"]
                    try ensure(!perObject.evaluate(with: other), "the object's own pattern on \(other)")
                }
            }
        }
        threads.wait()
    }

    /// `Tally` in `count` models, each with `extra` attributes sorting before `beta` and `gamma`
    /// in model `extra`, so every model keeps them in other slots.
    static func tallyModels(_ count: Int) -> [NSManagedObjectModel] {
        (0..<count).map { extra in
            let tally = NSEntityDescription()
            tally.name = "Tally"
            tally.managedObjectClassName = String(reflecting: SlotTally.self)
            tally.properties =
                (0..<extra).map { EngineTestModel.attribute("aa\($0)", .stringAttributeType) } + [
                    EngineTestModel.attribute("beta", .integer64AttributeType, defaultValue: 0),
                    EngineTestModel.attribute("gamma", .stringAttributeType),
                ]
            let model = NSManagedObjectModel()
            model.entities = [tally]
            return model
        }
    }

    /// Coordinators made on several threads at once for the same models (the engine data is made
    /// once per model), and one generated class used with entities of ten models at once (its
    /// slot table keeps eight, and publishes a new block whenever it learns an entity). Each
    /// insertion also goes through the thread's cache of the last entity inserted, which must
    /// not hand a thread another model's entity of the same name.
    @Test func modelsAndSlotTablesUsedByCoordinatorsOnManyThreads() throws {
        let models = Self.tallyModels(10)
        let handed = Handed(models)
        let threads = StressThreads()
        for thread in 0..<Self.threadCount {
            threads.start("inserter \(thread)") {
                for pass in 0..<3 {
                    for offset in 0..<handed.value.count {
                        let model = handed.value[(offset + thread * 3 + pass) % handed.value.count]
                        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
                        let context = RaceModel.context(coordinator)
                        try context.performAndWait { () throws in
                            for number in 0..<20 {
                                let tally = NSEntityDescription.insertNewObject(forEntityName: "Tally", into: context)
                                try ensure(tally.entity === model.entitiesByName["Tally"], "an entity of another model")
                                guard let tally = tally as? SlotTally else { throw StressFailure(description: "not a SlotTally") }
                                tally.beta = Int64(number)
                                tally.gamma = "tally \(number)"
                                try ensure(tally.value(forKey: "beta") as? Int64 == Int64(number), "beta written to another slot")
                                try ensure(tally.value(forKey: "gamma") as? String == "tally \(number)", "gamma written to another slot")
                            }
                            try context.save()
                            context.reset()
                            let request = NSFetchRequest<NSManagedObject>(entityName: "Tally")
                            request.sortDescriptors = [NSSortDescriptor(key: "beta", ascending: true)]
                            let fetched = try context.fetch(request).compactMap { $0 as? SlotTally }
                            try ensure(fetched.map(\.beta) == (0..<20).map { Int64($0) }, "beta read from another slot")
                            try ensure(fetched.map(\.gamma) == (0..<20).map { "tally \($0)" }, "gamma read from another slot")
                        }
                    }
                }
            }
        }
        threads.wait()
    }

    @Test func valueTransformersRegisteredAndLookedUpOnManyThreads() throws {
        let threads = StressThreads()
        for thread in 0..<Self.threadCount {
            threads.start("registrar \(thread)") {
                for step in 0..<200 {
                    let name = NSValueTransformerName("SharedCacheRaceTests.\(thread).\(step % 10)")
                    let tag = "\(thread).\(step)"
                    ValueTransformer.setValueTransformer(TaggedTransformer(tag), forName: name)
                    try ensure(
                        ValueTransformer(forName: name)?.transformedValue(nil) as? String == tag,
                        "another thread's transformer under \(name.rawValue)")
                    try ensure(ValueTransformer(forName: .negateBooleanTransformerName) != nil, "a built-in transformer went missing")
                    _ = ValueTransformer.valueTransformerNames()
                }
                for step in 0..<10 {
                    ValueTransformer.setValueTransformer(nil, forName: NSValueTransformerName("SharedCacheRaceTests.\(thread).\(step)"))
                }
            }
        }
        threads.wait()
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Fetches on several private-queue contexts racing saves to the same store from other contexts of
/// the same coordinator and from a second coordinator of the same file (docs/runtime/Safety.md,
/// "Coordinators, stores and statements"). Every item a reader fetches, as an object, as a fault
/// fired later or as a dictionary row, must be whole: all of its values from one save. A fetch
/// without a batch size reads its rows with one statement, so within it every row one writer saved
/// together has the same version. Each writer owns half of the rows, so the store ends with
/// versions the test knows whatever the interleaving.
@Suite struct FetchSaveRaceTests {
    /// Checks one reader round; returns how many items it saw.
    static func read(_ context: NSManagedObjectContext, round: Int) throws -> Int {
        try context.performAndWait { () throws in
            switch round % 4 {
            case 0:
                // One statement: each writer's rows come from one of its saves.
                context.reset()
                let items = try context.fetch(RaceModel.request())
                try ensure(items.allSatisfy(RaceModel.isWhole), "an item read half before and half after a save")
                for parity in 0..<2 {
                    let versions = Set(items.filter { RaceModel.number($0) % 2 == Int64(parity) }.map(RaceModel.version))
                    try ensure(versions.count == 1, "rows saved together read from different saves: \(versions.sorted())")
                }
                return items.count
            case 1:
                // Batches loaded one query at a time, after the keys.
                context.reset()
                let items = try context.fetch(RaceModel.request(batchSize: 32))
                try ensure(items.allSatisfy(RaceModel.isWhole), "an item read half before and half after a save")
                return items.count
            case 2:
                // Objects kept from an earlier round turned into faults, each fired on its own.
                let items = try context.fetch(RaceModel.request())
                context.refreshAllObjects()
                try ensure(items.allSatisfy(RaceModel.isWhole), "an item read half before and half after a save")
                return items.count
            default:
                let request = NSFetchRequest<NSDictionary>(entityName: "Item")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["number", "version", "check", "label"]
                let rows = try context.fetch(request)
                try ensure(rows.allSatisfy(RaceModel.isWhole), "a dictionary row read half before and half after a save")
                return rows.count
            }
        }
    }

    /// Saves `round + 1` into every item of `parity`.
    static func write(_ context: NSManagedObjectContext, parity: Int, round: Int) throws {
        try context.performAndWait { () throws in
            let request = RaceModel.request()
            // Alternately from registered objects and from objects read afresh.
            if round % 2 == 1 { context.reset() }
            for item in try context.fetch(request) where RaceModel.number(item) % 2 == Int64(parity) {
                try ensure(RaceModel.isWhole(item) && RaceModel.version(item) == Int64(round), "the writer's own row changed")
                RaceModel.write(item, version: Int64(round + 1))
            }
            try context.save()
        }
    }

    @Test func fetchesOnSeveralContextsRacingSavesFromOtherContextsAndCoordinatorsReadWholeRows() throws {
        let folder = EngineTestModel.Folder()
        let model = RaceModel.make()
        let first = try RaceModel.seed(model, at: folder.store)
        let second = try RaceModel.coordinator(model, at: folder.store)
        let writerRounds = 12
        let threads = StressThreads()
        // Even rows saved through the readers' coordinator, odd rows through the other.
        for (parity, coordinator) in [first, second].enumerated() {
            let writer = Handed(RaceModel.context(coordinator))
            threads.start("writer \(parity)") {
                for round in 0..<writerRounds { try Self.write(writer.value, parity: parity, round: round) }
            }
        }
        // Readers on both coordinators, while the writers write.
        for (index, coordinator) in [first, first, first, second].enumerated() {
            let reader = Handed(RaceModel.context(coordinator))
            threads.start("reader \(index)") {
                let rounds = try StressRounds.run(maximum: 40) { round in
                    try ensure(try Self.read(reader.value, round: round + index) == RaceModel.items, "a fetch missed rows")
                }
                try ensure(rounds > 0, "no round ran")
            }
        }
        threads.wait()
        let expected = (0..<RaceModel.items).map { _ in Int64(writerRounds) }
        #expect(try RaceModel.storedVersions(model, at: folder.store) == expected)
    }
}
#endif

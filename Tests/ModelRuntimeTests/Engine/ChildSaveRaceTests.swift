#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Child contexts saving into their parent while the parent fetches and saves, and a sibling
/// child reads through the parent (docs/runtime/Safety.md, "Parent and child contexts"). A
/// child's save changes the parent's objects on the parent's queue, so every object the parent
/// or a child reads is whole, and the parent ends with every child's last save. Each child owns
/// a third of the items, so the final versions are known whatever the interleaving.
@Suite struct ChildSaveRaceTests {
    static let children = 3

    /// One round of child `index`: its items read through the parent, written and saved into it.
    static func childRound(_ child: NSManagedObjectContext, index: Int, round: Int) throws {
        try child.performAndWait { () throws in
            if round % 3 == 2 { child.reset() }
            let items = try child.fetch(RaceModel.request(batchSize: round % 2 == 0 ? 0 : 20))
            try ensure(items.count == RaceModel.items, "a child fetch missed items")
            for item in items {
                try ensure(RaceModel.isWhole(item), "a child read an item the parent holds half-written")
                guard RaceModel.number(item) % Int64(children) == Int64(index) else { continue }
                try ensure(RaceModel.version(item) == Int64(round), "a child's own item has another child's version")
                RaceModel.write(item, version: Int64(round + 1))
            }
            try child.save()
        }
    }

    @Test func childSavesRacingParentFetchesAndSavesKeepEveryObjectWhole() throws {
        let folder = EngineTestModel.Folder()
        let model = RaceModel.make()
        let parent = RaceModel.context(try RaceModel.seed(model, at: folder.store))
        let childRounds = 10
        let threads = StressThreads()
        for index in 0..<Self.children {
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = parent
            let handed = Handed(child)
            threads.start("child \(index)") {
                for round in 0..<childRounds { try Self.childRound(handed.value, index: index, round: round) }
            }
        }
        // A sibling reading through the parent, and the parent itself fetching and saving.
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.parent = parent
        let handedReader = Handed(reader)
        threads.start("sibling reader") {
            _ = try StressRounds.run(maximum: 30) { round in
                try handedReader.value.performAndWait { () throws in
                    handedReader.value.reset()
                    let items = try handedReader.value.fetch(RaceModel.request(batchSize: round % 2 == 0 ? 0 : 16))
                    try ensure(items.count == RaceModel.items && items.allSatisfy(RaceModel.isWhole), "a sibling read a partial item")
                }
            }
        }
        let handedParent = Handed(parent)
        threads.start("parent") {
            _ = try StressRounds.run(maximum: 30) { round in
                try handedParent.value.performAndWait { () throws in
                    let parent = handedParent.value
                    let items = try parent.fetch(RaceModel.request(batchSize: round % 2 == 0 ? 0 : 24))
                    try ensure(items.count == RaceModel.items && items.allSatisfy(RaceModel.isWhole), "the parent read a partial item")
                    let registered = parent.registeredObjects.filter { $0.entity.name == "Item" }
                    try ensure(registered.allSatisfy(RaceModel.isWhole), "the parent holds a partial object")
                    if round % 3 == 1 { try parent.save() }
                }
            }
        }
        threads.wait()
        try parent.performAndWait { () throws in
            let items = try parent.fetch(RaceModel.request())
            #expect(items.allSatisfy { RaceModel.isWhole($0) && RaceModel.version($0) == Int64(childRounds) })
            try parent.save()
        }
        let expected = (0..<RaceModel.items).map { _ in Int64(childRounds) }
        #expect(try RaceModel.storedVersions(model, at: folder.store) == expected)
    }
}
#endif

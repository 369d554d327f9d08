#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// 10,000 seeded random inserts, updates, deletes and moves within and across sections (new
/// sections appearing, emptied ones going), processed in batches: after every batch, applying
/// the reported changes to the previous results gives exactly what a fresh fetch returns.
struct FetchedResultsReplayTests {
    /// Common sections, and rare ones that come and go.
    static let common = ["b", "d", "f", "h", "j"]
    static let rare = ["a", "c", "e", "g", "i", "k"]

    static func section(_ random: inout SplitMix64) -> String {
        Int.random(in: 0..<4, using: &random) == 0 ? rare.randomElement(using: &random)! : common.randomElement(using: &random)!
    }

    static func sections(_ controller: NSFetchedResultsController<NSManagedObject>) -> [(name: String, objects: [ObjectIdentifier])] {
        (controller.sections ?? []).map { section in
            (section.name, (section.objects ?? []).map { ObjectIdentifier($0 as AnyObject) })
        }
    }

    /// The results of a fresh fetch, in sections.
    static func fetched(_ context: NSManagedObjectContext, _ request: NSFetchRequest<NSManagedObject>) throws
        -> [(name: String, objects: [ObjectIdentifier])]
    {
        var result: [(name: String, objects: [ObjectIdentifier])] = []
        for object in try context.fetch(request) {
            let name = object.value(forKey: "note") as? String ?? ""
            if result.last?.name != name { result.append((name, [])) }
            result[result.count - 1].objects.append(ObjectIdentifier(object))
        }
        return result
    }

    @Test func replayedChangesRebuildEveryFetchResult() throws {
        var random = SplitMix64(seed: 2026)
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            var live: [NSManagedObject] = []
            var serial = 0
            func insert() {
                serial += 1
                live.append(
                    EngineTestModel.insert(
                        "Trip", into: context,
                        ["name": "t\(serial)", "note": Self.section(&random), "legs": Int.random(in: 0..<40, using: &random)]))
            }
            for _ in 0..<60 { insert() }
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = ["note", "legs", "name"].map { NSSortDescriptor(key: $0, ascending: true) }
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "note", cacheName: nil)
            let recorder = FetchedResultsRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            var previous = Self.sections(controller)
            var changes = 0
            var batches = 0
            var kinds: [NSFetchedResultsChangeType: Int] = [:]
            var sectionChanges = 0
            while changes < 10_000 {
                let size = Int.random(in: 1...50, using: &random)
                for _ in 0..<size {
                    let roll = Int.random(in: 0..<100, using: &random)
                    if live.count < 20 || (roll < 25 && live.count < 100) {
                        insert()
                    } else if roll < 45 {
                        let index = Int.random(in: 0..<live.count, using: &random)
                        live.swapAt(index, live.count - 1)
                        context.delete(live.removeLast())
                    } else if roll < 65 {
                        live.randomElement(using: &random)!.setValue(Double.random(in: 0..<100, using: &random), forKey: "distance")
                    } else if roll < 85 {
                        live.randomElement(using: &random)!.setValue(Int.random(in: 0..<40, using: &random), forKey: "legs")
                    } else {
                        live.randomElement(using: &random)!.setValue(Self.section(&random), forKey: "note")
                    }
                }
                changes += size
                batches += 1
                recorder.reset()
                if Int.random(in: 0..<5, using: &random) == 0 { try context.save() } else { context.processPendingChanges() }
                let expected = try Self.fetched(context, request)
                let current = Self.sections(controller)
                #expect(current.map(\.name) == expected.map(\.name), "batch \(batches): section names")
                #expect(current.map(\.objects) == expected.map(\.objects), "batch \(batches): objects")
                let applied = try recorder.apply(to: previous)
                #expect(applied.map(\.name) == expected.map(\.name), "batch \(batches): replayed section names")
                #expect(applied.map(\.objects) == expected.map(\.objects), "batch \(batches): replayed objects")
                if recorder.events.isEmpty == false {
                    #expect(recorder.events.first == "will" && recorder.events.last == "did")
                }
                for change in recorder.objectChanges { kinds[change.type, default: 0] += 1 }
                sectionChanges += recorder.sectionChanges.count
                previous = expected
                if applied.map(\.objects) != expected.map(\.objects) { break }
            }
            // The run covered every kind of change.
            #expect(kinds[.insert, default: 0] > 500)
            #expect(kinds[.delete, default: 0] > 500)
            #expect(kinds[.update, default: 0] > 500)
            #expect(kinds[.move, default: 0] > 500)
            #expect(sectionChanges > 20)
        }
    }
}

#endif

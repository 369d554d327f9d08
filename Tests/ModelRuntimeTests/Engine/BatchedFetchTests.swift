#if !canImport(CoreData)
@testable import ModelRuntime
import Testing

/// `fetchBatchSize`: keys first, rows a batch at a time as objects are read.
struct BatchedFetchTests {
    static func seeded(_ count: Int) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for index in 0..<count {
                _ = EngineTestModel.insert("Trip", into: context, ["name": "trip \(index)", "legs": index])
            }
            try context.save()
            context.reset()
        }
        return context
    }

    @Test func iteratingABatchedFetchLoadsOneBatchPerQueryAndHoldsAtMostTwoBatches() throws {
        let rows = 1_050
        let size = 100
        let context = try Self.seeded(rows)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: false)]
            request.fetchBatchSize = size
            let trips = try context.fetch(request)
            #expect(trips.count == rows)
            #expect(trips.allSatisfy { $0.isFault })
            let batches = try #require(trips.first?.batches)
            #expect(batches.rowsHeld == 0)
            for (position, trip) in trips.enumerated() {
                let legs = trip.value(forKey: "legs") as? Int64
                #expect(legs == Int64(rows - 1 - position))
                #expect(trip.value(forKey: "name") as? String == "trip \(rows - 1 - position)")
                #expect(batches.rowsHeld <= 2 * size)
            }
            #expect(batches.maximumRowsHeld == 2 * size)
            #expect(batches.statementsRun == (rows + size - 1) / size + 1)
        }
    }

    @Test func releasedObjectsReloadTheirBatchAndChangedOnesKeepTheirValues() throws {
        let context = try Self.seeded(50)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.sortDescriptors = [NSSortDescriptor(key: "legs", ascending: true)]
            request.fetchBatchSize = 10
            let trips = try context.fetch(request)
            trips[0].setValue("changed", forKey: "name")
            _ = trips[45].value(forKey: "name")
            #expect(trips[1].isFault)
            #expect(trips[0].value(forKey: "name") as? String == "changed")
            #expect(trips[1].value(forKey: "name") as? String == "trip 1")
            #expect(trips[1].batches?.statementsRun == 4)
            try context.save()
        }
    }

    @Test func aBatchedFetchSeesTheSameObjectsAsAnUnbatchedOne() throws {
        let context = try Self.seeded(30)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "legs >= 5")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.fetchLimit = 12
            request.fetchOffset = 2
            let plain = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            context.reset()
            request.fetchBatchSize = 4
            let batched = try context.fetch(request)
            #expect(batched.compactMap { $0.value(forKey: "name") as? String } == plain)
            #expect(plain.count == 12)
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Arithmetic in fetch predicates and batch updates: translated to SQL, selecting what in-memory
/// evaluation selects; what SQL cannot compute is a thrown error.
struct ArithmeticFetchTests {
    static func seeded() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let rows: [(String, Int64, Double?)] = [("a", 1, 2.5), ("b", 2, 10), ("c", 3, nil), ("d", 4, 0.5), ("e", 7, 7), ("f", -5, 3)]
            for (name, legs, distance) in rows {
                var values: [String: Any] = ["name": name, "legs": legs]
                values["distance"] = distance ?? NSNull()
                _ = EngineTestModel.insert("Trip", into: context, values)
            }
            try context.save()
            context.reset()
        }
        return context
    }

    static func names(_ objects: [NSManagedObject]) -> [String] { objects.compactMap { $0.value(forKey: "name") as? String }.sorted() }

    @Test func fetchesWithArithmeticSelectWhatInMemoryEvaluationSelects() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let all = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            let formats = [
                "legs * 2 > 5", "legs + 1 == 4", "-legs < -2", "legs - 1 >= 2 * 1", "distance * legs > 10", "distance / legs >= 2",
                "legs / 2 == 1.5", "abs:(legs) > 3", "modulus:by:(legs, 2) == 1", "modulus:by:(legs, 2) == -1",
                "distance + 1 == nil", "distance - legs != 0", "legs + 1 BETWEEN {3, 5}", "legs * (1 + 1) IN {4, 8}",
                "1 + 1 == 2 AND legs > 3", "distance / 0 == nil", "legs * 9223372036854775807 > 0",
            ]
            for format in formats {
                let predicate = NSPredicate(format: format)
                let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
                request.predicate = predicate
                let fetched = Self.names(try context.fetch(request))
                let evaluated = Self.names(all.filter { predicate.evaluate(with: $0) })
                #expect(fetched == evaluated, "\(format)")
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSPredicate(format: "distance * legs > 10")
            #expect(Self.names(try context.fetch(request)) == ["b", "e"])
        }
    }

    @Test func arithmeticSQLCannotComputeIsAThrownError() throws {
        let context = try Self.seeded()
        context.performAndWait {
            for format in ["name + 1 > 2", "legs ** 2 > 4", "modulus:by:(distance, 2) == 1", "sqrt:(legs) > 1"] {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
                request.predicate = NSPredicate(format: format)
                #expect(throws: (any Error).self, "\(format)") { try context.fetch(request) }
            }
        }
    }

    @Test func batchUpdatesComputeParsedArithmetic() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSBatchUpdateRequest(entityName: "Trip")
            request.predicate = NSPredicate(format: "legs * 2 >= 8")
            request.propertiesToUpdate = ["legs": NSExpression(format: "legs * 10 + 1"), "distance": NSExpression(format: "-legs")]
            request.resultType = .updatedObjectsCountResultType
            #expect((try context.execute(request) as? NSBatchUpdateResult)?.result as? Int == 2)
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            fetch.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let trips = try context.fetch(fetch)
            #expect(trips.map { $0.value(forKey: "legs") as? Int64 } == [1, 2, 3, 41, 71, -5])
            #expect(trips[3].value(forKey: "distance") as? Double == -4)
        }
    }
}
#endif

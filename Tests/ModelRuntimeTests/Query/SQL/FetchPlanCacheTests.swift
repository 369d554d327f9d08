#if !canImport(CoreData)
@testable import ModelQuery
@testable import ModelRuntime
import ModelStore
import Testing

/// Fetch statements reused by request shape: a cached statement is exactly what translating the
/// request gives, shapes differ wherever the SQL can, and values only ever become bindings.
struct FetchPlanCacheTests {
    static func request(_ fixture: FetchSQLFixture, _ format: String, _ arguments: [Any], limit: Int = 0) -> FetchSQLRequest {
        FetchSQLRequest(
            entity: fixture.entity("Item"), predicate: NSPredicate(format: format, argumentArray: arguments), limit: limit,
            selection: .objectIDs)
    }

    @Test(arguments: [("Item", UInt64(11)), ("Special", 12), ("Person", 13), ("Part", 14), ("Tag", 15)])
    func cachedStatementsEqualFreshTranslationsForGeneratedPredicates(entity: String, seed: UInt64) throws {
        let fixture = try FetchSQLFixture()
        let cache = FetchPlanCache()
        var generator = PredicateGenerator(random: SeededGenerator(seed: seed), fixture: fixture, entity: entity)
        var shapes: [FetchPlanCache.ShapeKey: Int] = [:]
        // Each generated predicate is translated once directly and twice through the cache shared
        // by all of them, so shapes met before (with these or other constants) come from the cache.
        for index in 0..<100 {
            // Every other predicate is a single comparison without sorting: those repeat shapes.
            let nested = index.isMultiple(of: 2)
            let clause = nested ? generator.predicate() : generator.predicate(depth: 2)
            let predicate = try NSPredicate(parsing: clause.format, arguments: clause.arguments)
            let request = FetchSQLRequest(
                entity: fixture.entity(entity), predicate: predicate, sortDescriptors: nested ? generator.sortDescriptors() : [],
                selection: .objectIDs)
            if let key = FetchPlanCache.shape(of: request)?.key { shapes[key, default: 0] += 1 }
            let fresh: Result<FetchSQL, FetchSQLError> = Result { () throws(FetchSQLError) in
                try FetchSQLTranslator.translate(request, layout: fixture.layout)
            }
            for _ in 0..<2 {
                let cached: Result<FetchSQL, FetchSQLError> = Result { () throws(FetchSQLError) in
                    try cache.statement(for: request, layout: fixture.layout)
                }
                switch (fresh, cached) {
                case (.success(let fresh), .success(let cached)):
                    #expect(cached == fresh, "\(clause.format) \(clause.arguments)")
                    #expect(try fixture.primaryKeys(cached) == fixture.primaryKeys(fresh), "\(clause.format)")
                case (.failure(let fresh), .failure(let cached)):
                    #expect(cached.description == fresh.description)
                default:
                    Issue.record("\(clause.format): cached \(cached), translated \(fresh)")
                }
            }
        }
        #expect(cache.count > 0)
        #expect(cache.count <= shapes.count)
        // Some shapes came back with other constants.
        #expect(shapes.values.contains { $0 > 1 })
    }

    @Test func theSameShapeWithOtherConstantsBindsTheNewValuesAndSelectsOtherRows() throws {
        let fixture = try FetchSQLFixture()
        let cache = FetchPlanCache()
        var seen: Set<[Int64]> = []
        for value in [1, 5, 9, 14] {
            let request = Self.request(fixture, "count < %d AND name != %@", [value, "alpha"])
            let statement = try cache.statement(for: request, layout: fixture.layout)
            #expect(statement == (try FetchSQLTranslator.translate(request, layout: fixture.layout)))
            #expect(statement.bindings.first == .integer(Int64(value)))
            seen.insert(try fixture.primaryKeys(statement))
        }
        #expect(cache.count == 1)
        #expect(seen.count > 1)
    }

    @Test func differentShapesNeverShareAStatement() throws {
        let fixture = try FetchSQLFixture()
        let pairs: [(String, [Any], String, [Any])] = [
            ("count < %d", [3], "count > %d", [3]),
            ("count < %d", [3], "count <= %d", [3]),
            ("name == %@", ["a"], "name ==[c] %@", ["a"]),
            ("name == %@", ["a"], "link == %@", ["a"]),
            ("name == %@", ["a"], "name == %@", [NSNull()]),
            ("count == %@", [3], "count == %@", ["3"]),
            ("count == %@", [3], "count == %@", [3.5]),
            ("count == 1 AND score > 2", [], "count == 1 OR score > 2", []),
            ("count == 1 AND score > 2", [], "NOT (count == 1 AND score > 2)", []),
            ("ANY tags.label == %@", ["a"], "ALL tags.label == %@", ["a"]),
            ("owner.name == %@", ["a"], "owner.name == owner.name", []),
            ("TRUEPREDICATE", [], "FALSEPREDICATE", []),
        ]
        for (leftFormat, leftArguments, rightFormat, rightArguments) in pairs {
            let left = FetchPlanCache.shape(of: Self.request(fixture, leftFormat, leftArguments))
            let right = FetchPlanCache.shape(of: Self.request(fixture, rightFormat, rightArguments))
            #expect(left != nil && right != nil)
            #expect(left?.key != right?.key, "\(leftFormat) / \(rightFormat)")
        }
        let base = Self.request(fixture, "count < %d", [3])
        var limited = base
        limited.limit = 5
        var counted = base
        counted.selection = .count
        var exact = base
        exact.includesSubentities = false
        var sorted = base
        sorted.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        var sortedDown = base
        sortedDown.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
        var special = base
        special.entity = fixture.entity("Special")
        let keys = [base, limited, counted, exact, sorted, sortedDown, special].compactMap { FetchPlanCache.shape(of: $0)?.key }
        #expect(Set(keys).count == 7)
    }

    @Test func constantsTranslatedByValueAreNeverCached() throws {
        let fixture = try FetchSQLFixture()
        let cache = FetchPlanCache()
        let requests = [
            Self.request(fixture, "name IN %@", [["alpha", "beta"]]),
            Self.request(fixture, "name IN %@", [["alpha", "beta", "gamma"]]),
            Self.request(fixture, "name ==[c] %@", ["ALPHA"]),
            Self.request(fixture, "count BETWEEN {1, 5}", []),
            Self.request(fixture, "1 == 1", []),
            Self.request(fixture, "count == %@", ["not a number"]),
        ]
        for request in requests {
            for _ in 0..<2 {
                #expect(
                    try cache.statement(for: request, layout: fixture.layout)
                        == FetchSQLTranslator.translate(request, layout: fixture.layout))
            }
        }
        #expect(cache.count == 0)
    }

    @Test func aValueOfAnotherTypeIsAnotherShapeAndStillSelectsByItsOwnValue() throws {
        let fixture = try FetchSQLFixture()
        let cache = FetchPlanCache()
        let number = Self.request(fixture, "count == %@", [3])
        let text = Self.request(fixture, "count == %@", ["three"])
        #expect(FetchPlanCache.shape(of: number)?.key != FetchPlanCache.shape(of: text)?.key)
        let numberStatement = try cache.statement(for: number, layout: fixture.layout)
        let textStatement = try cache.statement(for: text, layout: fixture.layout)
        #expect(textStatement == (try FetchSQLTranslator.translate(text, layout: fixture.layout)))
        #expect(numberStatement != textStatement)
        #expect(try fixture.primaryKeys(textStatement).isEmpty)
        #expect(cache.count == 1)
    }
}
#endif

#if !canImport(CoreData)
import Foundation
@testable import ModelRuntime
import Testing

/// Dictionary fetches that compute aggregates in the store: `NSExpressionDescription`s,
/// `propertiesToGroupBy` and `havingPredicate`, checked against values computed in Swift from the
/// inserted rows.
struct AggregateFetchTests {
    struct Row {
        let name: String
        let note: String?
        let done: Bool
        let legs: Int64
        let distance: Double?
        let start: Date
    }

    static let notes: [String?] = [nil, "a", "b", "c"]

    static func row(_ index: Int) -> Row {
        let distance: Double? = index % 5 == 4 ? nil : Double(index) * 1.5
        let start = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400)
        return Row(
            name: "trip\(index)", note: notes[index % 4], done: index % 3 == 0, legs: Int64(index * 7 % 10), distance: distance,
            start: start)
    }

    static let rows: [Row] = (0..<12).map(row)

    static func seeded() throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            for row in rows {
                var values: [String: Any] = ["name": row.name, "done": row.done, "legs": row.legs, "start": row.start]
                if let note = row.note { values["note"] = note }
                let trip = EngineTestModel.insert("Trip", into: context, values)
                if row.distance == nil { trip.setValue(nil, forKey: "distance") } else { trip.setValue(row.distance, forKey: "distance") }
            }
            try context.save()
            context.reset()
        }
        return context
    }

    static func expression(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
        description.expressionResultType = type
        return description
    }

    static func request(_ properties: [Any]) -> NSFetchRequest<NSDictionary> {
        let request = NSFetchRequest<NSDictionary>(entityName: "Trip")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        return request
    }

    @Test func aggregatesOverTheWholeStoreGiveOneRowOfTheDeclaredTypes() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = Self.request([
                Self.expression("total", "sum:", "legs", .integer64AttributeType),
                Self.expression("count", "count:", "legs", .integer64AttributeType),
                Self.expression("longest", "max:", "distance", .doubleAttributeType),
                Self.expression("shortest", "min:", "legs", .integer64AttributeType),
                Self.expression("mean", "average:", "distance", .doubleAttributeType),
                Self.expression("first", "min:", "start", .dateAttributeType),
            ])
            let results = try context.fetch(request)
            try #require(results.count == 1)
            let row = results[0]
            let distances = Self.rows.compactMap(\.distance)
            #expect(row["total"] as? Int64 == Self.rows.map(\.legs).reduce(0, +))
            #expect(row["count"] as? Int64 == Int64(Self.rows.count))
            #expect(row["longest"] as? Double == distances.max())
            #expect(row["shortest"] as? Int64 == Self.rows.map(\.legs).min())
            let mean = try #require(row["mean"] as? Double)
            // AVG ignores nil values, as Core Data's SQL does.
            #expect(abs(mean - distances.reduce(0, +) / Double(distances.count)) < 1e-9)
            #expect(row["first"] as? Date == Self.rows.map(\.start).min())
        }
    }

    @Test func anUndefinedResultTypeGivesTheStoresNumber() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            // Core Data's examples leave expressionResultType unset for a count.
            let description = NSExpressionDescription()
            description.name = "trips"
            description.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "note")])
            let request = Self.request(["note", description])
            request.propertiesToGroupBy = ["note"]
            request.predicate = NSPredicate(format: "note != nil")
            let results = try context.fetch(request)
            let expected = Dictionary(grouping: Self.rows.filter { $0.note != nil }, by: \.note).mapValues(\.count)
            #expect(results.count == expected.count)
            for row in results {
                #expect((row["trips"] as? NSNumber)?.intValue == expected[row["note"] as? String])
            }
        }
    }

    @Test func countOfAnOptionalAttributeCountsOnlyRowsWithAValue() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let rows = try context.fetch(Self.request([Self.expression("n", "count:", "distance", .integer64AttributeType)]))
            #expect(rows.first?["n"] as? Int64 == Int64(Self.rows.filter { $0.distance != nil }.count))
        }
    }

    @Test func groupingByOneAttributeGivesOneRowPerValueSortedByIt() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = Self.request(["note", Self.expression("total", "sum:", "legs", .integer64AttributeType)])
            request.propertiesToGroupBy = ["note"]
            request.sortDescriptors = [NSSortDescriptor(key: "note", ascending: true)]
            let results = try context.fetch(request)
            let expected = Dictionary(grouping: Self.rows, by: \.note).mapValues { $0.map(\.legs).reduce(0, +) }
            try #require(results.count == expected.count)
            // NULL sorts first ascending; a nil group has no "note" key.
            #expect(results.map { $0["note"] as? String } == [nil, "a", "b", "c"])
            for row in results {
                #expect(row["total"] as? Int64 == expected[row["note"] as? String])
            }
        }
    }

    @Test func groupingByTwoAttributesAndPropertyDescriptions() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Trip"])
            let note = try #require(entity.propertiesByName["note"])
            let request = Self.request([note, "done", Self.expression("trips", "count:", "name", .integer64AttributeType)])
            request.propertiesToGroupBy = [note, "done"]
            request.sortDescriptors = [NSSortDescriptor(key: "note", ascending: true), NSSortDescriptor(key: "done", ascending: false)]
            let results = try context.fetch(request)
            struct Key: Hashable {
                let note: String?
                let done: Bool
            }
            let expected = Dictionary(grouping: Self.rows) { Key(note: $0.note, done: $0.done) }.mapValues { Int64($0.count) }
            #expect(results.count == expected.count)
            let got = Dictionary(
                uniqueKeysWithValues: results.map {
                    (Key(note: $0["note"] as? String, done: $0["done"] as? Bool ?? false), $0["trips"] as? Int64)
                })
            #expect(got == expected.mapValues { Optional($0) })
            let order = results.map { Key(note: $0["note"] as? String, done: $0["done"] as? Bool ?? false) }
            #expect(order == expected.keys.sorted { ($0.note ?? "", $0.done ? 0 : 1) < ($1.note ?? "", $1.done ? 0 : 1) })
        }
    }

    @Test func havingPredicateFiltersGroupsByAnAggregateNamedByKeyPathOrVariable() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let sums = Dictionary(grouping: Self.rows, by: \.note).mapValues { $0.map(\.legs).reduce(0, +) }
            let threshold: Int64 = sums.values.sorted()[1]
            let expected = Set(sums.filter { $0.value > threshold }.keys)
            for having in [NSPredicate(format: "total > %lld", threshold), NSPredicate(format: "$total > %lld", threshold)] {
                let request = Self.request(["note", Self.expression("total", "sum:", "legs", .integer64AttributeType)])
                request.propertiesToGroupBy = ["note"]
                request.havingPredicate = having
                let results = try context.fetch(request)
                #expect(Set(results.map { $0["note"] as? String }) == expected)
                #expect(results.allSatisfy { ($0["total"] as? Int64 ?? 0) > threshold })
            }
        }
    }

    @Test func predicateFiltersRowsBeforeTheyAreAggregated() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = Self.request([
                Self.expression("total", "sum:", "legs", .integer64AttributeType),
                Self.expression("distance", "sum:", "distance", .doubleAttributeType),
            ])
            request.predicate = NSPredicate(format: "done == YES")
            let row = try #require(try context.fetch(request).first)
            let done = Self.rows.filter(\.done)
            #expect(row["total"] as? Int64 == done.map(\.legs).reduce(0, +))
            #expect(row["distance"] as? Double == done.compactMap(\.distance).reduce(0, +))
        }
    }

    @Test func aggregatesOfNoRowsLeaveTheirKeysOutExceptCount() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = Self.request([
                Self.expression("total", "sum:", "legs", .integer64AttributeType),
                Self.expression("count", "count:", "legs", .integer64AttributeType),
            ])
            request.predicate = NSPredicate(format: "name == 'nothing'")
            let row = try #require(try context.fetch(request).first)
            #expect(row["total"] == nil)
            #expect(row["count"] as? Int64 == 0)
        }
    }

    @Test func arithmeticInsideAnExpressionDescription() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let description = NSExpressionDescription()
            description.name = "weighted"
            description.expression = NSExpression(
                forFunction: "sum:",
                arguments: [
                    NSExpression(
                        forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "legs"), NSExpression(forConstantValue: 2)])
                ])
            description.expressionResultType = .integer64AttributeType
            let row = try #require(try context.fetch(Self.request([description])).first)
            #expect(row["weighted"] as? Int64 == Self.rows.map { $0.legs * 2 }.reduce(0, +))
        }
    }

    @Test func groupingByAToOneRelationshipGivesTheDestinationsObjectIDs() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let trips = (0..<3).map { EngineTestModel.insert("Trip", into: context, ["name": "t\($0)"]) }
            let counts = [trips[0]: 3, trips[1]: 1]
            for (trip, count) in counts {
                for index in 0..<count { _ = EngineTestModel.insert("Stop", into: context, ["name": "s\(index)", "trip": trip]) }
            }
            _ = EngineTestModel.insert("Stop", into: context, ["name": "loose"])
            try context.save()
            let stops = NSExpressionDescription()
            stops.name = "stops"
            stops.expression = NSExpression(forFunction: "count:", arguments: [NSExpression.expressionForEvaluatedObject()])
            stops.expressionResultType = .integer64AttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "Stop")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["trip", stops]
            request.propertiesToGroupBy = ["trip"]
            request.predicate = NSPredicate(format: "trip != nil")
            let results = try context.fetch(request)
            let got = Dictionary(
                uniqueKeysWithValues: results.compactMap { row in
                    (row["trip"] as? NSManagedObjectID).map { ($0, row["stops"] as? Int64) }
                })
            #expect(got == Dictionary(uniqueKeysWithValues: counts.map { ($0.key.objectID, Optional(Int64($0.value))) }))
        }
    }

    @Test func sumOfADecimalAttributeIsADecimal() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait { () throws in
            let prices: [Decimal] = [Decimal(string: "1.25")!, Decimal(string: "2.5")!, 4]
            for (index, price) in prices.enumerated() {
                _ = EngineTestModel.insert("Trip", into: context, ["name": "t\(index)", "price": price])
            }
            try context.save()
            let row = try #require(
                try context.fetch(Self.request([Self.expression("total", "sum:", "price", .decimalAttributeType)])).first)
            #expect(row["total"] as? Decimal == prices.reduce(0, +))
        }
    }

    @Test func groupingWithoutDictionaryResultsIsRefused() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.propertiesToGroupBy = ["note"]
            let error = try #require(throws: NSError.self) { try context.fetch(request) }
            #expect(error.localizedDescription.contains("GROUP BY requires NSDictionaryResultType"))
            #expect(error.userInfo["NSExceptionName"] as? String == "NSInvalidArgumentException")
        }
    }

    @Test func aPropertyToFetchOutsideTheGroupByIsRefused() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = Self.request(["note", "name", Self.expression("total", "sum:", "legs", .integer64AttributeType)])
            request.propertiesToGroupBy = ["note"]
            let error = try #require(throws: NSError.self) { try context.fetch(request) }
            #expect(error.localizedDescription.contains("only contain properties named in the GROUP BY or aggregate functions"))
        }
    }

    @Test func havingWithoutGroupByAndUnknownKeyPathsAreRefused() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let having = Self.request([Self.expression("total", "sum:", "legs", .integer64AttributeType)])
            having.havingPredicate = NSPredicate(format: "total > 1")
            #expect(throws: NSError.self) { try context.fetch(having) }
            let unknown = Self.request([Self.expression("total", "sum:", "nonsense", .integer64AttributeType)])
            let error = try #require(throws: NSError.self) { try context.fetch(unknown) }
            #expect(error.localizedDescription.contains("nonsense"))
            let grouped = Self.request(["nonsense"])
            grouped.propertiesToGroupBy = ["nonsense"]
            #expect(throws: NSError.self) { try context.fetch(grouped) }
        }
    }

    @Test func aggregateFunctionsInAFetchPredicateAreRefused() throws {
        let context = try Self.seeded()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Trip")
            request.predicate = NSComparisonPredicate(
                leftExpression: NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "legs")]),
                rightExpression: NSExpression(forConstantValue: 1), modifier: .direct, type: .greaterThan)
            #expect(throws: NSError.self) { try context.fetch(request) }
        }
    }

    @Test func groupedSQLHasGroupByAndHaving() throws {
        let context = try Self.seeded()
        let request = Self.request(["note", Self.expression("total", "sum:", "legs", .integer64AttributeType)])
        request.propertiesToGroupBy = ["note"]
        request.havingPredicate = NSPredicate(format: "total > 3")
        let grouping = try DictionaryGrouping.grouping(of: request, defaultNames: [])
        let model = try #require(context.persistentStoreCoordinator?.engineModel)
        let layout = try #require(model.layout.entity(named: "Trip"))
        let sql = try FetchSQLTranslator.translate(FetchSQLRequest(entity: layout, selection: .grouped(grouping)), layout: model.layout)
        #expect(sql.sql == "SELECT t0.ZNOTE, SUM(t0.ZLEGS) FROM ZTRIP t0 GROUP BY t0.ZNOTE HAVING SUM(t0.ZLEGS) > ?")
        #expect(sql.resultColumns.last == .expression(name: "total"))
    }
}
#endif

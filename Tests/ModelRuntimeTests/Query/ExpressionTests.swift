#if !canImport(CoreData)
import ModelRuntime
import Testing

struct ExpressionTests {
    @Test func expressionsReportTheirTypeAndParts() {
        #expect(NSExpression(forConstantValue: 3).expressionType == .constantValue)
        #expect(NSExpression(forConstantValue: 3).constantValue as? Int == 3)
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        #expect(NSExpression(forVariable: "x").variable == "x")
        #expect(NSExpression(forKeyPath: "trip.name").keyPath == "trip.name")
        let function = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "scores")])
        #expect(function.expressionType == .function)
        #expect(function.function == "sum:")
        #expect(function.arguments?.count == 1)
        #expect(function.description == "sum:(scores)")
        let aggregate = NSExpression(forAggregate: [1, NSExpression(forKeyPath: "age")])
        #expect(aggregate.expressionType == .aggregate)
        #expect((aggregate.collection as? [NSExpression])?.count == 2)
        #expect(aggregate.description == "{1, age}")
    }

    @Test func subqueriesExposeCollectionVariableAndPredicate() throws {
        let expression = NSExpression(format: "SUBQUERY(trips, $t, $t.days > 2)")
        #expect(expression.expressionType == .subquery)
        #expect((expression.collection as? NSExpression)?.keyPath == "trips")
        #expect(expression.predicate.predicateFormat == "$t.days > 2")
        let inner = try #require(expression.predicate as? NSComparisonPredicate)
        #expect(inner.leftExpression.operand.variable == "t")
        #expect(inner.leftExpression.keyPath == "days")
        let matching = expression.expressionValue(with: QuerySamples.ana, context: nil) as? [Any]
        #expect(matching?.count == 1)
    }

    @Test func expressionValuesReadObjects() {
        #expect(NSExpression(format: "trip.name").expressionValue(with: QuerySamples.ana, context: nil) as? String == "Paris")
        #expect(NSExpression(format: "trips.@count").expressionValue(with: QuerySamples.ana, context: nil) as? Int == 2)
        #expect(NSExpression(format: "%K", "age").expressionValue(with: QuerySamples.ana, context: nil) as? Int == 34)
        #expect(NSExpression(format: "$v").expressionValue(with: nil, context: NSMutableDictionary(dictionary: ["v": 5])) as? Int == 5)
        let names = NSExpression(forKeyPath: "trips.name").expressionValue(with: QuerySamples.ana, context: nil) as? [Any]
        #expect(names?.compactMap { $0 as? String } == ["Paris", "Rome"])
    }

    @Test func functionsEvaluate() {
        func value(_ name: String, _ arguments: [Any]) -> Any? {
            NSExpression(forFunction: name, arguments: arguments).expressionValue(with: QuerySamples.ana, context: nil)
        }
        let scores = NSExpression(forKeyPath: "scores")
        #expect(value("sum:", [scores]) as? Int == 16)
        #expect(value("count:", [scores]) as? Int == 3)
        #expect(value("min:", [scores]) as? Int == 3)
        #expect(value("max:", [scores]) as? Int == 8)
        #expect(value("average:", [NSExpression(forConstantValue: [1, 2])]) as? Double == 1.5)
        #expect(value("add:to:", [2, 3]) as? Int == 5)
        #expect(value("from:subtract:", [2, 3]) as? Int == -1)
        #expect(value("multiply:by:", [2, 1.5]) as? Double == 3)
        #expect(value("divide:by:", [3, 2]) as? Double == 1.5)
        #expect(value("divide:by:", [3, 0]) == nil)
        #expect(value("abs:", [-4]) as? Int == 4)
        #expect(value("uppercase:", ["ab"]) as? String == "AB")
        #expect(value("noSuchFunction:", [1]) == nil)
    }
}
#endif

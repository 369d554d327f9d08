#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Format strings parse to comparisons with the expected modifier, operator, options and
/// expression kinds: the shape a store translates to SQL.
struct PredicateStructureTests {
    typealias Shape = (
        modifier: NSComparisonPredicate.Modifier, type: NSComparisonPredicate.Operator, options: UInt,
        left: NSExpression.ExpressionType, right: NSExpression.ExpressionType
    )

    static let shapes: [(format: String, shape: Shape)] = [
        ("a == 1", (.direct, .equalTo, 0, .keyPath, .constantValue)),
        ("a != 1", (.direct, .notEqualTo, 0, .keyPath, .constantValue)),
        ("a < 1", (.direct, .lessThan, 0, .keyPath, .constantValue)),
        ("a =< 1", (.direct, .lessThanOrEqualTo, 0, .keyPath, .constantValue)),
        ("a > 1", (.direct, .greaterThan, 0, .keyPath, .constantValue)),
        ("a => 1", (.direct, .greaterThanOrEqualTo, 0, .keyPath, .constantValue)),
        ("a MATCHES[c] 'x'", (.direct, .matches, 1, .keyPath, .constantValue)),
        ("a LIKE[d] 'x'", (.direct, .like, 2, .keyPath, .constantValue)),
        ("a BEGINSWITH[cd] 'x'", (.direct, .beginsWith, 3, .keyPath, .constantValue)),
        ("a ENDSWITH[n] 'x'", (.direct, .endsWith, 4, .keyPath, .constantValue)),
        ("a IN {1, 2}", (.direct, .in, 0, .keyPath, .aggregate)),
        ("a IN %@", (.direct, .in, 0, .keyPath, .constantValue)),
        ("a CONTAINS[c] $x", (.direct, .contains, 1, .keyPath, .variable)),
        ("a BETWEEN {1, 2}", (.direct, .between, 0, .keyPath, .aggregate)),
        ("ANY a.b == SELF", (.any, .equalTo, 0, .keyPath, .evaluatedObject)),
        ("SOME a == nil", (.any, .equalTo, 0, .keyPath, .constantValue)),
        ("ALL a.@count > 0", (.all, .greaterThan, 0, .keyPath, .constantValue)),
        ("SUBQUERY(a, $x, $x.b == 1).@count > 0", (.direct, .greaterThan, 0, .function, .constantValue)),
        ("$x.b == %K", (.direct, .equalTo, 0, .function, .keyPath)),
    ]

    @Test(arguments: shapes)
    func comparisonsParseToTheirShape(format: String, shape: Shape) throws {
        let arguments: [Any] = format.contains("%K") ? ["c"] : [[1, 2]]
        let comparison = try #require(try NSPredicate(parsing: format, arguments: arguments) as? NSComparisonPredicate)
        #expect(comparison.comparisonPredicateModifier == shape.modifier)
        #expect(comparison.predicateOperatorType == shape.type)
        #expect(comparison.options.rawValue == shape.options)
        #expect(comparison.leftExpression.expressionType == shape.left)
        #expect(comparison.rightExpression.expressionType == shape.right)
    }

    @Test func keyPathsWithOperandsExposeTheirOperand() throws {
        let comparison = try #require(NSPredicate(format: "SUBQUERY(trips, $t, $t.days > 2).@count > 0") as? NSComparisonPredicate)
        let count = comparison.leftExpression
        #expect(count.keyPath == "@count")
        #expect(count.operand.expressionType == .subquery)
        #expect(count.operand.predicate.predicateFormat == "$t.days > 2")
    }

    @Test func trueAndFalsePredicatesAreNeitherComparisonsNorCompounds() throws {
        let truePredicate = try NSPredicate(parsing: "TRUEPREDICATE")
        #expect(!(truePredicate is NSComparisonPredicate) && !(truePredicate is NSCompoundPredicate))
        #expect(truePredicate.evaluate(with: nil))
        #expect(!NSPredicate(format: "FALSEPREDICATE").evaluate(with: nil))
    }
}
#endif

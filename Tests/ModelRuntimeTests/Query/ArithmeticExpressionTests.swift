#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Arithmetic and function syntax in expression and predicate formats: parsed into Foundation's
/// function expressions, evaluated in memory, written back as operators.
struct ArithmeticExpressionTests {
    static func value(_ format: String, _ object: Any? = nil) -> Any? {
        NSExpression(format: format).expressionValue(with: object, context: nil)
    }

    @Test func operatorsBindAsInArithmetic() {
        #expect(Self.value("4 + 5 - 2 ** 3") as? Int == 1)
        #expect(Self.value("2 + 3 * 4") as? Int == 14)
        #expect(Self.value("(2 + 3) * 4") as? Int == 20)
        #expect(Self.value("10 - 4 - 3") as? Int == 3)
        #expect(Self.value("2 ** 3 ** 2") as? Int == 512)
        #expect(Self.value("2 ** -1") as? Double == 0.5)
        #expect(Self.value("2 ** 64") as? Double == 18_446_744_073_709_551_616)
        #expect(Self.value("7 / 2") as? Double == 3.5)
        #expect(Self.value("-3 + 1") as? Int == -2)
        #expect(Self.value("- (2 + 3)") as? Int == -5)
        #expect(Self.value("1 - -1") as? Int == 2)
    }

    @Test func operatorsBecomeFoundationsFunctionExpressions() throws {
        let sum = NSExpression(format: "age + 1")
        #expect(sum.expressionType == .function && sum.function == "add:to:")
        #expect(sum.arguments?.first?.keyPath == "age" && sum.arguments?.last?.constantValue as? Int == 1)
        #expect(NSExpression(format: "price * quantity").function == "multiply:by:")
        #expect(NSExpression(format: "a - b").function == "from:subtract:")
        #expect(NSExpression(format: "a / b").function == "divide:by:")
        #expect(NSExpression(format: "a ** 2").function == "raise:toPower:")
        let negated = NSExpression(format: "-age")
        #expect(negated.function == "from:subtract:" && negated.arguments?.first?.constantValue as? Int == 0)
        #expect(NSExpression(format: "-1").constantValue as? Int == -1)
    }

    @Test func functionCallsNameTheirSelector() {
        #expect(Self.value("add:to:(1, 2)") as? Int == 3)
        #expect(Self.value("abs:(-3)") as? Int == 3)
        #expect(Self.value("modulus:by:(-7, 3)") as? Int == -1)
        #expect(Self.value("sqrt:(16)") as? Double == 4)
        #expect(Self.value("sum:({1, 2, 3})") as? Int == 6)
        #expect(Self.value("now()") is Date)
        #expect(NSExpression(format: "count:(stops)").function == "count:")
    }

    @Test func arithmeticIsWrittenBackAsOperatorsThatParseToTheSameTree() {
        for (format, written) in [
            ("age + 1", "age + 1"), ("a - (b - c)", "a - (b - c)"), ("(a - b) - c", "a - b - c"), ("(a + b) * c", "(a + b) * c"),
            ("a * b + c", "a * b + c"), ("2 ** 3 ** 2", "2 ** 3 ** 2"), ("(2 ** 3) ** 2", "(2 ** 3) ** 2"), ("-age", "0 - age"),
            ("add:to:(x, multiply:by:(y, 2))", "x + y * 2"), ("abs:(x - 1)", "abs:(x - 1)"), ("now()", "now()"),
        ] {
            let expression = NSExpression(format: format)
            #expect(expression.description == written, "\(format)")
            #expect(NSExpression(format: written).description == written, "\(format)")
        }
        #expect(NSPredicate(format: "price * quantity > 100").predicateFormat == "price * quantity > 100")
    }

    @Test func predicatesCompareComputedValues() {
        let order: [String: Any] = ["price": 12.5, "quantity": 10, "discount": NSNull()]
        #expect(NSPredicate(format: "price * quantity > 100").evaluate(with: order))
        #expect(!NSPredicate(format: "price * quantity > 200").evaluate(with: order))
        #expect(NSPredicate(format: "quantity - 1 == 9").evaluate(with: order))
        #expect(NSPredicate(format: "-quantity < 0").evaluate(with: order))
        // A nil operand makes the value nil: no ordering holds, and it equals only nil.
        #expect(!NSPredicate(format: "discount + 1 > 0").evaluate(with: order))
        #expect(NSPredicate(format: "discount + 1 == nil").evaluate(with: order))
    }

    @Test func badArithmeticThrowsAndNeverStopsTheProgram() {
        for format in ["age +", "* 2", "age ** ", "add:to:(1)", "nope:(1)", "age + 1 +", "(age + 1", "FUNCTION(a)"] {
            #expect(throws: PredicateFormatError.self, "\(format)") { try NSExpression(parsing: format) }
        }
        // Arithmetic on values that are not numbers evaluates to nil, as a missing value does.
        #expect(Self.value("'a' + 1") == nil)
        #expect(Self.value("1 / 0") == nil)
    }
}
#endif

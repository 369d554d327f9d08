import Testing

@testable import ModelSchema

/// Mapping expressions in `NSExpression`'s format: printed as Xcode's mapping editor shows them,
/// read back to the same values, and text that is not an expression reported at its column.
struct MappingExpressionFormatTests {
    @Test func xcodesGeneratedExpressionsPrintAsItsEditorShowsThem() {
        #expect(MappingExpression.sourceValue("numberPlate").description == "$source.numberPlate")
        #expect(
            MappingExpression.destinationInstances(mappingName: "PersonToPerson", sourceRelationship: "owner").description
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)"#)
        #expect(
            MappingExpression.fetchSource(entityName: "Car").description
                == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        )
    }

    static let examples: [MappingExpression] = [
        .sourceValue("a.b.c"), .variable("entityPolicy"), .evaluatedObject, .keyPath(operand: .evaluatedObject, path: "name"),
        .constant(.null), .constant(.boolean(true)), .constant(.boolean(false)), .constant(.integer(-42)), .constant(.real(2.5)),
        .constant(.real(3)), .constant(.real(1e-7)), .constant(.string("quote \" back \\ line\n tab\t")), .constant(.date(-86400.5)),
        .constant(.data([0, 0xAB, 0xFF])), .aggregate([]), .aggregate([.constant(.integer(1)), .sourceValue("x")]),
        .function(target: .variable("manager"), selector: "sourceContext", arguments: []),
        .keyPath(
            operand: .function(target: .variable("source"), selector: "valueForKey:", arguments: [.constant(.string("k"))]), path: "count"),
        .fetchSource(entityName: "Car", predicate: "name == 'x'"),
        .fetch(request: .variable("request"), context: .sourceValue("managedObjectContext"), countOnly: true),
    ]

    @Test(arguments: examples)
    func printedExpressionsReadBackAsThemselves(_ expression: MappingExpression) throws {
        #expect(try MappingExpression(format: expression.description) == expression)
    }

    @Test func spacingAndSingleQuotesAreAccepted() throws {
        #expect(
            try MappingExpression(
                format: "  FUNCTION( $manager ,'destinationInstancesForEntityMappingNamed:sourceInstances:','AToA',$source . owner )")
                == .destinationInstances(mappingName: "AToA", sourceRelationship: "owner"))
        #expect(try MappingExpression(format: "(TRUE)") == .constant(.boolean(true)))
    }

    @Test(arguments: [
        ("$source.", 9, "expected a key after '.'"),
        ("FUNCTION($manager)", 18, "expected ',' after FUNCTION's target, found ')'"),
        ("FUNCTION($manager, sel)", 20, "expected FUNCTION's selector as a quoted string"),
        (#""open"#, 1, "the string is not closed"),
        ("$source.a $source.b", 11, "unexpected '$' after the expression"),
        ("now()", 1, "'now(…)' is not supported in mapping expressions; call a method with FUNCTION(target, \"selector:\", …)"),
        ("FETCH($r, $c, 1)", 15, "FETCH's third argument is YES or NO (count only)"),
        ("<abc>", 1, "data needs an even number of hexadecimal digits"),
        ("{1, 2", 6, "expected ',' between members, found the end"),
        ("", 1, "expected an expression, found the end"),
    ])
    func malformedTextIsAnErrorAtItsColumn(_ text: String, _ column: Int, _ message: String) {
        #expect(throws: MappingExpressionSyntaxError(message: message, column: column)) { try MappingExpression(format: text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "{", count: 10_000)
        #expect(throws: MappingExpressionSyntaxError.self) { try MappingExpression(format: text) }
    }
}

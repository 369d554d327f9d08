#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Formats that do not parse throw an error naming the problem and its offset.
struct PredicateFormatErrorTests {
    static let functionNames =
        "sum:, count:, min:, max:, average:, add:to:, from:subtract:, multiply:by:, divide:by:, modulus:by:, raise:toPower:, abs:, "
        + "sqrt:, floor:, ceiling:, trunc:, ln:, log:, exp:, uppercase:, lowercase:, now"
    static let errors: [(format: String, message: String, offset: Int)] = [
        ("", "expected a predicate, found the end of the format", 0),
        ("name ==", "expected an expression, found the end of the format", 7),
        ("name 'x'", "expected a comparison operator after name, found the string \"x\"", 5),
        ("name == 'x", "unterminated string", 8),
        ("(a == 1", "expected ')' to close '(', found the end of the format", 7),
        ("a == 1)", "unexpected ')' after a complete predicate", 6),
        ("a == 1 AND", "expected a predicate, found the end of the format", 10),
        ("size == 3", "'size' is a reserved word; write #size to use it as a key", 0),
        ("trip.first == 3", "'first' is a reserved word; write #first to use it as a key", 5),
        ("name ==[x] 'a'", "unknown comparison option 'x' (use c, d, n or l)", 8),
        ("name == %@", "the format has more specifiers than arguments", 8),
        ("name == %s", "unsupported format specifier '%s' (use %@, %K, %d, %i, %ld, %lld, %u, %lu, %f, %lf)", 8),
        ("age == %%", "'%%' (a literal percent sign) is only valid inside a quoted string", 7),
        ("age & 1 > 2", "bitwise and assignment expressions ('&') are not supported", 4),
        ("age := 1", "bitwise and assignment expressions (':') are not supported", 4),
        ("age + > 2", "expected an expression, found '>'", 6),
        ("noSuch:(age) > 2", "unknown function 'noSuch:' (supported: \(functionNames))", 0),
        ("abs:(age, 1) > 2", "the function 'abs:' takes 1 argument, not 2", 0),
        ("FUNCTION(age, 'x:y:', 1) > 2", "FUNCTION's selector \"x:y:\" takes 2 arguments, not 1", 0),
        ("FUNCTION(age, x) > 2", "FUNCTION needs the selector as a string such as \"uppercaseString\", found 'x'", 14),
        ("add:to:(age, 1 > 2", "expected ')' to close the arguments of 'add:to:', found '>'", 15),
        ("age BETWEEN 3", "BETWEEN needs a pair of bounds such as {1, 5}", 4),
        ("tags[FIRST] == 'a'", "index expressions ([FIRST], [LAST], [SIZE], [n]) are not supported", 4),
        ("SUBQUERY(trips, t, t.days > 1).@count > 0", "SUBQUERY needs an iteration variable such as $x, found 't'", 16),
        ("name == $", "'$' must be followed by a name", 8),
        ("age == 12abc", "a number runs into a name ('12a')", 7),
        ("born > CAST('x', \"NSDate\")", "cannot CAST \"x\" to NSDate", 7),
        ("a == {1, 2", "expected '}' to close the aggregate '{', found the end of the format", 10),
        ("name == 'a' name", "unexpected 'name' after a complete predicate", 12),
    ]

    @Test(arguments: errors)
    func badFormatsThrowWithMessageAndOffset(format: String, message: String, offset: Int) {
        #expect(throws: PredicateFormatError(message: message, format: format, offset: offset)) {
            try NSPredicate(parsing: format)
        }
    }

    @Test func keyArgumentsMustBeKeyPaths() {
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: "%K == 1", arguments: [3]) }
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: "%K == 1", arguments: ["a..b"]) }
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: "age == %d", arguments: ["x"]) }
    }

    @Test func errorDescriptionNamesFormatProblemAndOffset() throws {
        let error = try #require(throws: PredicateFormatError.self) { try NSPredicate(parsing: "name ==") }
        #expect(
            error.description
                == "unable to parse the format string \"name ==\": expected an expression, found the end of the format at offset 7")
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: deep) }
        let nots = String(repeating: "NOT ", count: 10_000) + "a == 1"
        #expect(throws: PredicateFormatError.self) { try NSPredicate(parsing: nots) }
    }

    @Test func randomFormatsParseOrThrowButNeverCrash() {
        let pieces = [
            "a", "b.c", "==", "!=", "<", ">=", "AND", "OR", "NOT", "(", ")", "{", "}", ",", "'x'", "\"y", "1", "0x1F", "2.5e3",
            "%@", "%K", "%d", "$v", "ANY", "ALL", "NONE", "BETWEEN", "IN", "CONTAINS[cd]", "LIKE", "MATCHES", "SUBQUERY", "$x.d",
            "@count", ".", "#size", "nil", "YES", "SELF", "[", "]", "TRUEPREDICATE", "CAST", "é", "\\", "%%", "!", "&&",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var parsed = 0
        for _ in 0..<3_000 {
            let format = (0..<(1 + next(9))).map { _ in pieces[next(pieces.count)] }.joined(separator: " ")
            if let predicate = try? NSPredicate(parsing: format, arguments: ["k", 2, 3]) {
                parsed += 1
                _ = predicate.evaluate(with: QuerySamples.ana)
                #expect((try? NSPredicate(parsing: predicate.predicateFormat)) != nil, "\(format) → \(predicate.predicateFormat)")
            }
        }
        #expect(parsed > 0)
    }

    @Test func parsingAsTheWrongSubclassThrows() {
        #expect(throws: PredicateFormatError.self) { try NSCompoundPredicate(parsing: "a == 1") }
        #expect(throws: Never.self) { try NSComparisonPredicate(parsing: "a == 1") }
    }
}
#endif

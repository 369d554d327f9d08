#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Predicates evaluated in memory against key-value objects and dictionaries.
struct PredicateEvaluationTests {
    /// Format, then whether it holds for `QuerySamples.ana` and for `QuerySamples.bob`.
    static let table: [(format: String, ana: Bool, bob: Bool)] = [
        // Comparisons across number types and Bool.
        ("age == 34", true, false),
        ("age == 34.0", true, false),
        ("age != 34", false, true),
        ("age > 18", true, false),
        ("age >= 34", true, false),
        ("age < 18", false, true),
        ("age <= 17", false, true),
        ("height > 1.75", false, true),
        ("height < 2", true, true),
        ("balance == 10.5", true, false),
        ("balance > 10", true, false),
        ("active == YES", true, false),
        ("active == 1", true, false),
        ("active == NO", false, true),
        ("age BETWEEN {18, 65}", true, false),
        ("age BETWEEN {34, 34}", true, false),
        ("age IN {17, 18}", false, true),
        // nil: equal only to nil, never ordered.
        ("nickname == nil", false, true),
        ("nickname != nil", true, false),
        ("born > nil", false, false),
        ("missing == nil", true, true),
        ("trip.name == nil", false, true),
        // Strings and options.
        ("name == 'Ana Müller'", true, false),
        ("name == 'ana müller'", false, false),
        ("name ==[c] 'ana müller'", true, false),
        ("name ==[cd] 'ANA MULLER'", true, false),
        ("name ==[d] 'Ana Muller'", true, false),
        ("name != 'bob'", true, false),
        ("name BEGINSWITH 'Ana'", true, false),
        ("name BEGINSWITH 'ana'", false, false),
        ("name BEGINSWITH[c] 'B'", false, true),
        ("name ENDSWITH 'ller'", true, false),
        ("name ENDSWITH[d] 'uller'", true, false),
        ("name CONTAINS 'a M'", true, false),
        ("name CONTAINS[cd] 'MUL'", true, false),
        ("name CONTAINS ''", false, false),
        ("name LIKE 'Ana*'", true, false),
        ("name LIKE 'A?a M*r'", true, false),
        ("name LIKE 'Ana'", false, false),
        ("name LIKE[c] 'BO?'", false, true),
        ("name LIKE '*'", true, true),
        ("name MATCHES 'Ana.*'", true, false),
        ("name MATCHES 'Ana'", false, false),
        ("name MATCHES '[a-z]+'", false, true),
        ("name MATCHES[c] '[A-Z]+'", false, true),
        ("name MATCHES 'a|ab|bob'", false, true),
        (#"name MATCHES '\w+'"#, false, true),
        (#"name MATCHES 'Ana\sM.*'"#, true, false),
        ("name > 'b'", false, true),
        ("name < 'B'", true, false),
        ("name <[c] 'B'", true, false),
        ("name IN {'bob', 'carl'}", false, true),
        ("name IN[c] {'BOB'}", false, true),
        ("'Müll' IN name", true, false),
        ("nickname IN[d] 'Ana and Bea'", true, false),
        // Dates and other values.
        ("born == %@", true, false),
        ("born < CAST(700000001.0, \"NSDate\")", true, false),
        ("born BETWEEN {CAST(0, \"NSDate\"), CAST(800000000, \"NSDate\")}", true, false),
        // Collections.
        ("tags CONTAINS 'swift'", true, false),
        ("tags CONTAINS[c] 'SWIFT'", true, false),
        ("ANY tags == 'travel'", true, false),
        ("ANY tags BEGINSWITH 'tr'", true, false),
        ("ALL tags.length > 100", false, true),
        ("NONE tags == 'swift'", false, true),
        ("ANY scores > 7", true, false),
        ("ALL scores > 2", true, true),
        ("ALL scores > 3", false, true),
        ("5 IN scores", true, false),
        ("tags.@count == 2", true, false),
        ("tags.@count == 0", false, true),
        ("scores.@sum == 16", true, false),
        ("scores.@max == 8 AND scores.@min == 3", true, false),
        ("trips.@count >= 2", true, false),
        ("trips.@sum.days == 6", true, false),
        ("trips.@avg.days == 3", true, false),
        ("trips.@max.days == 4", true, false),
        ("ANY trips.name == 'Rome'", true, false),
        ("ANY trips.country ==[c] 'italy'", true, false),
        ("ALL trips.days >= 2", true, true),
        ("trip.country == 'France'", true, false),
        ("trip.name IN {'Paris', 'Rome'}", true, false),
        ("SUBQUERY(trips, $t, $t.days > 3).@count == 1", true, false),
        ("SUBQUERY(trips, $t, $t.days > 3 AND $t.name BEGINSWITH 'P').@count > 0", true, false),
        // Compounds and constants.
        ("age > 18 AND name BEGINSWITH 'A'", true, false),
        ("age > 18 OR name == 'bob'", true, true),
        ("NOT age > 18", false, true),
        ("!(age > 18 && active == YES)", false, true),
        ("TRUEPREDICATE", true, true),
        ("FALSEPREDICATE", false, false),
        // Values that do not compare are false, never an error.
        ("name > 3", false, false),
        ("age BEGINSWITH '3'", false, false),
        ("age == '34'", false, false),
    ]

    @Test(arguments: table)
    func evaluatesAsFoundationDoes(format: String, ana: Bool, bob: Bool) throws {
        let predicate = try NSPredicate(parsing: format, arguments: [QuerySamples.reference])
        #expect(predicate.evaluate(with: QuerySamples.ana) == ana, "Ana: \(format)")
        #expect(predicate.evaluate(with: QuerySamples.bob) == bob, "bob: \(format)")
    }

    @Test func foundationNumbersCompareLikeSwiftNumbers() {
        let row: [String: Any] = ["count": NSNumber(value: 3), "ratio": NSNumber(value: 0.5), "flag": NSNumber(value: true)]
        #expect(NSPredicate(format: "count == 3 AND count > 2.5 AND ratio == 0.5 AND ratio < 1 AND flag == YES").evaluate(with: row))
        #expect(NSPredicate(format: "count IN %@", [Int64(3)]).evaluate(with: row))
        #expect(NSPredicate(format: "count == %@", UInt8(3)).evaluate(with: row))
    }

    @Test func foundationObjectsCompareLikeTheirSwiftValues() {
        let date = QuerySamples.reference
        let row: [String: Any] = ["name": NSString(string: "Ana"), "born": NSDate(timeIntervalSinceReferenceDate: 700_000_000)]
        let predicate = NSPredicate(format: "name == 'Ana' AND name BEGINSWITH[c] 'a' AND born == %@", date as NSDate)
        #expect(predicate.evaluate(with: row))
        #expect(predicate.predicateFormat == #"(name == "Ana" AND name BEGINSWITH[c] "a") AND born == CAST(700000000.000000, "NSDate")"#)
        #expect(NSPredicate(format: "born < %@", date.addingTimeInterval(1)).evaluate(with: row))
        #expect(NSPredicate(format: "name IN %@", NSArray(array: ["Bo", "Ana"])).evaluate(with: row))
    }

    @Test func normalizedAndLocaleOptionsKeepTheComparison() {
        #expect(NSPredicate(format: "name ==[n] 'bob'").evaluate(with: QuerySamples.bob))
        #expect(NSPredicate(format: "name ==[cl] 'BOB'").evaluate(with: QuerySamples.bob))
        #expect(!NSPredicate(format: "name ==[n] 'BOB'").evaluate(with: QuerySamples.bob))
    }

    @Test func inAndContainsNeedSomethingToLookIn() {
        #expect(!NSPredicate(format: "name IN %@", NSNull()).evaluate(with: QuerySamples.bob))
        #expect(!NSPredicate(format: "missing CONTAINS 'a'").evaluate(with: QuerySamples.bob))
        #expect(!NSPredicate(format: "ANY missing == 'a'").evaluate(with: QuerySamples.bob))
    }

    @Test func precomposedAndDecomposedStringsAreEqual() {
        let decomposed = "Mu\u{0308}ller"
        #expect(NSPredicate(format: "SELF == %@", "Müller").evaluate(with: decomposed))
        #expect(NSPredicate(format: "SELF CONTAINS[d] 'mull'").evaluate(with: decomposed) == false)
        #expect(NSPredicate(format: "SELF CONTAINS[cd] 'mull'").evaluate(with: decomposed))
    }

    @Test func dictionariesAreKeyValueObjects() {
        let row: [String: Any] = ["name": "Ana", "trip": ["name": "Paris"], "count": 3]
        #expect(NSPredicate(format: "trip.name == 'Paris' AND count == 3").evaluate(with: row))
        #expect(!NSPredicate(format: "trip.name == 'Rome'").evaluate(with: row))
    }

    @Test func selfIsTheEvaluatedValue() {
        #expect(NSPredicate(format: "SELF BEGINSWITH 'a'").evaluate(with: "abc"))
        #expect(NSPredicate(format: "SELF IN %@", [1, 2, 3]).evaluate(with: 2))
        #expect(!NSPredicate(format: "SELF > 5").evaluate(with: 2))
        #expect(NSPredicate(format: "SELF == nil").evaluate(with: nil))
        let names = ["Ana", "bob", "Bea"]
        let filtered = names.filter { NSPredicate(format: "SELF BEGINSWITH[c] 'b'").evaluate(with: $0) }
        #expect(filtered == ["bob", "Bea"])
    }

    @Test func substitutionVariablesBindAtEvaluation() {
        let predicate = NSPredicate(format: "age > $MIN AND name BEGINSWITH $PREFIX")
        #expect(predicate.evaluate(with: QuerySamples.ana, substitutionVariables: ["MIN": 30, "PREFIX": "A"]))
        #expect(!predicate.evaluate(with: QuerySamples.ana, substitutionVariables: ["MIN": 40, "PREFIX": "A"]))
        #expect(!predicate.evaluate(with: QuerySamples.ana))
    }

    @Test func managedValuesCompareThroughTheExtensionPoint() {
        struct ObjectID: PredicateComparableValue {
            let number: Int
            var predicateComparisonValue: Any { number }
            var predicateFormatDescription: String { "<x-coredata://store/Trip/p\(number)>" }
        }
        let predicate = NSPredicate(format: "trip == %@", ObjectID(number: 7))
        #expect(predicate.predicateFormat == "trip == <x-coredata://store/Trip/p7>")
        #expect(predicate.evaluate(with: ["trip": ObjectID(number: 7)]))
        #expect(!predicate.evaluate(with: ["trip": ObjectID(number: 8)]))
    }

    @Test func objectsCompareByIdentityOrEquality() {
        #expect(NSPredicate(format: "trip == %@", QuerySamples.paris).evaluate(with: QuerySamples.ana))
        #expect(!NSPredicate(format: "trip == %@", QuerySamples.rome).evaluate(with: QuerySamples.ana))
        #expect(NSPredicate(format: "%@ IN trips", QuerySamples.rome).evaluate(with: QuerySamples.ana))
        #expect(NSPredicate(format: "id == %@", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!).evaluate(with: QuerySamples.ana))
    }

    @Test func likePatternsNeverBacktrackForever() {
        let long = String(repeating: "a", count: 5000)
        #expect(!NSPredicate(format: "SELF LIKE %@", String(repeating: "*a", count: 200) + "b").evaluate(with: long))
        #expect(NSPredicate(format: #"SELF LIKE 'a\*b'"#).evaluate(with: "a*b"))
        #expect(!NSPredicate(format: #"SELF LIKE 'a\*b'"#).evaluate(with: "axb"))
    }

    @Test func invalidRegularExpressionsMatchNothing() {
        #expect(!NSPredicate(format: "SELF MATCHES '(['").evaluate(with: "(["))
    }
}
#endif

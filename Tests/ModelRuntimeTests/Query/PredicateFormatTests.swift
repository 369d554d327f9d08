#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Format strings parse to the expected tree and write back as Foundation's `predicateFormat`.
struct PredicateFormatTests {
    static let roundTrips: [(format: String, written: String)] = [
        ("name == 'Ana'", #"name == "Ana""#),
        ("name = \"Ana\"", #"name == "Ana""#),
        ("age != 3", "age != 3"),
        ("age <> 3", "age != 3"),
        ("age < 3", "age < 3"),
        ("age <= 3", "age <= 3"),
        ("age =< 3", "age <= 3"),
        ("age > 3", "age > 3"),
        ("age >= 3", "age >= 3"),
        ("age => 3", "age >= 3"),
        ("age BETWEEN {1, 5}", "age BETWEEN {1, 5}"),
        ("name IN {'a', 'b'}", #"name IN {"a", "b"}"#),
        ("name beginswith[c] 'a'", #"name BEGINSWITH[c] "a""#),
        ("name ENDSWITH[d] 'a'", #"name ENDSWITH[d] "a""#),
        ("name CONTAINS[cd] 'a'", #"name CONTAINS[cd] "a""#),
        ("name LIKE[n] 'a*'", #"name LIKE[n] "a*""#),
        ("name like[l] 'a?'", #"name LIKE[l] "a?""#),
        ("name MATCHES 'a.*'", #"name MATCHES "a.*""#),
        ("name ==[c] 'a'", #"name ==[c] "a""#),
        ("a == 1 AND b == 2", "a == 1 AND b == 2"),
        ("a == 1 && b == 2 && c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 || b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("NOT a == 1", "NOT a == 1"),
        ("!(a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("NONE tags == 'x'", #"NOT ANY tags == "x""#),
        ("ANY trips.name == 'Rome'", #"ANY trips.name == "Rome""#),
        ("SOME trips.name == 'Rome'", #"ANY trips.name == "Rome""#),
        ("ALL trips.days > 1", "ALL trips.days > 1"),
        ("trips.@count > 1", "trips.@count > 1"),
        ("trips.@sum.days == 6", "trips.@sum.days == 6"),
        ("trip.name == nil", "trip.name == nil"),
        ("name == NULL", "name == nil"),
        ("active == YES", "active == 1"),
        ("active == false", "active == 0"),
        ("SELF == 'x'", #"SELF == "x""#),
        ("SELF.name == 'x'", #"name == "x""#),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("age == 0x1F", "age == 31"),
        ("height > 1.5e0", "height > 1.5"),
        ("height > -2.25", "height > -2.25"),
        ("age == 1e3", "age == 1000"),
        ("name == $NAME", "name == $NAME"),
        ("#size == 3", "#size == 3"),
        ("trip.#first == 1", "trip.#first == 1"),
        (#"name == 'a\'b'"#, #"name == "a'b""#),
        (#"name == "say \"hi\"""#, #"name == "say \"hi\"""#),
        ("SUBQUERY(trips, $t, $t.days > 2).@count > 0", "SUBQUERY(trips, $t, $t.days > 2).@count > 0"),
        ("born > CAST(700000000.000000, \"NSDate\")", "born > CAST(700000000.000000, \"NSDate\")"),
        ("name == '%@'", #"name == "%@""#),
        (
            "SUBQUERY(alliances, $a, ANY $a.teams.key IN {'frc7332'}).@count > 0",
            #"SUBQUERY(alliances, $a, ANY $a.teams.key IN {"frc7332"}).@count > 0"#
        ),
        ("NOT isActive == YES", "NOT isActive == 1"),
        ("NOT extraInt BETWEEN {1, 3}", "NOT extraInt BETWEEN {1, 3}"),
    ]

    @Test(arguments: roundTrips)
    func formatWritesBackAsFoundationDoes(format: String, written: String) throws {
        let predicate = try NSPredicate(parsing: format)
        #expect(predicate.predicateFormat == written)
        #expect(predicate.description == written)
        // What Foundation writes parses back to the same predicate.
        #expect(try NSPredicate(parsing: written).predicateFormat == written)
    }

    @Test func comparisonParsesToItsParts() throws {
        let predicate = try #require(NSPredicate(format: "ANY trips.name BEGINSWITH[cd] %@", "ro") as? NSComparisonPredicate)
        #expect(predicate.comparisonPredicateModifier == .any)
        #expect(predicate.predicateOperatorType == .beginsWith)
        #expect(predicate.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(predicate.leftExpression.expressionType == .keyPath)
        #expect(predicate.leftExpression.keyPath == "trips.name")
        #expect(predicate.rightExpression.expressionType == .constantValue)
        #expect(predicate.rightExpression.constantValue as? String == "ro")
    }

    @Test func compoundParsesToBinaryTrees() throws {
        let predicate = try #require(NSPredicate(format: "a == 1 AND b == 2 AND c == 3") as? NSCompoundPredicate)
        #expect(predicate.compoundPredicateType == .and)
        #expect(predicate.subpredicates.count == 2)
        let inner = try #require(predicate.subpredicates[0] as? NSCompoundPredicate)
        #expect(inner.compoundPredicateType == .and)
        #expect((predicate.subpredicates[1] as? NSComparisonPredicate)?.leftExpression.keyPath == "c")
    }

    @Test func noneParsesAsNotAny() throws {
        let predicate = try #require(NSPredicate(format: "NONE tags == 'x'") as? NSCompoundPredicate)
        #expect(predicate.compoundPredicateType == .not)
        #expect((predicate.subpredicates.first as? NSComparisonPredicate)?.comparisonPredicateModifier == .any)
    }

    @Test func rawValuesAreFoundations() {
        #expect(NSComparisonPredicate.Operator.lessThan.rawValue == 0)
        #expect(NSComparisonPredicate.Operator.equalTo.rawValue == 4)
        #expect(NSComparisonPredicate.Operator.in.rawValue == 10)
        #expect(NSComparisonPredicate.Operator.customSelector.rawValue == 11)
        #expect(NSComparisonPredicate.Operator.contains.rawValue == 99)
        #expect(NSComparisonPredicate.Operator.between.rawValue == 100)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSComparisonPredicate.Options([.caseInsensitive, .diacriticInsensitive, .normalized]).rawValue == 7)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
        #expect(NSExpression.ExpressionType.subquery.rawValue == 13)
        #expect(NSExpression.ExpressionType.aggregate.rawValue == 14)
    }

    @Test func formatArgumentsSubstituteValuesAndKeys() throws {
        let date = QuerySamples.reference
        let cases: [(NSPredicate, String)] = [
            (NSPredicate(format: "%K == %@", "trip.name", "Paris"), #"trip.name == "Paris""#),
            (NSPredicate(format: "age == %d AND days == %i", 3, 4), "age == 3 AND days == 4"),
            (
                NSPredicate(format: "age == %ld OR age == %lld OR age == %u OR age == %lu", 1, 2, 3, 4),
                "((age == 1 OR age == 2) OR age == 3) OR age == 4"
            ),
            (NSPredicate(format: "height > %f", 1.5), "height > 1.5"),
            (NSPredicate(format: "height > %lf", 2), "height > 2"),
            (NSPredicate(format: "born > %@", date), "born > CAST(700000000.000000, \"NSDate\")"),
            (NSPredicate(format: "name IN %@", ["a", "b"]), #"name IN {"a", "b"}"#),
            (NSPredicate(format: "name == %@", NSNull()), "name == nil"),
            (NSPredicate(format: "name == %@", Optional<String>.none as Any), "name == nil"),
            (NSPredicate(format: "active == %@", true), "active == 1"),
            (NSPredicate(format: "balance == %@", Decimal(string: "10.5")!), "balance == 10.5"),
            (
                NSPredicate(format: "id == %@", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
                "id == E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            ),
            (NSPredicate(format: "name == %@ AND SELF.name == $n", "x"), #"name == "x" AND name == $n"#),
            (NSPredicate(format: "%K.@count == 2", "trips"), "trips.@count == 2"),
            (NSPredicate(format: "name == 'x'", argumentArray: nil), #"name == "x""#),
            (NSPredicate(format: "age IN %@", Set([3, 1, 2])), "age IN {1, 2, 3}"),
            (NSPredicate(format: "age == %@ OR height == %@", NSNumber(value: 7), NSNumber(value: 1.25)), "age == 7 OR height == 1.25"),
            (NSPredicate(format: "data == %@", Data([1, 0xAB])), "data == {length = 2, bytes = 0x01ab}"),
            (NSPredicate(format: "name == %@", "back\\slash\n"), #"name == "back\\slash\n""#),
        ]
        for (predicate, written) in cases {
            #expect(predicate.predicateFormat == written)
        }
    }

    @Test func builtPredicatesWriteLikeParsedOnes() {
        let name = NSExpression(forKeyPath: "name")
        let comparison = NSComparisonPredicate(
            leftExpression: name, rightExpression: NSExpression(forConstantValue: "a"), modifier: .direct, type: .like,
            options: [.caseInsensitive])
        #expect(comparison.predicateFormat == #"name LIKE[c] "a""#)
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [comparison, NSPredicate(value: true)])
        #expect(or.predicateFormat == #"name LIKE[c] "a" OR TRUEPREDICATE"#)
        #expect(
            NSCompoundPredicate(andPredicateWithSubpredicates: [or, comparison]).predicateFormat
                == #"(name LIKE[c] "a" OR TRUEPREDICATE) AND name LIKE[c] "a""#)
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: comparison).predicateFormat == #"NOT name LIKE[c] "a""#)
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).predicateFormat == "TRUEPREDICATE")
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat == "FALSEPREDICATE")
        #expect(NSPredicate(value: false).predicateFormat == "FALSEPREDICATE")
    }

    @Test func equalPredicatesAreEqualAndHashAlike() {
        let a = NSPredicate(format: "name == %@", "x")
        let b = NSPredicate(format: "name = 'x'")
        #expect(a == b)
        #expect(a.hash == b.hash)
        #expect(a != NSPredicate(format: "name == 'y'"))
        #expect(Set([a, b]).count == 1)
    }

    @Test func substitutionReplacesVariables() {
        let template = NSPredicate(format: "name == $NAME AND age > $AGE")
        let bound = template.withSubstitutionVariables(["NAME": "Ana", "AGE": 30])
        #expect(bound.predicateFormat == #"name == "Ana" AND age > 30"#)
        #expect(bound is NSCompoundPredicate)
        #expect(template.withSubstitutionVariables(["NAME": "Ana"]).predicateFormat == #"name == "Ana" AND age > $AGE"#)
    }
}
#endif

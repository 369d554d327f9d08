import Testing

@testable import ModelSchema

/// Predicates in `NSPredicate`'s format: read into values, printed back in Foundation's canonical
/// form (which reads back to the same value), and text that is not a predicate reported at its
/// column.
struct ModelPredicateTests {
    /// Text as written → the canonical form it prints as.
    static let canonicalForms: [(String, String)] = [
        ("folder == $FETCH_SOURCE", "folder == $FETCH_SOURCE"),
        ("author.alias == $FETCH_SOURCE.alias AND rating >= 3", "author.alias == $FETCH_SOURCE.alias AND rating >= 3"),
        (#"name BEGINSWITH[cd] "a""#, #"name BEGINSWITH[cd] "a""#),
        (#"ANY tags.name IN {"x","y"}"#, #"ANY tags.name IN {"x", "y"}"#),
        ("NOT (done == YES)", "NOT done == YES"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("rating >= $FETCHED_PROPERTY.userInfo.limit", "rating >= $FETCHED_PROPERTY.userInfo.limit"),
        ("a = 1 && b <> 2 || !(c =< 3)", "(a == 1 AND b != 2) OR (NOT c <= 3)"),
        ("a == 1 AND b == 2 AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("a == 1 OR (b == 2 AND c => 3)", "a == 1 OR (b == 2 AND c >= 3)"),
        (#"NONE tags.name == "x""#, #"NOT ANY tags.name == "x""#),
        (#"some notes.title CONTAINS[n] 'y'"#, #"ANY notes.title CONTAINS[n] "y""#),
        ("ALL items.price > 2.5", "ALL items.price > 2.5"),
        ("#size > 3 and SELF.title endswith 'x'", #"#size > 3 AND title ENDSWITH "x""#),
        ("name LIKE[c] 'a*' OR name MATCHES '[a-z]+'", #"name LIKE[c] "a*" OR name MATCHES "[a-z]+""#),
        ("price BETWEEN {1, 5}", "price BETWEEN {1, 5}"),
        (#"deleted == NO AND due < CAST(0, "NSDate") AND note != nil"#, #"(deleted == NO AND due < CAST(0.0, "NSDate")) AND note != nil"#),
        ("SELF IN $FETCH_SOURCE.related", "SELF IN $FETCH_SOURCE.related"),
        ("tags.@count > 0", "tags.@count > 0"),
        ("title ==[cdl] 'A' AND count < -2", #"title ==[cdl] "A" AND count < -2"#),
    ]

    @Test(arguments: canonicalForms)
    func readsAndPrintsTheCanonicalForm(_ text: String, _ canonical: String) throws {
        let predicate = try ModelPredicate(format: text)
        #expect(predicate.description == canonical)
        #expect(try ModelPredicate(format: canonical) == predicate)
    }

    @Test func readsTheTreeFoundationsParserBuilds() throws {
        #expect(
            try ModelPredicate(format: "folder == $FETCH_SOURCE")
                == .comparison(.init(.keyPath(operand: .evaluatedObject, path: "folder"), .equalTo, .variable("FETCH_SOURCE"))))
        #expect(
            try ModelPredicate(format: "a == 1 AND b == 2 AND c == 3")
                == .and([
                    .and([
                        .comparison(.init(.keyPath(operand: .evaluatedObject, path: "a"), .equalTo, .constant(.integer(1)))),
                        .comparison(.init(.keyPath(operand: .evaluatedObject, path: "b"), .equalTo, .constant(.integer(2)))),
                    ]),
                    .comparison(.init(.keyPath(operand: .evaluatedObject, path: "c"), .equalTo, .constant(.integer(3)))),
                ]))
        #expect(
            try ModelPredicate(format: "NONE tags.name IN {'x'}")
                == .not(
                    .comparison(
                        .init(
                            .keyPath(operand: .evaluatedObject, path: "tags.name"), .in, .aggregate([.constant(.string("x"))]),
                            modifier: .any))))
        #expect(
            try ModelPredicate(format: "name BEGINSWITH[cd] 'a'")
                == .comparison(
                    .init(
                        .keyPath(operand: .evaluatedObject, path: "name"), .beginsWith, .constant(.string("a")),
                        options: [.caseInsensitive, .diacriticInsensitive])))
    }

    /// Text → the message and column of the problem.
    static let problems: [(String, String, Int)] = [
        ("", "expected a predicate, found the end", 1),
        (#"title BEGINSWITH[cd "a""#, "' ' is not a comparison option (c, d, n or l)", 20),
        (
            "title",
            "expected a comparison operator (==, !=, <, <=, >, >=, MATCHES, LIKE, BEGINSWITH, ENDSWITH, IN, CONTAINS, BETWEEN), found the end",
            6
        ),
        ("title == 'a' AND", "expected a comparison, found the end", 17),
        ("size > 3", "'size' is a reserved word; write #size for a key of that name", 1),
        ("a.first == 1", "'first' is a reserved word; write #first for a key of that name", 3),
        (
            "SUBQUERY(tags, $t, $t.name == 'x').@count > 0",
            #"'SUBQUERY(…)' is not supported in predicates; call a method with FUNCTION(target, "selector:", …)"#, 1
        ),
        ("title == 'a' )", "unexpected ')' after the predicate", 14),
        ("(title == 'a'", "expected ')' to close '(', found the end", 14),
        ("title == ", "expected the right side of '==', found the end", 10),
        ("title == %@", "unexpected '%'", 10),
    ]

    @Test(arguments: problems)
    func reportsWhatCannotBeReadAtItsColumn(_ text: String, _ message: String, _ column: Int) {
        #expect(throws: MappingExpressionSyntaxError(message: message, column: column)) { try ModelPredicate(format: text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let negations = String(repeating: "NOT ", count: 200) + "a == 1"
        #expect(throws: MappingExpressionSyntaxError.self) { try ModelPredicate(format: negations) }
        let chain = (0..<200).map { "a == \($0)" }.joined(separator: " AND ")
        #expect(throws: MappingExpressionSyntaxError.self) { try ModelPredicate(format: chain) }
        let parentheses = String(repeating: "(", count: 200) + "a == 1" + String(repeating: ")", count: 200)
        #expect(throws: MappingExpressionSyntaxError.self) { try ModelPredicate(format: parentheses) }
        #expect(throws: Never.self) { try ModelPredicate(format: (0..<40).map { "a == \($0)" }.joined(separator: " OR ")) }
    }

    @Test func reservedKeysAreEscapedWhenPrinted() {
        let predicate = ModelPredicate.comparison(
            .init(
                .keyPath(operand: .variable("FETCH_SOURCE"), path: "first.size"), .equalTo, .keyPath(operand: .evaluatedObject, path: "in"))
        )
        #expect(predicate.description == "$FETCH_SOURCE.#first.#size == #in")
        #expect((try? ModelPredicate(format: predicate.description)) == predicate)
    }

    // MARK: Archives

    static func archived(_ predicate: ModelPredicate) -> PropertyList {
        var builder = KeyedArchiveBuilder()
        let root = builder.predicate(predicate)
        return builder.archive(root: root)
    }

    static func decoded(_ archive: PropertyList) throws -> ModelPredicate? {
        let reader = try KeyedArchiveReader(archive)
        return try MappingArchiveReader(archive: reader).predicate(.uid(reader.root), what: "the predicate")
    }

    @Test(arguments: canonicalForms.map(\.0))
    func archivesReadBackToTheSameValue(_ text: String) throws {
        let predicate = try ModelPredicate(format: text)
        let bytes = BinaryPropertyList.encode(Self.archived(predicate))
        #expect(try Self.decoded(BinaryPropertyList.decode(bytes)) == predicate)
        #expect(BinaryPropertyList.encode(Self.archived(predicate)) == bytes)
    }

    /// The operator object of each operator: Foundation's class for it and the keys that class
    /// encodes.
    static let operatorClasses: [(String, String, [String: String])] = [
        ("a < 1", "NSComparisonPredicateOperator", ["NSOperatorType": "0", "NSModifier": "0", "NSVariant": "0", "NSOptions": "0"]),
        ("a >= 1", "NSComparisonPredicateOperator", ["NSOperatorType": "3", "NSModifier": "0", "NSVariant": "3", "NSOptions": "0"]),
        ("a ==[c] 'x'", "NSEqualityPredicateOperator", ["NSOperatorType": "4", "NSModifier": "0", "NSNegate": "false", "NSOptions": "1"]),
        ("ANY a != 1", "NSEqualityPredicateOperator", ["NSOperatorType": "5", "NSModifier": "2", "NSNegate": "true", "NSOptions": "0"]),
        ("a MATCHES 'x'", "NSMatchingPredicateOperator", ["NSOperatorType": "6", "NSModifier": "0", "NSFlags": "0"]),
        ("a LIKE[cd] 'x'", "NSLikePredicateOperator", ["NSOperatorType": "7", "NSModifier": "0", "NSFlags": "3"]),
        (
            "a BEGINSWITH 'x'", "NSSubstringPredicateOperator",
            ["NSOperatorType": "8", "NSModifier": "0", "NSFlags": "0", "NSPosition": "0"]
        ),
        (
            "a ENDSWITH[n] 'x'", "NSSubstringPredicateOperator",
            ["NSOperatorType": "9", "NSModifier": "0", "NSFlags": "4", "NSPosition": "1"]
        ),
        ("ALL a IN {1}", "NSInPredicateOperator", ["NSOperatorType": "10", "NSModifier": "1", "NSFlags": "0"]),
        ("a CONTAINS[c] 'x'", "NSInPredicateOperator", ["NSOperatorType": "99", "NSModifier": "0", "NSFlags": "1"]),
        ("a BETWEEN {1, 2}", "NSBetweenPredicateOperator", ["NSOperatorType": "100", "NSModifier": "0"]),
    ]

    @Test(arguments: operatorClasses)
    func operatorsAreArchivedInFoundationsClassForThem(_ text: String, _ className: String, _ fields: [String: String]) throws {
        let tree = ArchiveObjects(Self.archived(try ModelPredicate(format: text)))
        guard case .object("NSComparisonPredicate", let predicate) = tree.root else {
            Issue.record("not a comparison: \(tree.root)")
            return
        }
        #expect(Set(predicate.keys) == ["NSLeftExpression", "NSRightExpression", "NSPredicateOperator"])
        guard case .object(let operatorClass, let operatorFields)? = predicate["NSPredicateOperator"] else {
            Issue.record("no operator object")
            return
        }
        #expect(operatorClass == className)
        #expect(operatorFields.mapValues(\.description) == fields)
    }

    @Test func compoundsAndConstantPredicatesUseFoundationsClassesAndKeys() throws {
        let tree = ArchiveObjects(Self.archived(try ModelPredicate(format: "NOT (a == 1 OR TRUEPREDICATE) AND FALSEPREDICATE")))
        #expect(
            tree.root.description
                == "NSCompoundPredicate{NSCompoundPredicateType: 1, NSSubpredicates: NSArray[NSCompoundPredicate{NSCompoundPredicateType: 0, NSSubpredicates: NSArray[NSCompoundPredicate{NSCompoundPredicateType: 2, NSSubpredicates: NSArray[NSComparisonPredicate{NSLeftExpression: NSKeyPathExpression{NSArguments: NSMutableArray[NSKeyPathSpecifierExpression{NSExpressionType: 10, NSKeyPath: a}], NSExpressionType: 3, NSOperand: NSSelfExpression{NSExpressionType: 1}, NSSelectorName: valueForKey:}, NSPredicateOperator: NSEqualityPredicateOperator{NSModifier: 0, NSNegate: false, NSOperatorType: 4, NSOptions: 0}, NSRightExpression: NSConstantValueExpression{NSConstantValue: 1, NSExpressionType: 0}}, NSTruePredicate{}]}]}, NSFalsePredicate{}]}"
        )
        #expect(tree.chains["NSLikePredicateOperator"] == nil)
        #expect(tree.chains["NSCompoundPredicate"] == ["NSCompoundPredicate", "NSPredicate", "NSObject"])
        #expect(tree.chains["NSTruePredicate"] == ["NSTruePredicate", "NSPredicate", "NSObject"])
    }

    @Test func keyPathsOfOtherExpressionsAndDottedPathsCallValueForKeyPath() throws {
        let tree = ArchiveObjects(Self.archived(try ModelPredicate(format: "author.alias == $FETCH_SOURCE.alias")))
        guard case .object(_, let predicate) = tree.root, case .object(_, let left)? = predicate["NSLeftExpression"],
            case .object(_, let right)? = predicate["NSRightExpression"]
        else {
            Issue.record("not a comparison: \(tree.root)")
            return
        }
        #expect(left["NSSelectorName"]?.description == "valueForKeyPath:")
        #expect(left["NSExpressionType"]?.description == "3")
        #expect(right["NSSelectorName"]?.description == "valueForKeyPath:")
        #expect(right["NSExpressionType"]?.description == "4")
        #expect(right["NSOperand"]?.description == "NSVariableExpression{NSExpressionType: 2, NSVariable: FETCH_SOURCE}")
    }

    @Test func archivedPredicatesModelgenCannotExpressAreErrorsNamingWhatWasRead() throws {
        var builder = KeyedArchiveBuilder()
        let left = builder.expression(.keyPath(operand: .evaluatedObject, path: "a"))
        let right = builder.expression(.constant(.integer(1)))
        let custom = builder.object(
            classChain: ["NSCustomPredicateOperator", "NSPredicateOperator", "NSObject"],
            fields: [("NSOperatorType", .integer(11)), ("NSModifier", .integer(0)), ("NSSelectorName", builder.string("isFoo:"))])
        let root = builder.object(
            classChain: ["NSComparisonPredicate", "NSPredicate", "NSObject"],
            fields: [("NSLeftExpression", left), ("NSRightExpression", right), ("NSPredicateOperator", custom)])
        #expect(
            throws: KeyedArchiveReader.Failure(
                message: "the predicate uses operator type 11 (a custom selector), which modelgen does not read")
        ) {
            try Self.decoded(builder.archive(root: root))
        }
        var blocks = KeyedArchiveBuilder()
        let block = blocks.object(classChain: ["NSBlockPredicate", "NSPredicate", "NSObject"], fields: [])
        #expect(throws: KeyedArchiveReader.Failure(message: "the predicate is an NSBlockPredicate, which modelgen does not read")) {
            try Self.decoded(blocks.archive(root: block))
        }
    }

    @Test func aCompoundThatContainsItselfEndsInAnError() throws {
        var builder = KeyedArchiveBuilder()
        let (root, _) = builder.reserve()
        let array = builder.array(mutable: false, [root])
        builder.fill(
            root, classChain: ["NSCompoundPredicate", "NSPredicate", "NSObject"],
            fields: [("NSSubpredicates", array), ("NSCompoundPredicateType", .integer(1))])
        #expect(throws: KeyedArchiveReader.Failure.self) { try Self.decoded(builder.archive(root: root)) }
    }
}

/// An archive as nested objects, `Class{key: value, …}` (keys sorted) and `Class[a, b]` for arrays,
/// with the class chain of each class seen.
private struct ArchiveObjects {
    indirect enum Node: CustomStringConvertible {
        case scalar(String)
        case object(String, [String: Node])
        case list(String, [Node])

        var description: String {
            switch self {
            case .scalar(let text): text
            case .object(let name, let members):
                name + "{" + members.keys.sorted().map { "\($0): \(members[$0]!)" }.joined(separator: ", ") + "}"
            case .list(let name, let items): name + "[" + items.map(\.description).joined(separator: ", ") + "]"
            }
        }
    }

    private(set) var root = Node.scalar("?")
    private(set) var chains: [String: [String]] = [:]
    private let objects: [PropertyList]

    init(_ archive: PropertyList) {
        guard case .array(let objects)? = archive["$objects"], case .uid(let root)? = archive["$top"]?["root"] else {
            objects = []
            return
        }
        self.objects = objects
        self.root = node(.uid(root), depth: 0)
    }

    private mutating func node(_ value: PropertyList, depth: Int) -> Node {
        guard depth < 100 else { return .scalar("…") }
        switch value {
        case .uid(let uid):
            guard uid != 0, uid < objects.count else { return .scalar("nil") }
            return node(objects[Int(uid)], depth: depth + 1)
        case .dictionary(let fields):
            guard case .uid(let classUID)? = value["$class"], classUID < objects.count,
                let name = objects[Int(classUID)]["$classname"]?.stringValue
            else { return .scalar("?") }
            if case .array(let chain)? = objects[Int(classUID)]["$classes"] { chains[name] = chain.compactMap(\.stringValue) }
            if case .array(let items)? = value["NS.objects"], case .none = value["NS.keys"] {
                return .list(name, items.map { node($0, depth: depth + 1) })
            }
            var members: [String: Node] = [:]
            for (key, member) in fields where key != "$class" { members[key] = node(member, depth: depth + 1) }
            return .object(name, members)
        case .string(let text): return .scalar(text)
        case .integer(let number): return .scalar(String(number))
        case .boolean(let flag): return .scalar(flag ? "true" : "false")
        case .real(let number): return .scalar(String(number))
        default: return .scalar("\(value)")
        }
    }
}

extension ModelPredicate {
    /// The words of the predicate format that cannot name a key unless written with `#`
    /// (`#size`), in upper case; keywords match in any case.
    public static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    /// Reads the `NSPredicate` format (without `%` arguments): comparisons with `==`/`=`, `!=`/`<>`,
    /// `<`, `<=`/`=<`, `>`, `>=`/`=>`, `MATCHES`, `LIKE`, `BEGINSWITH`, `ENDSWITH`, `IN`,
    /// `CONTAINS`, `BETWEEN`, options `[cdnl]`, modifiers `ANY`/`SOME`, `ALL` and `NONE`;
    /// `AND`/`&&`, `OR`/`||`, `NOT`/`!` (loosest first: `OR`, `AND`, `NOT`) and parentheses;
    /// `TRUEPREDICATE`, `FALSEPREDICATE`. Expressions are those of ``MappingExpression``'s format
    /// (key paths, `$variables`, constants, `{aggregates}`, `SELF`, `FUNCTION`, `CAST`); a key
    /// spelled like a reserved word is written `#key`. A parenthesis where a predicate may start
    /// opens a predicate, so a comparison's left side cannot itself start with one.
    public init(format text: String) throws(MappingExpressionSyntaxError) {
        var parser = MappingExpressionParser(Array(text.unicodeScalars))
        parser.reservedWords = Self.reservedWords
        parser.skipSpace()
        guard !parser.isAtEnd else { throw parser.failure("expected a predicate, found the end") }
        self = try parser.predicate(depth: 0).predicate
        parser.skipSpace()
        guard parser.isAtEnd else { throw parser.failure("unexpected '\(parser.current!)' after the predicate") }
    }
}

extension MappingExpressionParser {
    typealias Parsed = (predicate: ModelPredicate, depth: Int)

    /// The word at the current position, upper-cased, without consuming it.
    mutating func peekWord() -> String? {
        skipSpace()
        guard let scalar = current, Self.isIdentifierStart(scalar), scalar != "@" else { return nil }
        let start = index
        defer { index = start }
        return identifier().uppercased()
    }

    /// Consumes `word` (a keyword, any case) or one of `symbols` when either comes next.
    mutating func take(_ word: String, or symbols: [String] = []) -> Bool {
        if peekWord() == word {
            _ = identifier()
            return true
        }
        for symbol in symbols where matches(symbol) {
            index += symbol.unicodeScalars.count
            return true
        }
        return false
    }

    func matches(_ symbol: String) -> Bool {
        let scalars = Array(symbol.unicodeScalars)
        guard index + scalars.count <= text.count else { return false }
        return Array(text[index..<index + scalars.count]) == scalars
    }

    mutating func nested(_ parsed: Parsed, _ other: Parsed, _ make: ([ModelPredicate]) -> ModelPredicate)
        throws(MappingExpressionSyntaxError) -> Parsed
    {
        let depth = max(parsed.depth, other.depth) + 1
        guard depth < ModelPredicate.maximumDepth else { throw failure("the predicate is nested too deeply") }
        return (make([parsed.predicate, other.predicate]), depth)
    }

    /// `a OR b`, left-nested.
    mutating func predicate(depth: Int) throws(MappingExpressionSyntaxError) -> Parsed {
        guard depth < ModelPredicate.maximumDepth else { throw failure("the predicate is nested too deeply") }
        var result = try conjunction(depth: depth)
        while take("OR", or: ["||"]) { result = try nested(result, try conjunction(depth: depth), ModelPredicate.or) }
        return result
    }

    /// `a AND b`, left-nested.
    mutating func conjunction(depth: Int) throws(MappingExpressionSyntaxError) -> Parsed {
        var result = try negation(depth: depth)
        while take("AND", or: ["&&"]) { result = try nested(result, try negation(depth: depth), ModelPredicate.and) }
        return result
    }

    mutating func negation(depth: Int) throws(MappingExpressionSyntaxError) -> Parsed {
        skipSpace()
        let bang = current == "!" && !matches("!=")
        if bang { index += 1 }
        if bang || take("NOT") {
            guard depth + 1 < ModelPredicate.maximumDepth else { throw failure("the predicate is nested too deeply") }
            let inner = try negation(depth: depth + 1)
            return (.not(inner.predicate), inner.depth + 1)
        }
        return try simplePredicate(depth: depth)
    }

    mutating func simplePredicate(depth: Int) throws(MappingExpressionSyntaxError) -> Parsed {
        skipSpace()
        if current == "(" {
            index += 1
            let inner = try predicate(depth: depth + 1)
            try expect(")", "to close '('")
            return inner
        }
        if take("TRUEPREDICATE") { return (.truePredicate, 0) }
        if take("FALSEPREDICATE") { return (.falsePredicate, 0) }
        var modifier = ModelPredicate.Modifier.direct
        var negated = false
        if take("ANY") || take("SOME") {
            modifier = .any
        } else if take("ALL") {
            modifier = .all
        } else if take("NONE") {
            modifier = .any
            negated = true
        }
        let comparison = ModelPredicate.comparison(try comparison(modifier: modifier))
        return negated ? (.not(comparison), 1) : (comparison, 0)
    }

    mutating func comparison(modifier: ModelPredicate.Modifier) throws(MappingExpressionSyntaxError)
        -> ModelPredicate.Comparison
    {
        skipSpace()
        guard !isAtEnd else { throw failure("expected a comparison, found the end") }
        let left = try expression(depth: 0)
        let (comparison, options) = try comparisonOperator()
        skipSpace()
        guard !isAtEnd else { throw failure("expected the right side of '\(comparison.symbol)', found the end") }
        let right = try expression(depth: 0)
        return ModelPredicate.Comparison(left, comparison, right, modifier: modifier, options: options)
    }

    static let operatorSymbols: [(String, ModelPredicate.Operator)] = [
        ("==", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo),
        (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("=", .equalTo), ("<", .lessThan), (">", .greaterThan),
    ]

    static let operatorWords: [String: ModelPredicate.Operator] = [
        "MATCHES": .matches, "LIKE": .like, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "IN": .in, "CONTAINS": .contains,
        "BETWEEN": .between,
    ]

    mutating func comparisonOperator() throws(MappingExpressionSyntaxError) -> (ModelPredicate.Operator, ModelPredicate.Options) {
        skipSpace()
        let start = index
        var found: ModelPredicate.Operator?
        if let word = peekWord() {
            found = Self.operatorWords[word]
            if found != nil { _ = identifier() }
        } else if let (symbol, comparison) = Self.operatorSymbols.first(where: { matches($0.0) }) {
            index += symbol.unicodeScalars.count
            found = comparison
        }
        guard let found else {
            let seen = current.map { ", found '\($0)'" } ?? ", found the end"
            throw failure(
                "expected a comparison operator (==, !=, <, <=, >, >=, MATCHES, LIKE, BEGINSWITH, ENDSWITH, IN, CONTAINS, BETWEEN)\(seen)",
                at: start)
        }
        skipSpace()
        guard current == "[" else { return (found, []) }
        index += 1
        var options: ModelPredicate.Options = []
        while let scalar = current, scalar != "]" {
            guard let option = ModelPredicate.Options.letters.first(where: { String($0.0) == String(scalar).lowercased() }) else {
                throw failure("'\(scalar)' is not a comparison option (c, d, n or l)")
            }
            options.insert(option.1)
            index += 1
        }
        try expect("]", "to close the options")
        return (found, options)
    }
}

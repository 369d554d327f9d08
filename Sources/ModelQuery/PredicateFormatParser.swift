#if !canImport(CoreData)
import Foundation

/// Parses the predicate format language into `NSPredicate`/`NSExpression` trees.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparison. `a AND b AND c`
/// builds left-nested binary compounds (`(a AND b) AND c`), as Foundation's parser does.
/// `NONE p` becomes `NOT (ANY p)`. Format arguments are consumed left to right.
struct PredicateFormatParser {
    let format: String
    let tokens: [PredicateToken]
    /// Per token, the reserved word it spells (upper-cased), for unescaped identifiers.
    let keywords: [String?]
    var position = 0
    var arguments: ArraySlice<Any>
    var depth = 0
    static let maximumDepth = 256

    init(_ format: String, arguments: [Any]) throws(PredicateFormatError) {
        self.format = format
        let lexed = try PredicateFormatCache.tokens(format)
        tokens = lexed.tokens
        keywords = lexed.keywords
        self.arguments = arguments[...]
    }

    static func parsePredicate(_ format: String, arguments: [Any]) throws(PredicateFormatError) -> NSPredicate {
        var parser = try PredicateFormatParser(format, arguments: arguments)
        if let comparison = try parser.keyComparedToArgument() { return comparison }
        let predicate = try parser.predicate()
        try parser.expectEnd()
        return predicate
    }

    /// `key OP %x` (an unreserved name, one of the six comparison symbols, one argument; the
    /// `id == %d` of a fetch by key) parsed as the descent from ``predicate()`` parses it — the
    /// same expression functions for both sides, so the same predicate and errors — without
    /// walking the levels between. Nil, with nothing consumed, for any other format.
    mutating func keyComparedToArgument() throws(PredicateFormatError) -> NSPredicate? {
        guard tokens.count == 4, keywords[0] == nil, case .identifier = tokens[0].kind, case .argument = tokens[2].kind,
            tokens[3].kind == .end, case .symbol = tokens[1].kind
        else { return nil }
        let start = self
        position = 1
        let type = comparisonOperator()
        position = 0
        guard let type, type != .between else { return nil }
        let lhs = try postfix()
        guard position == 1 else {
            self = start
            return nil
        }
        advance()
        let rhs = try postfix()
        try expectEnd()
        return NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: .direct, type: type, options: [])
    }

    mutating func parseWholeExpression() throws(PredicateFormatError) -> NSExpression {
        let expression = try expression()
        try expectEnd()
        return expression
    }

    // MARK: Tokens

    var current: PredicateToken { tokens[position] }

    func error(_ message: String, at token: PredicateToken? = nil) -> PredicateFormatError {
        PredicateFormatError(message: message, format: format, offset: (token ?? current).offset)
    }

    func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .identifier(let name): return "'\(name)'"
        case .escapedIdentifier(let name): return "'#\(name)'"
        case .string(let value): return "the string \"\(value)\""
        case .number(let value): return "the number \(value)"
        case .variable(let name): return "'$\(name)'"
        case .argument(let spec): return "'%\(spec)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .function(let name): return "the function '\(name)'"
        case .end: return "the end of the format"
        }
    }

    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    /// The keyword the current token spells (upper-cased), if it is an unescaped reserved word.
    var keyword: String? { keywords[position] }

    mutating func expect(_ symbol: String, _ context: String) throws(PredicateFormatError) {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' \(context), found \(describe(current))") }
        advance()
    }

    func expectEnd() throws(PredicateFormatError) {
        guard current.kind == .end else { throw error("unexpected \(describe(current)) after a complete predicate") }
    }

    mutating func nested<T>(_ body: (inout Self) throws(PredicateFormatError) -> T) throws(PredicateFormatError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("the format nests deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    // MARK: Predicates

    mutating func predicate() throws(PredicateFormatError) -> NSPredicate {
        try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.disjunction() }
    }

    mutating func disjunction() throws(PredicateFormatError) -> NSPredicate {
        var result = try conjunction()
        while keyword == "OR" || isSymbol("||") {
            advance()
            result = NSCompoundPredicate(type: .or, subpredicates: [result, try conjunction()])
        }
        return result
    }

    mutating func conjunction() throws(PredicateFormatError) -> NSPredicate {
        var result = try negation()
        while keyword == "AND" || isSymbol("&&") {
            advance()
            result = NSCompoundPredicate(type: .and, subpredicates: [result, try negation()])
        }
        return result
    }

    mutating func negation() throws(PredicateFormatError) -> NSPredicate {
        if keyword == "NOT" || isSymbol("!") {
            advance()
            let operand = try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.negation() }
            return NSCompoundPredicate(type: .not, subpredicates: [operand])
        }
        return try primaryPredicate()
    }

    mutating func primaryPredicate() throws(PredicateFormatError) -> NSPredicate {
        if isSymbol("(") {
            advance()
            let inner = try predicate()
            try expect(")", "to close '('")
            return inner
        }
        switch keyword {
        case "TRUEPREDICATE":
            advance()
            return NSPredicate(value: true)
        case "FALSEPREDICATE":
            advance()
            return NSPredicate(value: false)
        case "ANY", "SOME":
            advance()
            return try comparison(modifier: .any)
        case "ALL":
            advance()
            return try comparison(modifier: .all)
        case "NONE":
            advance()
            return NSCompoundPredicate(type: .not, subpredicates: [try comparison(modifier: .any)])
        default:
            return try comparison(modifier: .direct)
        }
    }

    mutating func comparison(modifier: NSComparisonPredicate.Modifier) throws(PredicateFormatError) -> NSPredicate {
        if current.kind == .end { throw error("expected a predicate, found the end of the format") }
        let lhs = try expression()
        let operatorToken = current
        guard let type = comparisonOperator() else {
            throw error("expected a comparison operator after \(PredicateFormatWriter.expression(lhs)), found \(describe(operatorToken))")
        }
        advance()
        let options = try comparisonOptions()
        let rhs = try expression()
        if type == .between {
            guard Self.isPair(rhs) else { throw error("BETWEEN needs a pair of bounds such as {1, 5}", at: operatorToken) }
        }
        return NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: type, options: options)
    }

    static func isPair(_ expression: NSExpression) -> Bool {
        switch expression.kind {
        case .aggregate(let elements): return elements.count == 2
        case .constant(let value?): return QueryValues.collectionElements(value)?.count == 2
        case .constant(nil): return false
        default: return true  // a variable or key path bound at evaluation time
        }
    }

    func comparisonOperator() -> NSComparisonPredicate.Operator? {
        switch current.kind {
        case .symbol("="), .symbol("=="): return .equalTo
        case .symbol("!="), .symbol("<>"): return .notEqualTo
        case .symbol("<"): return .lessThan
        case .symbol("<="), .symbol("=<"): return .lessThanOrEqualTo
        case .symbol(">"): return .greaterThan
        case .symbol(">="), .symbol("=>"): return .greaterThanOrEqualTo
        default: break
        }
        switch keyword {
        case "BETWEEN": return .between
        case "IN": return .in
        case "CONTAINS": return .contains
        case "BEGINSWITH": return .beginsWith
        case "ENDSWITH": return .endsWith
        case "LIKE": return .like
        case "MATCHES": return .matches
        default: return nil
        }
    }

    mutating func comparisonOptions() throws(PredicateFormatError) -> NSComparisonPredicate.Options {
        guard isSymbol("[") else { return [] }
        let open = current
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw error("expected comparison options such as [c], [d] or [cd]", at: open)
        }
        var options: NSComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default: throw error("unknown comparison option '\(letter)' (use c, d, n or l)")
            }
        }
        advance()
        try expect("]", "to close the comparison options")
        return options
    }

    // MARK: Format arguments

    mutating func nextArgument(_ token: PredicateToken) throws(PredicateFormatError) -> Any? {
        guard let argument = arguments.popFirst() else {
            throw error("the format has more specifiers than arguments", at: token)
        }
        return KeyPathReader.unwrapped(argument)
    }

    mutating func keyPathArgument(_ token: PredicateToken) throws(PredicateFormatError) -> String {
        let value = try nextArgument(token)
        guard let value, let path = QueryValues.string(value) else {
            throw error("the argument for %K must be a key path string", at: token)
        }
        guard !path.isEmpty, !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw error("the argument for %K (\"\(path)\") is not a key path", at: token)
        }
        return path
    }

    mutating func argumentExpression(_ spec: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
        switch spec {
        case "@":
            let value = try nextArgument(token)
            if let expression = value as? NSExpression { return expression }
            return NSExpression(forConstantValue: value)
        case "K":
            return NSExpression(forKeyPath: try keyPathArgument(token))
        case "%":
            throw error("'%%' (a literal percent sign) is only valid inside a quoted string", at: token)
        case "f", "lf":
            guard let value = try nextArgument(token), let number = QueryValues.number(value) else {
                throw error("the argument for %\(spec) must be a number", at: token)
            }
            return NSExpression(forConstantValue: QueryValues.double(number))
        default:  // d i ld lld u lu llu
            guard let value = try nextArgument(token), let number = QueryValues.number(value) else {
                throw error("the argument for %\(spec) must be an integer", at: token)
            }
            switch number {
            case .integer(let v): return NSExpression(forConstantValue: Int(v))
            case .double(let v):
                guard let integer = Int(exactly: v.rounded(.towardZero)) else {
                    throw error("the argument for %\(spec) is out of range", at: token)
                }
                return NSExpression(forConstantValue: integer)
            case .decimal(let v):
                return NSExpression(forConstantValue: NSDecimalNumber(decimal: v).intValue)
            }
        }
    }
}
#endif

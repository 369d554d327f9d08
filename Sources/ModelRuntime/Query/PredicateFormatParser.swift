#if !canImport(CoreData)
import Foundation

/// Parses the predicate format language into `NSPredicate`/`NSExpression` trees.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparison. `a AND b AND c`
/// builds left-nested binary compounds (`(a AND b) AND c`), as Foundation's parser does.
/// `NONE p` becomes `NOT (ANY p)`. Format arguments are consumed left to right.
struct PredicateFormatParser {
    private let format: String
    private let tokens: [PredicateToken]
    /// Per token, the reserved word it spells (upper-cased), for unescaped identifiers.
    private let keywords: [String?]
    private var position = 0
    private var arguments: ArraySlice<Any>
    private var depth = 0
    private static let maximumDepth = 256

    init(_ format: String, arguments: [Any]) throws(PredicateFormatError) {
        self.format = format
        let lexed = try PredicateFormatCache.tokens(format)
        tokens = lexed.tokens
        keywords = lexed.keywords
        self.arguments = arguments[...]
    }

    static func parsePredicate(_ format: String, arguments: [Any]) throws(PredicateFormatError) -> NSPredicate {
        var parser = try PredicateFormatParser(format, arguments: arguments)
        let predicate = try parser.predicate()
        try parser.expectEnd()
        return predicate
    }

    mutating func parseWholeExpression() throws(PredicateFormatError) -> NSExpression {
        let expression = try expression()
        try expectEnd()
        return expression
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[position] }

    private func error(_ message: String, at token: PredicateToken? = nil) -> PredicateFormatError {
        PredicateFormatError(message: message, format: format, offset: (token ?? current).offset)
    }

    private func describe(_ token: PredicateToken) -> String {
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

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    /// The keyword the current token spells (upper-cased), if it is an unescaped reserved word.
    private var keyword: String? { keywords[position] }

    private mutating func expect(_ symbol: String, _ context: String) throws(PredicateFormatError) {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' \(context), found \(describe(current))") }
        advance()
    }

    private func expectEnd() throws(PredicateFormatError) {
        guard current.kind == .end else { throw error("unexpected \(describe(current)) after a complete predicate") }
    }

    private mutating func nested<T>(_ body: (inout Self) throws(PredicateFormatError) -> T) throws(PredicateFormatError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("the format nests deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    // MARK: Predicates

    mutating func predicate() throws(PredicateFormatError) -> NSPredicate {
        try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.disjunction() }
    }

    private mutating func disjunction() throws(PredicateFormatError) -> NSPredicate {
        var result = try conjunction()
        while keyword == "OR" || isSymbol("||") {
            advance()
            result = NSCompoundPredicate(type: .or, subpredicates: [result, try conjunction()])
        }
        return result
    }

    private mutating func conjunction() throws(PredicateFormatError) -> NSPredicate {
        var result = try negation()
        while keyword == "AND" || isSymbol("&&") {
            advance()
            result = NSCompoundPredicate(type: .and, subpredicates: [result, try negation()])
        }
        return result
    }

    private mutating func negation() throws(PredicateFormatError) -> NSPredicate {
        if keyword == "NOT" || isSymbol("!") {
            advance()
            let operand = try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.negation() }
            return NSCompoundPredicate(type: .not, subpredicates: [operand])
        }
        return try primaryPredicate()
    }

    private mutating func primaryPredicate() throws(PredicateFormatError) -> NSPredicate {
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

    private mutating func comparison(modifier: NSComparisonPredicate.Modifier) throws(PredicateFormatError) -> NSPredicate {
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

    private static func isPair(_ expression: NSExpression) -> Bool {
        switch expression.kind {
        case .aggregate(let elements): return elements.count == 2
        case .constant(let value?): return QueryValues.collectionElements(value)?.count == 2
        case .constant(nil): return false
        default: return true  // a variable or key path bound at evaluation time
        }
    }

    private func comparisonOperator() -> NSComparisonPredicate.Operator? {
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

    private mutating func comparisonOptions() throws(PredicateFormatError) -> NSComparisonPredicate.Options {
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

    // MARK: Expressions

    /// An expression: arithmetic over key paths, values and functions. Binding loosest first:
    /// `+` `-`, then `*` `/`, then `**` (to the right), then unary `-`, then key paths (`a.b`).
    /// Operators become Foundation's function expressions (`add:to:`, `from:subtract:`,
    /// `multiply:by:`, `divide:by:`, `raise:toPower:`; `-x` is `0 - x`).
    mutating func expression() throws(PredicateFormatError) -> NSExpression {
        try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.additive() }
    }

    private mutating func additive() throws(PredicateFormatError) -> NSExpression {
        var result = try multiplicative()
        while isSymbol("+") || isSymbol("-") {
            let name = isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            result = NSExpression(kind: .function(name, arguments: [result, try multiplicative()]))
        }
        return result
    }

    private mutating func multiplicative() throws(PredicateFormatError) -> NSExpression {
        var result = try power()
        while isSymbol("*") || isSymbol("/") {
            let name = isSymbol("*") ? "multiply:by:" : "divide:by:"
            advance()
            result = NSExpression(kind: .function(name, arguments: [result, try power()]))
        }
        return result
    }

    private mutating func power() throws(PredicateFormatError) -> NSExpression {
        let base = try unary()
        guard isSymbol("**") else { return base }
        advance()
        let exponent = try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.power() }
        return NSExpression(kind: .function("raise:toPower:", arguments: [base, exponent]))
    }

    private mutating func unary() throws(PredicateFormatError) -> NSExpression {
        guard isSymbol("-") else { return try postfix() }
        let minus = current
        advance()
        // A negative number is a constant (`-1`, `-0x1F`), not an operation.
        if case .number(let text) = current.kind, current.offset == minus.offset + 1 {
            let token = current
            advance()
            guard let value = Self.number("-" + text) else { throw error("-\(text) is not a number", at: token) }
            return try postfixPath(after: NSExpression(forConstantValue: value))
        }
        let operand = try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.unary() }
        return NSExpression(kind: .function("from:subtract:", arguments: [NSExpression(forConstantValue: 0), operand]))
    }

    private mutating func postfix() throws(PredicateFormatError) -> NSExpression {
        try postfixPath(after: try primaryExpression())
    }

    private mutating func postfixPath(after start: NSExpression) throws(PredicateFormatError) -> NSExpression {
        var base = start
        while isSymbol(".") {
            advance()
            let path = try keyPathComponents()
            base = Self.keyPath(path, after: base)
        }
        if isSymbol("[") {
            throw error("index expressions ([FIRST], [LAST], [SIZE], [n]) are not supported")
        }
        return base
    }

    /// `base.path`: a key path read from the value of `base`; `SELF.path` is just `path`.
    private static func keyPath(_ path: [String], after base: NSExpression) -> NSExpression {
        let joined = path.joined(separator: ".")
        switch base.kind {
        case .evaluatedObject:
            return NSExpression(forKeyPath: joined)
        case .keyPath(let prefix, let components, let operand):
            return NSExpression(kind: .keyPath(prefix + "." + joined, components: components + path, operand: operand))
        default:
            return NSExpression(kind: .keyPath(joined, components: path, operand: base))
        }
    }

    /// One or more dotted key path components (names, `#escaped` names, `@operators`, `%K`).
    private mutating func keyPathComponents() throws(PredicateFormatError) -> [String] {
        switch current.kind {
        case .identifier(let name):
            if keyword != nil { throw error("'\(name)' is a reserved word; write #\(name) to use it as a key") }
            advance()
            return [name]
        case .escapedIdentifier(let name):
            advance()
            return [name]
        case .argument("K"):
            let token = current
            advance()
            return KeyPathReader.components(try keyPathArgument(token))
        default:
            throw error("expected a key after '.', found \(describe(current))")
        }
    }

    private mutating func primaryExpression() throws(PredicateFormatError) -> NSExpression {
        let token = current
        switch token.kind {
        case .string(let value):
            advance()
            return NSExpression(forConstantValue: value)
        case .number(let text):
            advance()
            guard let value = Self.number(text) else { throw error("\(text) is not a number", at: token) }
            return NSExpression(forConstantValue: value)
        case .variable(let name):
            advance()
            return NSExpression(forVariable: name)
        case .argument(let spec):
            advance()
            return try argumentExpression(spec, token)
        case .escapedIdentifier(let name):
            advance()
            return NSExpression(forKeyPath: name)
        case .symbol("{"):
            advance()
            return try aggregate()
        case .symbol("("):
            advance()
            let inner = try expression()
            try expect(")", "to close '('")
            return inner
        case .identifier(let name):
            return try identifierExpression(name, token)
        case .function(let name):
            advance()
            return try functionCall(name, token)
        case .symbol, .end:
            throw error("expected an expression, found \(describe(token))")
        }
    }

    /// `name:(a)`, `add:to:(a, b)`, `now()`: one argument per colon of the name; the name must be
    /// a function ``ExpressionFunctions`` knows.
    private mutating func functionCall(_ name: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
        if name.uppercased() == "FUNCTION" { return try selectorCall(token) }
        try expect("(", "after the function name '\(name)'")
        var arguments: [NSExpression] = []
        if !isSymbol(")") {
            arguments.append(try expression())
            while isSymbol(",") {
                advance()
                arguments.append(try expression())
            }
        }
        try expect(")", "to close the arguments of '\(name)'")
        guard ExpressionFunctions.isKnown(name) else {
            throw error("unknown function '\(name)' (supported: \(ExpressionFunctions.names.joined(separator: ", ")))", at: token)
        }
        let expected = name.filter { $0 == ":" }.count
        guard arguments.count == expected else {
            throw error("the function '\(name)' takes \(expected) argument\(expected == 1 ? "" : "s"), not \(arguments.count)", at: token)
        }
        return NSExpression(kind: .function(name, arguments: arguments))
    }

    private mutating func identifierExpression(_ name: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
        guard let keyword else {
            advance()
            // `now()`, `random()`: a function without arguments is named without a colon.
            if isSymbol("(") { return try functionCall(name, token) }
            return NSExpression(forKeyPath: name)
        }
        advance()
        switch keyword {
        case "YES", "TRUE": return NSExpression(forConstantValue: true)
        case "NO", "FALSE": return NSExpression(forConstantValue: false)
        case "NIL", "NULL": return NSExpression(forConstantValue: nil)
        case "SELF": return NSExpression.expressionForEvaluatedObject()
        case "SUBQUERY": return try subquery()
        case "FETCH": return try fetchExpression()
        case "FUNCTION":
            guard isSymbol("(") else { throw error("expected '(' after FUNCTION", at: token) }
            return try selectorCall(token)
        case "CAST": return try cast(token)
        default:
            throw error("'\(name)' is a reserved word; write #\(name) to use it as a key", at: token)
        }
    }

    /// `FUNCTION(target, "selector:", arguments…)`: one argument per colon of the selector.
    private mutating func selectorCall(_ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
        try expect("(", "after FUNCTION")
        let target = try expression()
        try expect(",", "after the target of FUNCTION")
        guard case .string(let selector) = current.kind else {
            throw error("FUNCTION needs the selector as a string such as \"uppercaseString\", found \(describe(current))")
        }
        advance()
        var arguments: [NSExpression] = []
        while isSymbol(",") {
            advance()
            arguments.append(try expression())
        }
        try expect(")", "to close FUNCTION")
        let expected = selector.filter { $0 == ":" }.count
        guard arguments.count == expected else {
            throw error(
                "FUNCTION's selector \"\(selector)\" takes \(expected) argument\(expected == 1 ? "" : "s"), not \(arguments.count)",
                at: token)
        }
        return NSExpression(kind: .call(target: target, selector: selector, arguments: arguments))
    }

    /// `FETCH(request, context, countOnly)`.
    private mutating func fetchExpression() throws(PredicateFormatError) -> NSExpression {
        try expect("(", "after FETCH")
        let request = try expression()
        try expect(",", "after the fetch request of FETCH")
        let context = try expression()
        try expect(",", "after the context of FETCH")
        let flag = try expression()
        try expect(")", "to close FETCH")
        guard let known = flag.constantValueIfKnown, let countOnly = (known.value as? Bool) ?? (known.value as? NSNumber)?.boolValue
        else { throw error("FETCH's third argument must be YES or NO") }
        return NSFetchRequestExpression(kind: .fetch(request: request, context: context, countOnly: countOnly))
    }

    private mutating func aggregate() throws(PredicateFormatError) -> NSExpression {
        var elements: [NSExpression] = []
        if !isSymbol("}") {
            elements.append(try expression())
            while isSymbol(",") {
                advance()
                elements.append(try expression())
            }
        }
        try expect("}", "to close the aggregate '{'")
        return NSExpression(forAggregate: elements)
    }

    private mutating func subquery() throws(PredicateFormatError) -> NSExpression {
        try expect("(", "after SUBQUERY")
        let collection = try expression()
        try expect(",", "after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw error("SUBQUERY needs an iteration variable such as $x, found \(describe(current))")
        }
        advance()
        try expect(",", "after the SUBQUERY variable")
        let predicate = try predicate()
        try expect(")", "to close SUBQUERY")
        return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
    }

    /// `CAST(<seconds since 2001>, "NSDate")` — the form `predicateFormat` writes dates in —
    /// becomes a constant date; `CAST(x, "NSNumber")`/`"NSString"` convert constants.
    private mutating func cast(_ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
        try expect("(", "after CAST")
        let operand = try expression()
        try expect(",", "after the CAST value")
        guard case .string(let typeName) = current.kind else { throw error("CAST needs a type name string such as \"NSDate\"") }
        advance()
        try expect(")", "to close CAST")
        guard case .constant(let value?) = operand.kind else {
            throw error("CAST is supported on constant values only", at: token)
        }
        switch typeName {
        case "NSDate":
            if let number = QueryValues.number(value) {
                return NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: QueryValues.double(number)))
            }
            if let text = QueryValues.string(value), let date = ISO8601DateFormatter().date(from: text) {
                return NSExpression(forConstantValue: date)
            }
        case "NSNumber":
            if let number = QueryValues.number(value) { return NSExpression(forConstantValue: QueryValues.box(number)) }
            if let date = value as? Date { return NSExpression(forConstantValue: date.timeIntervalSinceReferenceDate) }
            if let text = QueryValues.string(value), let number = Self.number(text) { return NSExpression(forConstantValue: number) }
        case "NSString":
            return NSExpression(forConstantValue: QueryValues.string(value) ?? PredicateFormatWriter.constant(value))
        default:
            throw error("CAST to \"\(typeName)\" is not supported (use NSDate, NSNumber or NSString)", at: token)
        }
        throw error("cannot CAST \(PredicateFormatWriter.constant(value)) to \(typeName)", at: token)
    }

    static func number(_ text: String) -> Any? {
        var digits = Substring(text)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        let radix: Int? =
            switch digits.prefix(2).lowercased() {
            case "0x": 16
            case "0o": 8
            case "0b": 2
            default: nil
            }
        if let radix {
            guard let magnitude = Int(digits.dropFirst(2), radix: radix) else { return nil }
            return negative ? -magnitude : magnitude
        }
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let integer = Int(text) { return integer }
        return Double(text)
    }

    // MARK: Format arguments

    private mutating func nextArgument(_ token: PredicateToken) throws(PredicateFormatError) -> Any? {
        guard let argument = arguments.popFirst() else {
            throw error("the format has more specifiers than arguments", at: token)
        }
        return KeyPathReader.unwrapped(argument)
    }

    private mutating func keyPathArgument(_ token: PredicateToken) throws(PredicateFormatError) -> String {
        let value = try nextArgument(token)
        guard let value, let path = QueryValues.string(value) else {
            throw error("the argument for %K must be a key path string", at: token)
        }
        guard !path.isEmpty, !path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw error("the argument for %K (\"\(path)\") is not a key path", at: token)
        }
        return path
    }

    private mutating func argumentExpression(_ spec: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
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

enum PredicateKeywords {
    /// The reserved word `token` spells (upper-cased), if it is an unescaped identifier.
    static func keyword(of token: PredicateToken) -> String? {
        guard case .identifier(let name) = token.kind else { return nil }
        let upper = name.uppercased()
        return reserved.contains(upper) ? upper : nil
    }

    /// Foundation's reserved words (case-insensitive); as keys they need a `#` prefix.
    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]
}
#endif

#if !canImport(CoreData)
import Foundation

extension PredicateFormatParser {
    // MARK: Expressions

    /// An expression: arithmetic over key paths, values and functions. Binding loosest first:
    /// `+` `-`, then `*` `/`, then `**` (to the right), then unary `-`, then key paths (`a.b`).
    /// Operators become Foundation's function expressions (`add:to:`, `from:subtract:`,
    /// `multiply:by:`, `divide:by:`, `raise:toPower:`; `-x` is `0 - x`).
    mutating func expression() throws(PredicateFormatError) -> NSExpression {
        try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.additive() }
    }

    mutating func additive() throws(PredicateFormatError) -> NSExpression {
        var result = try multiplicative()
        while isSymbol("+") || isSymbol("-") {
            let name = isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            result = NSExpression(kind: .function(name, arguments: [result, try multiplicative()]))
        }
        return result
    }

    mutating func multiplicative() throws(PredicateFormatError) -> NSExpression {
        var result = try power()
        while isSymbol("*") || isSymbol("/") {
            let name = isSymbol("*") ? "multiply:by:" : "divide:by:"
            advance()
            result = NSExpression(kind: .function(name, arguments: [result, try power()]))
        }
        return result
    }

    mutating func power() throws(PredicateFormatError) -> NSExpression {
        let base = try unary()
        guard isSymbol("**") else { return base }
        advance()
        let exponent = try nested { (parser: inout Self) throws(PredicateFormatError) in try parser.power() }
        return NSExpression(kind: .function("raise:toPower:", arguments: [base, exponent]))
    }

    mutating func unary() throws(PredicateFormatError) -> NSExpression {
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

    mutating func postfix() throws(PredicateFormatError) -> NSExpression {
        try postfixPath(after: try primaryExpression())
    }

    mutating func postfixPath(after start: NSExpression) throws(PredicateFormatError) -> NSExpression {
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
    static func keyPath(_ path: [String], after base: NSExpression) -> NSExpression {
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
    mutating func keyPathComponents() throws(PredicateFormatError) -> [String] {
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

    mutating func primaryExpression() throws(PredicateFormatError) -> NSExpression {
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
    mutating func functionCall(_ name: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
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

    mutating func identifierExpression(_ name: String, _ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
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
    mutating func selectorCall(_ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
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
    mutating func fetchExpression() throws(PredicateFormatError) -> NSExpression {
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

    mutating func aggregate() throws(PredicateFormatError) -> NSExpression {
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

    mutating func subquery() throws(PredicateFormatError) -> NSExpression {
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
    mutating func cast(_ token: PredicateToken) throws(PredicateFormatError) -> NSExpression {
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
}
#endif

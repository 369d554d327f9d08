/// Why a mapping expression's text cannot be read, and where: `column` counts Unicode scalars
/// from 1, so a diagnostic can point into the line the expression was written on.
public struct MappingExpressionSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let column: Int

    public init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    public var description: String { "column \(column): \(message)" }
}

extension MappingExpression {
    /// Reads the `NSExpression` format subset mapping models use (see ``description``):
    /// variables (`$source`), key paths (`$source.a.b`, `name`), string, number, `nil`,
    /// `YES`/`NO`/`TRUE`/`FALSE` constants, `SELF`, `FUNCTION(target, "selector:", arguments…)`,
    /// `FETCH(request, context, YES|NO)`, aggregates `{a, b}`, dates as `CAST(seconds, "NSDate")`
    /// and data as `<hex>`.
    public init(format text: String) throws(MappingExpressionSyntaxError) {
        var parser = MappingExpressionParser(Array(text.unicodeScalars))
        self = try parser.expression(depth: 0)
        parser.skipSpace()
        guard parser.isAtEnd else { throw parser.failure("unexpected '\(parser.current!)' after the expression") }
    }
}

/// The `NSExpression` format reader, shared by mapping expressions and by predicates
/// (`ModelPredicateParser.swift` reads the predicate grammar on top of it).
struct MappingExpressionParser {
    let text: [Unicode.Scalar]
    var index = 0
    /// Words (upper case) that cannot name a key unless escaped with `#`: the predicate format's
    /// reserved words when reading a predicate, none for a mapping expression.
    var reservedWords: Set<String> = []

    static let maximumDepth = 64

    init(_ text: [Unicode.Scalar]) {
        self.text = text
    }

    var isAtEnd: Bool { index >= text.count }
    var current: Unicode.Scalar? { isAtEnd ? nil : text[index] }

    func failure(_ message: String, at position: Int? = nil) -> MappingExpressionSyntaxError {
        MappingExpressionSyntaxError(message: message, column: (position ?? index) + 1)
    }

    mutating func skipSpace() {
        while let scalar = current, scalar.properties.isWhitespace { index += 1 }
    }

    mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws(MappingExpressionSyntaxError) {
        skipSpace()
        guard current == scalar else {
            throw failure("expected '\(scalar)' \(what)" + (current.map { ", found '\($0)'" } ?? ", found the end"))
        }
        index += 1
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "@" || scalar.properties.isAlphabetic
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    mutating func identifier() -> String {
        let start = index
        while let scalar = current, Self.isIdentifierPart(scalar) { index += 1 }
        return String(String.UnicodeScalarView(text[start..<index]))
    }

    /// A key: a name, or `#name` for a key spelled like a reserved word.
    mutating func key(_ what: String) throws(MappingExpressionSyntaxError) -> String {
        let start = index
        let escaped = current == "#"
        if escaped { index += 1 }
        guard let scalar = current, Self.isIdentifierStart(scalar) else { throw failure("expected a key \(what)") }
        let name = identifier()
        if !escaped, reservedWords.contains(name.uppercased()) {
            throw failure("'\(name)' is a reserved word; write #\(name) for a key of that name", at: start)
        }
        return name
    }

    mutating func expression(depth: Int) throws(MappingExpressionSyntaxError) -> MappingExpression {
        guard depth < Self.maximumDepth else { throw failure("the expression is nested too deeply") }
        var result = try primary(depth: depth)
        var path: [String] = []
        while true {
            skipSpace()
            guard current == "." else { break }
            index += 1
            skipSpace()
            path.append(try key("after '.'"))
        }
        if !path.isEmpty {
            if case .keyPath(let operand, let first) = result {
                result = .keyPath(operand: operand, path: ([first] + path).joined(separator: "."))
            } else {
                result = .keyPath(operand: result, path: path.joined(separator: "."))
            }
        }
        return result
    }

    mutating func primary(depth: Int) throws(MappingExpressionSyntaxError) -> MappingExpression {
        skipSpace()
        let start = index
        guard let scalar = current else { throw failure("expected an expression, found the end") }
        switch scalar {
        case "$":
            index += 1
            guard let first = current, Self.isIdentifierStart(first) else { throw failure("expected a variable name after '$'") }
            return .variable(identifier())
        case "\"", "'":
            return .constant(.string(try string()))
        case "{":
            index += 1
            return .aggregate(try list(closing: "}", depth: depth))
        case "(":
            index += 1
            let inner = try expression(depth: depth + 1)
            try expect(")", "to close '('")
            return inner
        case "<":
            return .constant(.data(try data()))
        case "#":
            return .keyPath(operand: .evaluatedObject, path: try key("after '#'"))
        case "-", "+", "0"..."9":
            return .constant(try number())
        default:
            guard Self.isIdentifierStart(scalar) else { throw failure("unexpected '\(scalar)'") }
            let word = identifier()
            skipSpace()
            let isCall = current == "("
            switch word.uppercased() {
            case "NIL" where !isCall, "NULL" where !isCall: return .constant(.null)
            case "YES" where !isCall, "TRUE" where !isCall: return .constant(.boolean(true))
            case "NO" where !isCall, "FALSE" where !isCall: return .constant(.boolean(false))
            case "SELF" where !isCall: return .evaluatedObject
            case "FUNCTION" where isCall: return try function(depth: depth)
            case "FETCH" where isCall: return try fetch(depth: depth)
            case "CAST" where isCall: return try cast(depth: depth)
            default:
                if isCall {
                    throw failure(
                        "'\(word)(…)' is not supported in \(reservedWords.isEmpty ? "mapping expressions" : "predicates"); call a method with FUNCTION(target, \"selector:\", …)",
                        at: start)
                }
                if reservedWords.contains(word.uppercased()) {
                    throw failure("'\(word)' is a reserved word; write #\(word) for a key of that name", at: start)
                }
                return .keyPath(operand: .evaluatedObject, path: word)
            }
        }
    }

    mutating func list(closing: Unicode.Scalar, depth: Int) throws(MappingExpressionSyntaxError) -> [MappingExpression] {
        var items: [MappingExpression] = []
        skipSpace()
        if current == closing {
            index += 1
            return items
        }
        while true {
            items.append(try expression(depth: depth + 1))
            skipSpace()
            if current == closing {
                index += 1
                return items
            }
            try expect(",", "between members")
        }
    }

    mutating func function(depth: Int) throws(MappingExpressionSyntaxError) -> MappingExpression {
        index += 1
        let target = try expression(depth: depth + 1)
        try expect(",", "after FUNCTION's target")
        skipSpace()
        guard current == "\"" || current == "'" else { throw failure("expected FUNCTION's selector as a quoted string") }
        let selector = try string()
        skipSpace()
        var arguments: [MappingExpression] = []
        if current == "," {
            index += 1
            arguments = try list(closing: ")", depth: depth)
        } else {
            try expect(")", "to close FUNCTION(")
        }
        return .function(target: target, selector: selector, arguments: arguments)
    }

    mutating func fetch(depth: Int) throws(MappingExpressionSyntaxError) -> MappingExpression {
        index += 1
        let request = try expression(depth: depth + 1)
        try expect(",", "after FETCH's request")
        let context = try expression(depth: depth + 1)
        try expect(",", "after FETCH's context")
        skipSpace()
        let flagStart = index
        guard case .constant(.boolean(let countOnly)) = try expression(depth: depth + 1) else {
            throw failure("FETCH's third argument is YES or NO (count only)", at: flagStart)
        }
        try expect(")", "to close FETCH(")
        return .fetch(request: request, context: context, countOnly: countOnly)
    }

    mutating func cast(depth: Int) throws(MappingExpressionSyntaxError) -> MappingExpression {
        index += 1
        skipSpace()
        let valueStart = index
        let value = try expression(depth: depth + 1)
        try expect(",", "after CAST's value")
        skipSpace()
        let typeStart = index
        guard current == "\"" || current == "'", try string() == "NSDate" else {
            throw failure("only CAST(<seconds>, \"NSDate\") is supported", at: typeStart)
        }
        try expect(")", "to close CAST(")
        switch value {
        case .constant(.integer(let seconds)): return .constant(.date(Double(seconds)))
        case .constant(.real(let seconds)): return .constant(.date(seconds))
        default: throw failure("CAST's value must be a number of seconds since 2001-01-01", at: valueStart)
        }
    }

    mutating func string() throws(MappingExpressionSyntaxError) -> String {
        let start = index
        let quote = text[index]
        index += 1
        var result = String.UnicodeScalarView()
        while let scalar = current {
            index += 1
            if scalar == quote { return String(result) }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let escaped = current else { break }
            index += 1
            switch escaped {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "\"", "'", "\\": result.append(escaped)
            default: throw failure("unknown escape '\\\(escaped)'", at: index - 2)
            }
        }
        throw failure("the string is not closed", at: start)
    }

    mutating func number() throws(MappingExpressionSyntaxError) -> MappingConstant {
        let start = index
        if current == "-" || current == "+" { index += 1 }
        var isReal = false
        while let scalar = current,
            ("0"..."9").contains(scalar) || scalar == "." || scalar == "e" || scalar == "E"
                || ((scalar == "-" || scalar == "+") && (text[index - 1] == "e" || text[index - 1] == "E"))
        {
            if !("0"..."9").contains(scalar) { isReal = true }
            index += 1
        }
        let literal = String(String.UnicodeScalarView(text[start..<index]))
        if !isReal, let integer = Int64(literal) { return .integer(integer) }
        guard let real = Double(literal), real.isFinite else { throw failure("'\(literal)' is not a number", at: start) }
        return .real(real)
    }

    mutating func data() throws(MappingExpressionSyntaxError) -> [UInt8] {
        let start = index
        index += 1
        var digits: [UInt8] = []
        while let scalar = current, scalar != ">" {
            index += 1
            if scalar.properties.isWhitespace { continue }
            guard let value = Self.hexDigit(scalar) else {
                throw failure("'\(scalar)' is not a hexadecimal digit", at: index - 1)
            }
            digits.append(value)
        }
        guard current == ">" else { throw failure("the data is not closed with '>'", at: start) }
        index += 1
        guard digits.count.isMultiple(of: 2) else { throw failure("data needs an even number of hexadecimal digits", at: start) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 87)
        case "A"..."F": UInt8(scalar.value - 55)
        default: nil
        }
    }
}

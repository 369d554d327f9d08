#if !canImport(CoreData)
import Foundation

/// A token of the predicate format language with its character offset in the format.
struct PredicateToken {
    enum Kind: Equatable {
        case identifier(String)  // key path component, keyword (matched case-insensitively later) or @operator
        case escapedIdentifier(String)  // `#name`: never a keyword
        case string(String)
        case number(String)
        case variable(String)  // `$name`
        case argument(String)  // `%@`, `%K`, `%d`, … (the specifier without `%`)
        case symbol(String)  // operators and punctuation
        case function(String)  // a function name with its colons, `add:to:` (followed by its arguments)
        case end
    }

    let kind: Kind
    let offset: Int
}

/// Splits a format string into tokens. Quoted strings keep `%@` and `$x` literal, as in
/// Foundation; escapes `\n \t \r \0 \\ \' \" \uXXXX` are decoded, others kept as written.
struct PredicateFormatLexer {
    private let characters: [Character]
    private let format: String
    private var index = 0

    init(_ format: String) {
        self.format = format
        characters = Array(format)
    }

    static func tokens(_ format: String) throws(PredicateFormatError) -> [PredicateToken] {
        var lexer = PredicateFormatLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, at offset: Int) -> PredicateFormatError {
        PredicateFormatError(message: message, format: format, offset: offset)
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        index + ahead < characters.count ? characters[index + ahead] : nil
    }

    private static func isIdentifierStart(_ c: Character) -> Bool { c == "_" || c.isLetter }
    private static func isIdentifierPart(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }

    mutating func next() throws(PredicateFormatError) -> PredicateToken {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = index
        guard let c = peek() else { return PredicateToken(kind: .end, offset: start) }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken { PredicateToken(kind: kind, offset: start) }

        if c == "\"" || c == "'" { return token(.string(try string(quote: c))) }
        if c.isASCII && c.isNumber { return token(.number(try number())) }
        if Self.isIdentifierStart(c) {
            let name = identifier()
            // `add:to:(a, b)`: a function named as its selector (`:=` is assignment, not a name).
            if peek() == ":", peek(1) != "=" { return token(.function(functionName(after: name))) }
            return token(.identifier(name))
        }
        if c == "#" || c == "$" || c == "@" {
            index += 1
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw error("'\(c)' must be followed by a name", at: start)
            }
            let name = identifier()
            switch c {
            case "#": return token(.escapedIdentifier(name))
            case "$": return token(.variable(name))
            default: return token(.identifier("@" + name))
            }
        }
        if c == "%" { return token(.argument(try argument())) }
        for symbol in ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**"] where matches(symbol) {
            index += 2
            return token(.symbol(symbol))
        }
        if "=<>!(){},.[]+-*/".contains(c) {
            index += 1
            return token(.symbol(String(c)))
        }
        if "&|^~:".contains(c) {
            throw error("bitwise and assignment expressions ('\(c)') are not supported", at: start)
        }
        throw error("unexpected character '\(c)'", at: start)
    }

    /// The rest of a function name after its first part: `add` + `:to:` → `add:to:`.
    private mutating func functionName(after first: String) -> String {
        var name = first
        while peek() == ":" {
            index += 1
            name += ":"
            guard let c = peek(), Self.isIdentifierStart(c) else { break }
            let start = index
            let part = identifier()
            guard peek() == ":" else {
                index = start
                break
            }
            name += part
        }
        return name
    }

    private func matches(_ symbol: String) -> Bool {
        var i = index
        for s in symbol {
            guard i < characters.count, characters[i] == s else { return false }
            i += 1
        }
        return true
    }

    private mutating func identifier() -> String {
        let start = index
        while let c = peek(), Self.isIdentifierPart(c) { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func number() throws(PredicateFormatError) -> String {
        let start = index
        if peek() == "0", let p = peek(1), "xXoObB".contains(p) {
            index += 2
            let digitsStart = index
            while let c = peek(), c.isHexDigit { index += 1 }
            guard index > digitsStart else { throw error("a number prefix needs digits", at: start) }
            return String(characters[start..<index])
        }
        while let c = peek(), c.isASCII && c.isNumber { index += 1 }
        if peek() == ".", let d = peek(1), d.isASCII && d.isNumber {
            index += 1
            while let c = peek(), c.isASCII && c.isNumber { index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var i = index + 1
            if i < characters.count, characters[i] == "+" || characters[i] == "-" { i += 1 }
            if i < characters.count, characters[i].isASCII && characters[i].isNumber {
                index = i
                while let c = peek(), c.isASCII && c.isNumber { index += 1 }
            }
        }
        if let c = peek(), Self.isIdentifierStart(c) {
            throw error("a number runs into a name ('\(String(characters[start...index]))')", at: start)
        }
        return String(characters[start..<index])
    }

    private mutating func string(quote: Character) throws(PredicateFormatError) -> String {
        let start = index
        index += 1
        var value = ""
        while let c = peek() {
            index += 1
            if c == quote { return value }
            guard c == "\\" else {
                value.append(c)
                continue
            }
            guard let e = peek() else { break }
            index += 1
            switch e {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "u":
                let hex = String(characters[index..<min(index + 4, characters.count)])
                guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw error("\\u needs four hexadecimal digits", at: index - 2)
                }
                index += 4
                value.unicodeScalars.append(scalar)
            case "\\", "'", "\"": value.append(e)
            default:
                // Unknown escapes keep their backslash, so `\d` reaches MATCHES and `\*` reaches LIKE.
                value.append("\\")
                value.append(e)
            }
        }
        throw error("unterminated string", at: start)
    }

    private static let specifiers = ["@", "K", "d", "i", "ld", "lld", "u", "lu", "llu", "f", "lf", "%"]

    private mutating func argument() throws(PredicateFormatError) -> String {
        let start = index
        index += 1
        for spec in Self.specifiers.sorted(by: { $0.count > $1.count }) where matches(spec) {
            index += spec.count
            return spec
        }
        let shown = peek().map { "%\($0)" } ?? "%"
        throw error("unsupported format specifier '\(shown)' (use %@, %K, %d, %i, %ld, %lld, %u, %lu, %f, %lf)", at: start)
    }
}
#endif

import Foundation

/// What Core Data's registered SQL string functions and collations compute, as plain Swift so it
/// can be tested without SQLite. The argument encodings (flag bits, option bits) are those Core
/// Data's SQL generation writes into its statements; see docs/StoreFormat.md for which parts are
/// confirmed and which inferred.
public enum CoreDataStringSemantics {
    /// Predicate option bits passed to `NSCoreDataLike` and `NSCoreDataMatches` (`[c]` = 1,
    /// `[d]` = 2, as in `NSComparisonPredicate.Options`).
    public struct PredicateFlags: OptionSet, Sendable {
        public let rawValue: Int64
        public init(rawValue: Int64) { self.rawValue = rawValue }
        public static let caseInsensitive = PredicateFlags(rawValue: 1)
        public static let diacriticInsensitive = PredicateFlags(rawValue: 2)
    }

    /// `NSString.CompareOptions` bits Core Data passes to `NSCoreDataStringSearch` and
    /// `NSCoreDataStringCompare`; bits Foundation does not define are ignored.
    public static func compareOptions(_ bits: Int64) -> String.CompareOptions {
        let known: UInt = 1 | 2 | 4 | 8 | 64 | 128 | 256 | 512
        return String.CompareOptions(rawValue: UInt(truncatingIfNeeded: bits) & known)
    }

    static func fold(_ text: String, _ flags: PredicateFlags) -> String {
        var options: String.CompareOptions = []
        if flags.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if flags.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        return options.isEmpty ? text : text.folding(options: options, locale: nil)
    }

    /// `LIKE`: the whole string matches a pattern where `*` is any run of characters, `?` one
    /// character and `\` makes the next character literal.
    public static func like(_ value: String, pattern: String, flags: PredicateFlags) -> Bool {
        // ASCII text has one byte per character and no diacritics: match bytes directly.
        if value.utf8.allSatisfy({ $0 < 0x80 }), pattern.utf8.allSatisfy({ $0 < 0x80 }) {
            let fold: (UInt8) -> UInt8 = flags.contains(.caseInsensitive) ? { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } : { $0 }
            let pattern = tokens(pattern.utf8.map(fold), star: UInt8(ascii: "*"), one: UInt8(ascii: "?"), escape: UInt8(ascii: "\\"))
            return wildcardMatch(value.utf8.map(fold), pattern)
        }
        return wildcardMatch(Array(fold(value, flags)), tokens(Array(fold(pattern, flags)), star: "*", one: "?", escape: "\\"))
    }

    private enum PatternToken<Element: Equatable> {
        case literal(Element)
        case one
        case any
    }

    private static func tokens<Element: Equatable>(_ pattern: [Element], star: Element, one: Element, escape: Element) -> [PatternToken<
        Element
    >] {
        var result: [PatternToken<Element>] = []
        var escaped = false
        for element in pattern {
            if escaped {
                result.append(.literal(element))
                escaped = false
            } else if element == escape {
                escaped = true
            } else {
                result.append(element == star ? .any : element == one ? .one : .literal(element))
            }
        }
        if escaped { result.append(.literal(escape)) }
        return result
    }

    /// Greedy matching with one backtrack point (the last `*`): linear in practice, never
    /// exponential.
    private static func wildcardMatch<Element: Equatable>(_ text: [Element], _ tokens: [PatternToken<Element>]) -> Bool {
        var t = 0
        var p = 0
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < tokens.count, case .any = tokens[p] {
                star = (p, t)
                p += 1
                continue
            }
            if p < tokens.count {
                switch tokens[p] {
                case .one:
                    p += 1
                    t += 1
                    continue
                case .literal(let element) where element == text[t]:
                    p += 1
                    t += 1
                    continue
                default: break
                }
            }
            guard let resume = star else { return false }
            p = resume.pattern + 1
            t = resume.text + 1
            star = (resume.pattern, resume.text + 1)
        }
        while p < tokens.count, case .any = tokens[p] { p += 1 }
        return p == tokens.count
    }

    /// `MATCHES`: the whole string matches an ICU regular expression.
    public static func matches(_ value: String, regex: NSRegularExpression, flags: PredicateFlags) -> Bool {
        let text = flags.contains(.diacriticInsensitive) ? fold(value, [.diacriticInsensitive]) : value
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [.anchored], range: range) != nil
    }

    /// Compiles a `MATCHES` pattern (anchored at both ends) or returns nil for an invalid one.
    public static func regex(_ pattern: String, flags: PredicateFlags) -> NSRegularExpression? {
        var options: NSRegularExpression.Options = []
        if flags.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        let source = flags.contains(.diacriticInsensitive) ? fold(pattern, [.diacriticInsensitive]) : pattern
        return try? NSRegularExpression(pattern: "(?:" + source + ")\\z", options: options)
    }

    /// `NSCoreDataStringSearch`: CONTAINS (no anchor), BEGINSWITH (`anchored`) and ENDSWITH
    /// (`anchored` + `backwards`) with the given compare options.
    public static func search(_ value: String, for needle: String, options: Int64, localeSensitive: Bool) -> Bool {
        if needle.isEmpty { return false }
        let locale = localeSensitive ? Locale.current : nil
        return value.range(of: needle, options: compareOptions(options), range: nil, locale: locale) != nil
    }

    /// Comparison operators of `NSCoreDataStringCompare`, numbered like
    /// `NSComparisonPredicate.Operator` (`<` 0 … `!=` 5).
    public static func compare(_ lhs: String, _ rhs: String, operator code: Int64, options: Int64, localeSensitive: Bool) -> Bool {
        let order = self.order(lhs, rhs, options: compareOptions(options), localeSensitive: localeSensitive)
        switch code {
        case 0: return order == .orderedAscending
        case 1: return order != .orderedDescending
        case 2: return order == .orderedDescending
        case 3: return order != .orderedAscending
        case 4: return order == .orderedSame
        case 5: return order != .orderedSame
        default: return false
        }
    }

    /// The order `NSCoreDataStringCompare` gives two strings: Foundation's
    /// `compare(_:options:range:locale:)`, so that in-memory evaluation of `<[c]`, `==[cd]`, … can
    /// order non-ASCII text exactly as a fetch does.
    public static func order(_ lhs: String, _ rhs: String, options: String.CompareOptions, localeSensitive: Bool) -> ComparisonResult {
        lhs.compare(rhs, options: options, range: nil, locale: localeSensitive ? Locale.current : nil)
    }

    public static func uppercase(_ value: String) -> String { value.uppercased() }
    public static func lowercase(_ value: String) -> String { value.lowercased() }

    /// `canonical:`: the case- and diacritic-insensitive form used by derived attributes and
    /// normalized (`[n]`) comparisons.
    public static func canonical(_ value: String) -> String {
        value.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    // MARK: Collations

    public enum Collation: String, CaseIterable, Sendable {
        case noCase = "NSCollateNoCase"
        case numericallyNoCase = "NSCollateNumericallyNoCase"
        case localeSensitive = "NSCollateLocaleSensitive"
        case localeSensitiveNoCase = "NSCollateLocaleSensitiveNoCase"
        case finderlike = "NSCollateFinderlike"

        /// Orders two strings: negative, zero or positive.
        public func compare(_ lhs: String, _ rhs: String) -> Int32 {
            let order: ComparisonResult =
                switch self {
                case .noCase: lhs.compare(rhs, options: [.caseInsensitive])
                case .numericallyNoCase: lhs.compare(rhs, options: [.caseInsensitive, .numeric])
                case .localeSensitive: lhs.compare(rhs, options: [], range: nil, locale: Locale.current)
                case .localeSensitiveNoCase: lhs.compare(rhs, options: [.caseInsensitive], range: nil, locale: Locale.current)
                case .finderlike: lhs.localizedStandardCompare(rhs)
                }
            switch order {
            case .orderedAscending: return -1
            case .orderedSame: return 0
            case .orderedDescending: return 1
            }
        }
    }
}

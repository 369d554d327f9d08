#if !canImport(CoreData)
import Foundation
import ModelStore

/// One comparison operator applied to two values in memory, with Foundation's semantics:
/// string operators and options apply to strings only (`[c]` folds case, `[d]` diacritics,
/// Unicode-aware); `==`/`!=` compare any values; ordering operators, `BETWEEN` need comparable
/// values (otherwise false); `IN` and `CONTAINS` work on collections and on strings.
struct ComparisonEvaluator {
    let `operator`: NSComparisonPredicate.Operator
    let options: NSComparisonPredicate.Options
    let regexCache: RegexCache
    private let folds: Bool
    /// `[c]`/`[d]` as Foundation's compare options.
    private let foldOptions: String.CompareOptions

    init(operator: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options, regexCache: RegexCache) {
        self.operator = `operator`
        self.options = options
        self.regexCache = regexCache
        folds = !options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
        var foldOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldOptions.insert(.diacriticInsensitive) }
        self.foldOptions = foldOptions
    }

    /// A right-hand value made ready once: normalized, its string folded, its elements listed.
    /// A constant right-hand side is prepared when the predicate is made, not per object.
    struct Operand {
        let value: Any?
        let string: String?
        /// The string before folding, when it is not plain ASCII (see ``ComparisonEvaluator/foldedOrder(_:_:)``).
        let unfoldedNonASCII: String?
        let elements: [Operand]?

        init(_ raw: Any?, _ evaluator: ComparisonEvaluator, elementsToo: Bool) {
            value = QueryValues.normalized(raw)
            let text = value.flatMap(QueryValues.string)
            string = text.map(evaluator.fold)
            unfoldedNonASCII = text.flatMap { ComparisonEvaluator.isASCII($0) ? nil : $0 }
            if elementsToo, let value, let elements = QueryValues.collectionElements(value) {
                self.elements = elements.map { Operand($0, evaluator, elementsToo: false) }
            } else {
                elements = nil
            }
        }
    }

    /// Whether the right-hand side's elements matter (`IN`, `BETWEEN`).
    var usesRightElements: Bool { `operator` == .in || `operator` == .between }

    func prepare(_ rhs: Any?) -> Operand { Operand(rhs, self, elementsToo: usesRightElements) }

    func evaluate(_ lhs: Any?, _ rhs: Any?) -> Bool { evaluate(lhs, prepare(rhs)) }

    func evaluate(_ lhs: Any?, _ rhs: Operand) -> Bool {
        let lhs = QueryValues.normalized(lhs)
        switch `operator` {
        case .equalTo: return equal(lhs, rhs)
        case .notEqualTo: return !equal(lhs, rhs)
        case .lessThan: return order(lhs, rhs) == .orderedAscending
        case .lessThanOrEqualTo: return order(lhs, rhs).map { $0 != .orderedDescending } ?? false
        case .greaterThan: return order(lhs, rhs) == .orderedDescending
        case .greaterThanOrEqualTo: return order(lhs, rhs).map { $0 != .orderedAscending } ?? false
        case .between: return between(lhs, rhs)
        case .in: return isIn(lhs, rhs)
        case .contains: return contains(lhs, rhs)
        case .beginsWith: return strings(lhs, rhs) { !$1.isEmpty && $0.hasPrefix($1) }
        case .endsWith: return strings(lhs, rhs) { !$1.isEmpty && $0.hasSuffix($1) }
        case .like: return strings(lhs, rhs) { WildcardPattern.matches($0, pattern: $1) }
        case .matches: return matches(lhs, rhs)
        case .customSelector: return false
        }
    }

    static func isASCII(_ string: String) -> Bool { string.utf8.allSatisfy { $0 < 0x80 } }

    func fold(_ string: String) -> String {
        guard folds else { return string }
        // ASCII needs no diacritic folding and folds case byte by byte.
        if Self.isASCII(string) {
            guard options.contains(.caseInsensitive) else { return string }
            return String(decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return string.folding(options: folding, locale: nil)
    }

    private func strings(_ lhs: Any?, _ rhs: Operand, _ test: (String, String) -> Bool) -> Bool {
        guard let lhs, let r = rhs.string, let l = QueryValues.string(lhs) else { return false }
        return test(fold(l), r)
    }

    private func equal(_ lhs: Any?, _ rhs: Operand) -> Bool {
        if folds, rhs.string != nil, let lhs, let l = QueryValues.string(lhs) {
            return foldedOrder(l, rhs) == .orderedSame
        }
        return QueryValues.equalNormalized(lhs, rhs.value)
    }

    /// Ordering for `<`, `<=`, `>`, `>=`, `BETWEEN`: nil when either side is nil or the values
    /// do not compare.
    private func order(_ lhs: Any?, _ rhs: Operand) -> ComparisonResult? {
        guard let lhs, let rhsValue = rhs.value else { return nil }
        if folds, rhs.string != nil, let l = QueryValues.string(lhs) {
            return foldedOrder(l, rhs)
        }
        return QueryValues.compareNormalized(lhs, rhsValue)
    }

    /// Two strings compared with `[c]`/`[d]` as a fetch compares them (the store's
    /// `NSCoreDataStringCompare`, Foundation's `compare(_:options:)`), so evaluation in memory and
    /// in SQL order accented, German, Turkish and other non-ASCII text alike. Plain ASCII is
    /// compared by its case-folded bytes, which orders it the same way without Foundation.
    private func foldedOrder(_ lhs: String, _ rhs: Operand) -> ComparisonResult? {
        guard let folded = rhs.string else { return nil }
        if rhs.unfoldedNonASCII == nil, Self.isASCII(lhs) { return QueryValues.order(fold(lhs), folded) }
        return CoreDataStringSemantics.order(lhs, rhs.unfoldedNonASCII ?? folded, options: foldOptions, localeSensitive: false)
    }

    private func between(_ lhs: Any?, _ rhs: Operand) -> Bool {
        guard let bounds = rhs.elements, bounds.count == 2 else { return false }
        guard let low = order(lhs, bounds[0]), let high = order(lhs, bounds[1]) else { return false }
        return low != .orderedAscending && high != .orderedDescending
    }

    /// `lhs IN rhs`: an element of the collection `rhs`, or a substring of the string `rhs`.
    private func isIn(_ lhs: Any?, _ rhs: Operand) -> Bool {
        if let elements = rhs.elements { return elements.contains { equal(lhs, $0) } }
        guard let container = rhs.string, let lhs, let element = QueryValues.string(lhs) else { return false }
        let folded = fold(element)
        return !folded.isEmpty && container.contains(folded)
    }

    /// `lhs CONTAINS rhs`: the collection `lhs` holds `rhs`, or the string `lhs` contains it.
    private func contains(_ lhs: Any?, _ rhs: Operand) -> Bool {
        guard let lhs else { return false }
        if let elements = QueryValues.collectionElements(lhs) {
            return elements.contains { equal(QueryValues.normalized($0), rhs) }
        }
        return strings(lhs, rhs) { !$1.isEmpty && $0.contains($1) }
    }

    private func matches(_ lhs: Any?, _ rhs: Operand) -> Bool {
        guard let lhs, let rhsValue = rhs.value, let subject = QueryValues.string(lhs), let pattern = QueryValues.string(rhsValue) else {
            return false
        }
        guard let regex = regexCache.regex(pattern, caseInsensitive: options.contains(.caseInsensitive)) else { return false }
        let text = options.contains(.diacriticInsensitive) ? subject.folding(options: .diacriticInsensitive, locale: nil) : subject
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return regex.firstMatch(in: text, options: [.anchored], range: range) != nil
    }
}

/// `LIKE` patterns: `*` matches any run of characters, `?` one character, `\` escapes the next
/// character; the whole string must match. Linear backtracking, so no pattern can hang.
enum WildcardPattern {
    private enum Token: Equatable {
        case literal(Character)
        case any
        case one
    }

    static func matches(_ string: String, pattern: String) -> Bool {
        var tokens: [Token] = []
        var escaped = false
        for character in pattern {
            if escaped {
                tokens.append(.literal(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                if tokens.last != .any { tokens.append(.any) }
            } else if character == "?" {
                tokens.append(.one)
            } else {
                tokens.append(.literal(character))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        let text = Array(string)
        var t = 0
        var p = 0
        var starToken = -1
        var starText = 0
        while t < text.count {
            if p < tokens.count, tokens[p] == .one || tokens[p] == .literal(text[t]) {
                t += 1
                p += 1
            } else if p < tokens.count, tokens[p] == .any {
                starToken = p
                starText = t
                p += 1
            } else if starToken >= 0 {
                p = starToken + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < tokens.count, tokens[p] == .any { p += 1 }
        return p == tokens.count
    }
}
#endif

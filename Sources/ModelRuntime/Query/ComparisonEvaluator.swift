#if !canImport(CoreData)
import Foundation

/// One comparison operator applied to two values in memory, with Foundation's semantics:
/// string operators and options apply to strings only (`[c]` folds case, `[d]` diacritics,
/// Unicode-aware); `==`/`!=` compare any values; ordering operators, `BETWEEN` need comparable
/// values (otherwise false); `IN` and `CONTAINS` work on collections and on strings.
struct ComparisonEvaluator {
    let `operator`: NSComparisonPredicate.Operator
    let options: NSComparisonPredicate.Options
    let regexCache: RegexCache

    private var folds: Bool { !options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) }

    func evaluate(_ lhs: Any?, _ rhs: Any?) -> Bool {
        let lhs = QueryValues.normalized(lhs)
        let rhs = QueryValues.normalized(rhs)
        switch `operator` {
        case .equalTo: return equal(lhs, rhs)
        case .notEqualTo: return !equal(lhs, rhs)
        case .lessThan: return order(lhs, rhs) == .orderedAscending
        case .lessThanOrEqualTo: return order(lhs, rhs).map { $0 != .orderedDescending } ?? false
        case .greaterThan: return order(lhs, rhs) == .orderedDescending
        case .greaterThanOrEqualTo: return order(lhs, rhs).map { $0 != .orderedAscending } ?? false
        case .between: return between(lhs, rhs)
        case .in: return contains(rhs, lhs)
        case .contains: return contains(lhs, rhs)
        case .beginsWith: return strings(lhs, rhs) { !$1.isEmpty && $0.hasPrefix($1) }
        case .endsWith: return strings(lhs, rhs) { !$1.isEmpty && $0.hasSuffix($1) }
        case .like: return strings(lhs, rhs) { WildcardPattern.matches($0, pattern: $1) }
        case .matches: return matches(lhs, rhs)
        case .customSelector: return false
        }
    }

    private func fold(_ string: String) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? string : string.folding(options: folding, locale: nil)
    }

    private func strings(_ lhs: Any?, _ rhs: Any?, _ test: (String, String) -> Bool) -> Bool {
        guard let lhs, let rhs, let l = QueryValues.string(lhs), let r = QueryValues.string(rhs) else { return false }
        return test(fold(l), fold(r))
    }

    private func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        if folds, let lhs, let rhs, let l = QueryValues.string(lhs), let r = QueryValues.string(rhs) {
            return fold(l) == fold(r)
        }
        return QueryValues.equal(lhs, rhs)
    }

    /// Ordering for `<`, `<=`, `>`, `>=`, `BETWEEN`: nil when either side is nil or the values
    /// do not compare.
    private func order(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult? {
        guard let lhs, let rhs else { return nil }
        if folds, let l = QueryValues.string(lhs), let r = QueryValues.string(rhs) {
            return QueryValues.order(fold(l), fold(r))
        }
        return QueryValues.compare(lhs, rhs)
    }

    private func between(_ lhs: Any?, _ rhs: Any?) -> Bool {
        guard let rhs, let bounds = QueryValues.collectionElements(rhs), bounds.count == 2 else { return false }
        guard let low = order(lhs, QueryValues.normalized(bounds[0])), let high = order(lhs, QueryValues.normalized(bounds[1])) else {
            return false
        }
        return low != .orderedAscending && high != .orderedDescending
    }

    /// Whether `container` (a collection or a string) contains `element`.
    private func contains(_ container: Any?, _ element: Any?) -> Bool {
        guard let container else { return false }
        if let elements = QueryValues.collectionElements(container) {
            return elements.contains { equal(QueryValues.normalized($0), element) }
        }
        return strings(container, element) { $1.isEmpty ? false : $0.contains($1) }
    }

    private func matches(_ lhs: Any?, _ rhs: Any?) -> Bool {
        guard let lhs, let rhs, let subject = QueryValues.string(lhs), let pattern = QueryValues.string(rhs) else { return false }
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

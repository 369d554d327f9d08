#if !canImport(CoreData)
import Foundation

// `#Predicate` on Apple platforms accepts `localizedStandardContains(_:)`,
// `caseInsensitiveCompare(_:)` and `localizedCompare(_:)`; the macro expands them to
// `PredicateExpressions.build_…` functions that Foundation declares on Apple platforms only.
// The runtime declares the same functions and expression types (same names and shapes as
// Apple's), so predicates that use them compile and run on Linux too.

extension PredicateExpressions {
    /// `a.localizedStandardContains(b)`: case- and diacritic-insensitive substring search.
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool
        public let root: Root
        public let other: Other

        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
        }
    }

    /// `a.caseInsensitiveCompare(b)`.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = ComparisonResult
        public let root: Root
        public let other: Other

        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).caseInsensitiveCompare(try other.evaluate(bindings))
        }
    }

    /// `a.localizedCompare(b)`.
    public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = ComparisonResult
        public let root: Root
        public let other: Other

        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).localizedCompare(try other.evaluate(bindings))
        }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
        -> StringLocalizedStandardContains<Root, Other>
    {
        StringLocalizedStandardContains(root: root, other: other)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other)
        -> StringCaseInsensitiveCompare<Root, Other>
    {
        StringCaseInsensitiveCompare(root: root, other: other)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    public static func build_localizedCompare<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedCompare<Root, Other> {
        StringLocalizedCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringLocalizedStandardContains: TranslatablePredicateExpression {
    /// `CONTAINS[cd]`: case- and diacritic-insensitive, as `localizedStandardContains` is.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(
            translator.compare(
                try translator.operand(root), .contains, try translator.operand(other), options: [.caseInsensitive, .diacriticInsensitive]),
            nilWhen: nil)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: TranslatablePredicateExpression {
    /// Compared with `.orderedSame`/`.orderedAscending`/`.orderedDescending`: `==[c]`, `<[c]`, `>[c]`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .ordering(try translator.operand(root), try translator.operand(other), options: [.caseInsensitive], part: "caseInsensitiveCompare")
    }
}

extension PredicateExpressions.StringLocalizedCompare: TranslatablePredicateExpression {
    /// Refused: predicates in a fetch compare strings by their UTF-8 bytes (or with `[c]`/`[d]`
    /// folding); none of them orders by the locale's rules, so a translation would select other
    /// objects than Swift does (`"équateur" < "Oslo"` by locale, not by bytes).
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        throw PredicateTranslator.error(
            self,
            "a fetch has no locale-aware string comparison; compare with caseInsensitiveCompare(_:) or ==, "
                + "or sort with SortDescriptor / NSSortDescriptor(key:ascending:selector: \"localizedCompare:\")")
    }
}
#endif

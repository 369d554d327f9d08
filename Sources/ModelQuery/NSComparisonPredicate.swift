#if !canImport(CoreData)
import Foundation

/// A comparison of two expressions (`name BEGINSWITH[c] "a"`, `ANY tags.name == $tag`).
///
/// Linux Foundation has its own `NSComparisonPredicate`; a file importing Foundation too finds both
/// ("ambiguous for type lookup"): add `typealias NSComparisonPredicate = ModelRuntime.NSComparisonPredicate` to the module.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    public enum Modifier: UInt, Sendable {
        case direct = 0
        case all = 1
        case any = 2
    }

    public enum Operator: UInt, Sendable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        case customSelector = 11
        case contains = 99
        case between = 100
    }

    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: the strings are already normalized (accepted; comparisons are unchanged).
        public static let normalized = Options(rawValue: 4)
        /// `[l]`: locale-sensitive; accepted and written back, not public in Foundation.
        static let localeSensitive = Options(rawValue: 8)
    }

    public let leftExpression: NSExpression
    public let rightExpression: NSExpression
    public let comparisonPredicateModifier: Modifier
    public let predicateOperatorType: Operator
    public let options: Options
    private let evaluator: ComparisonEvaluator
    /// The right-hand side prepared once when it is a constant (or an aggregate of constants).
    private let constantRight: ComparisonEvaluator.Operand?

    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: Modifier, type: Operator,
        options: Options = []
    ) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        let evaluator = ComparisonEvaluator(operator: type, options: options, regexCache: RegexCache())
        self.evaluator = evaluator
        constantRight = rhs.constantValueIfKnown.map { evaluator.prepare($0.value) }
        super.init(subclass: ())
    }

    /// Comparisons with custom selectors need Objective-C; none is ever set here.
    public var customSelector: Selector? { nil }

    override func evaluate(_ object: Any?, variables: [String: Any]) -> Bool {
        let lhs = leftExpression.value(of: object, variables: variables)
        let rhs = constantRight ?? evaluator.prepare(rightExpression.value(of: object, variables: variables))
        let comparison = evaluator
        switch comparisonPredicateModifier {
        case .direct:
            return comparison.evaluate(lhs, rhs)
        case .any:
            guard let elements = Self.flattened(lhs) else { return false }
            return elements.contains { comparison.evaluate($0, rhs) }
        case .all:
            guard let elements = Self.flattened(lhs) else { return KeyPathReader.unwrapped(lhs) == nil }
            return elements.allSatisfy { comparison.evaluate($0, rhs) }
        }
    }

    /// The elements ANY/ALL range over: nested collections (`ANY trips.stops.name`) flattened.
    private static func flattened(_ value: Any?) -> [Any]? {
        guard let value = KeyPathReader.unwrapped(value), let elements = QueryValues.collectionElements(value) else { return nil }
        return elements.flatMap { element -> [Any] in
            flattened(element) ?? [element]
        }
    }

    override func substituting(_ variables: [String: Any]) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: leftExpression.substituting(variables), rightExpression: rightExpression.substituting(variables),
            modifier: comparisonPredicateModifier, type: predicateOperatorType, options: options)
    }
}

/// The last compiled `MATCHES` pattern of one predicate, so evaluating over many objects
/// compiles a constant pattern once.
final class RegexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var pattern: String?
    private var caseInsensitive = false
    private var regex: NSRegularExpression?

    func regex(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if pattern == self.pattern && caseInsensitive == self.caseInsensitive { return regex }
        // Whole-string match: the pattern must end at the end of the string (`.anchored` pins the start).
        regex = try? NSRegularExpression(pattern: "(?:\(pattern))\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        return regex
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// A logical condition on an object, Foundation's `NSPredicate`: parsed from a format string or
/// built from `NSComparisonPredicate` and `NSCompoundPredicate`, evaluated in memory with
/// `evaluate(with:)`. Immutable, so it is `Sendable` as Foundation's is.
///
/// `NSPredicate(format:)` returns the parsed tree's own class (an `NSComparisonPredicate`, an
/// `NSCompoundPredicate`, or a plain `NSPredicate` for `TRUEPREDICATE`/`FALSEPREDICATE`), as
/// Foundation's class cluster does, so `as? NSComparisonPredicate` works on parsed predicates.
///
/// Linux Foundation has its own `NSPredicate`; a file importing Foundation too finds both
/// ("ambiguous for type lookup"): add `typealias NSPredicate = ModelRuntime.NSPredicate` to the module.
open class NSPredicate: NSObject, NSCopying, @unchecked Sendable {
    /// The value of a `TRUEPREDICATE`/`FALSEPREDICATE`; nil in subclasses.
    package let fixedValue: Bool?
    /// The closure of a block predicate. Block predicates evaluate in memory only; a store
    /// cannot translate them.
    let block: ((Any?, [String: Any]?) -> Bool)?

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        fixedValue = value
        block = nil
        super.init()
    }

    /// A predicate that calls `block` with the object and the substitution variables.
    public init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        fixedValue = nil
        self.block = block
        super.init()
    }

    init(subclass: Void) {
        fixedValue = nil
        block = nil
        super.init()
    }

    /// The predicate in the format language, as Foundation writes it.
    open var predicateFormat: String { PredicateFormatWriter.predicate(self) }

    open override var description: String { predicateFormat }

    /// Whether `object` (a `KeyValueReadable`, a `[String: Any]`, or a plain value for `SELF`)
    /// satisfies the predicate.
    open func evaluate(with object: Any?) -> Bool {
        evaluate(object, variables: [:])
    }

    /// Evaluates with `$variables` bound to `bindings`.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        evaluate(object, variables: bindings ?? [:])
    }

    /// A copy with `$variables` replaced by the given values (variables not in the dictionary stay).
    open func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        substituting(variables) as! Self
    }

    /// Foundation needs this before evaluating predicates decoded from an archive; here every
    /// predicate may be evaluated, so it does nothing.
    open func allowEvaluation() {}

    func evaluate(_ object: Any?, variables: [String: Any]) -> Bool {
        if let block { return block(object, variables) }
        return fixedValue ?? false
    }

    func substituting(_ variables: [String: Any]) -> NSPredicate {
        self
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return self === other || (type(of: self) == type(of: other) && predicateFormat == other.predicateFormat)
    }

    open override var hash: Int { predicateFormat.hashValue }
}

/// Lets `NSPredicate(format:)` return the parsed predicate's own subclass (an initialiser in a
/// protocol extension may assign `self`; a class initialiser may not). Only `NSPredicate` and
/// its subclasses conform; do not conform other types.
public protocol PredicateFormatInitializable {}

extension NSPredicate: PredicateFormatInitializable {}

extension PredicateFormatInitializable {
    /// Parses a predicate format string; `%@`, `%K`, `%d`, … take their values from `arguments`.
    ///
    /// A format that does not parse is a programming error, as in Foundation (which raises an
    /// Objective-C exception): the program stops with the parse error's message and position.
    /// Use `init(parsing:arguments:)` to handle formats that come from input.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let parsed: NSPredicate
        do {
            parsed = try PredicateFormatParser.parsePredicate(predicateFormat, arguments: arguments ?? [])
        } catch {
            fatalError("NSPredicate(format:): \(error)")
        }
        guard let typed = parsed as? Self else {
            fatalError("NSPredicate(format:): \"\(predicateFormat)\" is \(type(of: parsed)), not \(Self.self)")
        }
        self = typed
    }

    /// Parses a predicate format string with variadic arguments (Foundation takes `CVarArg...`;
    /// Linux's Foundation does not make dates, numbers or arrays `CVarArg`, so any value is accepted).
    public init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// Parses a predicate format string, throwing a `PredicateFormatError` that names the
    /// problem and its position. Not in Foundation; for formats that come from input.
    public init(parsing predicateFormat: String, arguments: [Any] = []) throws(PredicateFormatError) {
        let parsed = try PredicateFormatParser.parsePredicate(predicateFormat, arguments: arguments)
        guard let typed = parsed as? Self else {
            throw PredicateFormatError(
                message: "the predicate is \(type(of: parsed)), not \(Self.self)", format: predicateFormat, offset: 0)
        }
        self = typed
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// A Foundation `Predicate` (`#Predicate`) or `SortDescriptor` that has no `NSPredicate` /
/// `NSSortDescriptor` form the store can run, naming the part that does not translate.
///
/// On Apple platforms `NSPredicate(_:)` returns nil for such predicates without saying why; the
/// runtime throws this error instead, so the message can name the expression.
public struct PredicateTranslationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The part that does not translate, as Foundation names its expression type
    /// (`PredicateExpressions.Arithmetic`), or the key path, or the comparator.
    public let part: String
    /// Why it does not translate, and what to write instead where there is an alternative.
    public let reason: String

    public init(part: String, reason: String) {
        self.part = part
        self.reason = reason
    }

    public var description: String { "\(part) cannot be translated to a fetch: \(reason)" }

    /// `NSCocoaErrorDomain`, `NSCoreDataError` (134060), as `FetchSQLError.nsError` reports
    /// predicates the store cannot run.
    public var nsError: NSError {
        NSError(domain: NSCocoaErrorDomain, code: 134060, userInfo: [NSLocalizedDescriptionKey: description])
    }
}
#endif

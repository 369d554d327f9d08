#if !canImport(CoreData)
import Foundation

/// `AND`, `OR` or `NOT` of other predicates. An empty `AND` is true, an empty `OR` false.
///
/// Linux Foundation has its own `NSCompoundPredicate`; a file importing Foundation too finds both
/// ("ambiguous for type lookup"): add `typealias NSCompoundPredicate = ModelRuntime.NSCompoundPredicate` to the module.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    public enum LogicalType: UInt, Sendable {
        case not = 0
        case and = 1
        case or = 2
    }

    public let compoundPredicateType: LogicalType
    /// The subpredicates, typed as the engine walks them.
    package let predicates: [NSPredicate]

    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        compoundPredicateType = type
        predicates = subpredicates
        super.init(subclass: ())
    }

    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// The subpredicates (`NSPredicate` values; typed `[Any]` as in Foundation).
    open var subpredicates: [Any] { predicates }

    override func evaluate(_ object: Any?, variables: [String: Any]) -> Bool {
        switch compoundPredicateType {
        case .and: return predicates.allSatisfy { $0.evaluate(object, variables: variables) }
        case .or: return predicates.contains { $0.evaluate(object, variables: variables) }
        case .not: return !(predicates.first?.evaluate(object, variables: variables) ?? false)
        }
    }

    override func substituting(_ variables: [String: Any]) -> NSPredicate {
        NSCompoundPredicate(type: compoundPredicateType, subpredicates: predicates.map { $0.substituting(variables) })
    }
}
#endif

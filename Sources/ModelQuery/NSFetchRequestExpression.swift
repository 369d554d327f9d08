#if !canImport(CoreData)
import Foundation

/// `FETCH(request, context, countOnly)`: an expression whose value is the result of a fetch
/// request executed in a context, or its count. Mapping models use one as each entity mapping's
/// source expression, with `$manager.sourceContext` as the context.
open class NSFetchRequestExpression: NSExpression, @unchecked Sendable {
    open class func expression(forFetch fetch: NSExpression, context: NSExpression, countOnly countFlag: Bool) -> NSExpression {
        NSFetchRequestExpression(kind: .fetch(request: fetch, context: context, countOnly: countFlag))
    }

    /// The expression whose value is the fetch request.
    open var requestExpression: NSExpression {
        guard case .fetch(let request, _, _) = kind else { return NSExpression(forConstantValue: nil) }
        return request
    }

    /// The expression whose value is the managed object context the request runs in.
    open var contextExpression: NSExpression {
        guard case .fetch(_, let context, _) = kind else { return NSExpression(forConstantValue: nil) }
        return context
    }

    open var isCountOnlyRequest: Bool {
        guard case .fetch(_, _, let countOnly) = kind else { return false }
        return countOnly
    }
}
#endif

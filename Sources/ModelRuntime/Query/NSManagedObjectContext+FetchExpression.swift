#if !canImport(CoreData)
import ModelQuery

/// A context runs the requests of `FETCH` expressions that name it.
extension NSManagedObjectContext: FetchExpressionContext {
    package func resultsOfFetchExpression(_ request: Any, countOnly: Bool) -> Any? {
        if let request = request as? NSFetchRequest<NSFetchRequestResult> {
            return countOnly ? (try? count(for: request)) : (try? fetch(request))
        }
        if let request = request as? NSFetchRequest<NSManagedObject> {
            return countOnly ? (try? count(for: request)) : (try? fetch(request))
        }
        return nil
    }
}
#endif

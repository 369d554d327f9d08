#if !canImport(CoreData)
import ModelQuery

/// The grouped or aggregating form of a dictionary fetch: used when `propertiesToFetch` holds an
/// `NSExpressionDescription` or `propertiesToGroupBy` is set. Checks the request's rules first,
/// as Core Data does when it runs the fetch (where it raises `NSInvalidArgumentException`, the
/// runtime throws the error with the same reason).
enum DictionaryGrouping {
    /// Whether the request needs the grouped form.
    static func applies<T>(to request: NSFetchRequest<T>) -> Bool {
        request.propertiesToGroupBy != nil || request.havingPredicate != nil
            || (request.propertiesToFetch ?? []).contains { $0 is NSExpressionDescription }
    }

    /// Refuses grouping outside dictionary fetches, and a having predicate without grouping.
    static func checkResultType<T>(of request: NSFetchRequest<T>) throws {
        if request.propertiesToGroupBy != nil, request.resultType != .dictionaryResultType {
            throw invalid("Invalid fetch request: GROUP BY requires NSDictionaryResultType")
        }
        if request.havingPredicate != nil, request.propertiesToGroupBy?.isEmpty ?? true {
            throw invalid("Invalid fetch request: HAVING requires a GROUP BY")
        }
    }

    /// The selection of a grouped dictionary fetch; `defaultNames` are the properties fetched
    /// when `propertiesToFetch` is nil.
    static func grouping<T>(of request: NSFetchRequest<T>, defaultNames: [String]) throws -> FetchSQLGrouping {
        let fetched: [FetchSQLGrouping.Value] =
            try request.propertiesToFetch.map { try $0.map(value) }
            ?? defaultNames.map { FetchSQLGrouping.Value(name: $0, expression: NSExpression(forKeyPath: $0)) }
        let groups = try (request.propertiesToGroupBy ?? []).map(value)
        if !groups.isEmpty {
            let grouped = Set(groups.map(\.name))
            for value in fetched where !grouped.contains(value.name) && !containsAggregate(value.expression) {
                throw invalid(
                    "SELECT clauses in queries with GROUP BY components can only contain properties named in the GROUP BY or aggregate functions (\(value.name) is not in the GROUP BY)"
                )
            }
        }
        return FetchSQLGrouping(values: fetched, groupBy: groups.map(\.expression), having: request.havingPredicate)
    }

    /// A property to fetch or group by: a key path string, an attribute or relationship
    /// description (by name), or an expression description.
    private static func value(_ item: Any) throws -> FetchSQLGrouping.Value {
        if let description = item as? NSExpressionDescription {
            guard let expression = description.expression else {
                throw invalid("Invalid fetch request: expression description \(description.name) has no expression")
            }
            return FetchSQLGrouping.Value(name: description.name, expression: expression)
        }
        if let description = item as? NSPropertyDescription {
            return FetchSQLGrouping.Value(name: description.name, expression: NSExpression(forKeyPath: description.name))
        }
        if let keyPath = item as? String {
            return FetchSQLGrouping.Value(name: keyPath, expression: NSExpression(forKeyPath: keyPath))
        }
        throw invalid("Invalid fetch request: \(item) is not a property name, property description or expression description")
    }

    private static func containsAggregate(_ expression: NSExpression) -> Bool {
        switch expression.kind {
        case .function(let name, let arguments):
            return FetchSQLBuilder.isAggregateFunction(name) || arguments.contains(where: containsAggregate)
        case .constant:
            // A literal is allowed in the select list of a grouped fetch.
            return true
        default:
            return false
        }
    }

    /// Core Data's `NSInvalidArgumentException` as a thrown error: `NSCoreDataError` with the
    /// exception's name and reason.
    static func invalid(_ reason: String) -> NSError {
        CoreDataError.make(NSCoreDataError, reason, ["NSExceptionName": "NSInvalidArgumentException"])
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// What runs a `FETCH` expression's request: the managed object context the expression names.
package protocol FetchExpressionContext: AnyObject {
    /// The request's results, or their count; nil when `request` is no fetch request or the
    /// fetch fails.
    func resultsOfFetchExpression(_ request: Any, countOnly: Bool) -> Any?
}

/// A value that answers methods by selector name, as `FUNCTION(target, "selector:", …)` calls
/// them through the Objective-C runtime on Apple platforms.
package protocol SelectorCallable: AnyObject {
    /// The method's result (nil inside for a nil result), or nil when the receiver has no method
    /// of that name.
    func callSelector(_ selector: String, arguments: [Any?]) -> Any??
}

/// Calls methods by selector name for `FUNCTION` expressions, and runs `FETCH` expressions. The
/// methods a target answers: those of a ``SelectorCallable`` (the migration manager's,
/// a migration policy's registered functions), and these of strings and numbers:
/// `uppercaseString`, `lowercaseString`, `capitalizedString`, `length`, `description`,
/// `stringByAppendingString:`, `componentsSeparatedByString:`,
/// `stringByReplacingOccurrencesOfString:withString:`, `hasPrefix:`, `hasSuffix:`,
/// `stringValue`, `intValue`, `integerValue`, `doubleValue`, `boolValue`. Any other gives nil
/// and is reported once on standard error, where Core Data would raise
/// "unrecognized selector".
enum SelectorDispatch {
    static func perform(_ selector: String, on target: Any?, arguments: [Any?]) -> Any? {
        guard let target = KeyPathReader.unwrapped(target) else { return nil }
        if let callable = target as? any SelectorCallable, let result = callable.callSelector(selector, arguments: arguments) {
            return result
        }
        if let result = foundationMethod(selector, of: target, arguments: arguments) { return result }
        unrecognized(selector, target)
        return nil
    }

    /// The results of `request` (an `NSFetchRequest`) in `context`, or their count: what a
    /// `FETCH` expression gives, from a context that runs fetch requests.
    static func fetch(_ request: Any?, in context: Any?, countOnly: Bool) -> Any? {
        guard let context = context as? any FetchExpressionContext, let request else { return nil }
        return context.resultsOfFetchExpression(request, countOnly: countOnly)
    }

    private static func foundationMethod(_ selector: String, of target: Any, arguments: [Any?]) -> Any?? {
        let first = arguments.first.flatMap { $0 }
        if let string = target as? String {
            switch selector {
            case "uppercaseString": return string.uppercased()
            case "lowercaseString": return string.lowercased()
            case "capitalizedString": return string.capitalized
            case "length": return NSNumber(value: string.utf16.count)
            case "description", "stringValue": return string
            case "stringByAppendingString:": return string + ((first as? String) ?? "")
            case "componentsSeparatedByString:":
                guard let separator = first as? String else { return .some(nil) }
                return string.components(separatedBy: separator)
            case "stringByReplacingOccurrencesOfString:withString:":
                guard let old = first as? String, arguments.count == 2, let new = arguments[1] as? String else { return .some(nil) }
                return string.replacingOccurrences(of: old, with: new)
            case "hasPrefix:": return NSNumber(value: (first as? String).map(string.hasPrefix) ?? false)
            case "hasSuffix:": return NSNumber(value: (first as? String).map(string.hasSuffix) ?? false)
            case "intValue", "integerValue": return NSNumber(value: Int(string.trimmingCharacters(in: .whitespaces)) ?? 0)
            case "doubleValue": return NSNumber(value: Double(string.trimmingCharacters(in: .whitespaces)) ?? 0)
            case "boolValue": return NSNumber(value: ["y", "Y", "t", "T", "1"].contains(string.first.map(String.init) ?? ""))
            default: return nil
            }
        }
        if let number = QueryValues.normalized(target).flatMap(QueryValues.number) {
            let boxed = QueryValues.box(number) as? NSNumber ?? NSNumber(value: 0)
            switch selector {
            case "description", "stringValue": return boxed.stringValue
            case "intValue", "integerValue": return NSNumber(value: boxed.intValue)
            case "doubleValue": return NSNumber(value: boxed.doubleValue)
            case "boolValue": return NSNumber(value: boxed.boolValue)
            default: return nil
            }
        }
        return nil
    }

    private static let reported = LockedCache<Set<String>>([])

    private static func unrecognized(_ selector: String, _ target: Any) {
        let key = "\(type(of: target)) \(selector)"
        guard reported.withLock({ $0.insert(key).inserted }) else { return }
        FileHandle.standardError.write(
            Data("ModelRuntime: FUNCTION: \(type(of: target)) does not answer the selector \"\(selector)\"; the expression is nil\n".utf8))
    }
}
#endif

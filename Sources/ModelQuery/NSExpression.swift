#if !canImport(CoreData)
import Foundation

/// An expression in a predicate: a constant, the evaluated object (`SELF`), a `$variable`, a key
/// path, a function, an aggregate `{a, b}` or a `SUBQUERY`. Immutable, like Foundation's.
///
/// Linux Foundation has its own `NSExpression`; a file importing Foundation too finds both
/// ("ambiguous for type lookup"): add `typealias NSExpression = ModelRuntime.NSExpression` to the module.
open class NSExpression: NSObject, NSCopying, @unchecked Sendable {
    public enum ExpressionType: UInt, Sendable {
        case constantValue = 0
        case evaluatedObject = 1
        case variable = 2
        case keyPath = 3
        case function = 4
        case unionSet = 5
        case intersectSet = 6
        case minusSet = 7
        case subquery = 13
        case aggregate = 14
        case anyKey = 15
        case block = 19
        case conditional = 20
    }

    /// The tree a query engine walks. A key path with an operand (`$x.name`, `SELF.name` is
    /// folded to `name`) reads the path from the operand's value.
    package indirect enum Kind {
        case constant(Any?)
        case evaluatedObject
        case variable(String)
        case keyPath(String, components: [String], operand: NSExpression?)
        case function(String, arguments: [NSExpression])
        case aggregate([NSExpression])
        case subquery(collection: NSExpression, variable: String, predicate: NSPredicate)
        /// `FUNCTION(target, "selector:", arguments…)`: a method of the target's value, called by
        /// its selector name (see ``SelectorDispatch``).
        case call(target: NSExpression, selector: String, arguments: [NSExpression])
        /// `FETCH(request, context, countOnly)`: the request's results in the context.
        case fetch(request: NSExpression, context: NSExpression, countOnly: Bool)
    }

    package let kind: Kind

    package init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// The value when it does not depend on the object or variables: a constant, or an
    /// aggregate of such values (wrapped so a nil constant is told apart from "not constant").
    package var constantValueIfKnown: (value: Any?, Void)? {
        switch kind {
        case .constant(let value):
            return (value, ())
        case .aggregate(let elements):
            var values: [Any] = []
            for element in elements {
                guard let known = element.constantValueIfKnown else { return nil }
                values.append(known.value ?? NSNull())
            }
            return (values, ())
        default:
            return nil
        }
    }

    public convenience init(forConstantValue obj: Any?) {
        self.init(kind: .constant(KeyPathReader.unwrapped(obj)))
    }

    public class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(kind: .evaluatedObject)
    }

    public convenience init(forVariable string: String) {
        self.init(kind: .variable(string))
    }

    public convenience init(forKeyPath keyPath: String) {
        self.init(kind: .keyPath(keyPath, components: KeyPathReader.components(keyPath), operand: nil))
    }

    /// The expression of a Swift key path of a type that names its key paths.
    public convenience init<Root: KeyPathStringConvertible, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        guard let name = ModelQuery.keyPathString(keyPath) else {
            fatalError("NSExpression(forKeyPath:): \(Root.self) gives no string key for \(keyPath)")
        }
        self.init(forKeyPath: name)
    }

    /// A function expression. Supported names: `sum:`, `count:`, `min:`, `max:`, `average:`,
    /// `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`, `modulus:by:`, `raise:toPower:`,
    /// `abs:`, `sqrt:`, `floor:`, `ceiling:`, `trunc:`, `ln:`, `log:`, `exp:`, `uppercase:`,
    /// `lowercase:`, `now`; others evaluate to nil.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        self.init(kind: .function(name, arguments: parameters.map(NSExpression.wrapping)))
    }

    /// `FUNCTION(target, "selector", arguments…)`: calls the method named `name` on the value of
    /// `target`. On Linux, which has no Objective-C runtime, the methods a target answers are
    /// those the runtime lists (docs/runtime/Queries.md, "Supported syntax"): a migration manager's, a migration policy's
    /// ``NSEntityMigrationPolicy/migrationFunctions``, and a few of strings and numbers.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        self.init(kind: .call(target: target, selector: name, arguments: (parameters ?? []).map(NSExpression.wrapping)))
    }

    public convenience init(forAggregate subexpressions: [Any]) {
        self.init(kind: .aggregate(subexpressions.map(NSExpression.wrapping)))
    }

    public convenience init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(kind: .subquery(collection: expression, variable: variable, predicate: predicate))
    }

    /// Parses an expression in the predicate format language (`"trip.name"`, `"%@"`, `"{1, 2}"`).
    /// A bad format is a programming error, reported with the parse error's message.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            try self.init(parsing: expressionFormat, arguments: arguments)
        } catch {
            fatalError("NSExpression(format:): \(error)")
        }
    }

    public convenience init(format expressionFormat: String, _ args: Any...) {
        self.init(format: expressionFormat, argumentArray: args)
    }

    /// Parses an expression, throwing a `PredicateFormatError` that names the problem and its
    /// position instead of stopping the program.
    public convenience init(parsing expressionFormat: String, arguments: [Any] = []) throws(PredicateFormatError) {
        var parser = try PredicateFormatParser(expressionFormat, arguments: arguments)
        self.init(kind: try parser.parseWholeExpression().kind)
    }

    private static func wrapping(_ value: Any) -> NSExpression {
        value as? NSExpression ?? NSExpression(forConstantValue: value)
    }

    public var expressionType: ExpressionType {
        switch kind {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable: return .variable
        case .keyPath(_, _, let operand): return operand == nil ? .keyPath : .function
        case .function: return .function
        case .aggregate: return .aggregate
        case .subquery: return .subquery
        // Core Data's fetch expressions are of `NSFetchRequestExpressionType` (50), a value this
        // enumeration has no case for; they report themselves as function expressions here.
        case .call, .fetch: return .function
        }
    }

    public var constantValue: Any? {
        guard case .constant(let value) = kind else { misuse("constantValue") }
        return value
    }

    public var keyPath: String {
        guard case .keyPath(let path, _, _) = kind else { misuse("keyPath") }
        return path
    }

    public var variable: String {
        guard case .variable(let name) = kind else { misuse("variable") }
        return name
    }

    public var function: String {
        switch kind {
        case .function(let name, _): return name
        case .call(_, let selector, _): return selector
        case .keyPath: return "valueForKeyPath:"
        default: misuse("function")
        }
    }

    public var arguments: [NSExpression]? {
        switch kind {
        case .function(_, let arguments): return arguments
        case .call(_, _, let arguments): return arguments
        case .keyPath(let path, _, .some): return [NSExpression(forKeyPath: path)]
        default: return nil
        }
    }

    public var operand: NSExpression {
        switch kind {
        case .keyPath(_, _, let operand?): return operand
        case .call(let target, _, _): return target
        case .function: return NSExpression(forConstantValue: nil)
        default: misuse("operand")
        }
    }

    /// The subexpressions of an aggregate, or the collection expression of a subquery.
    public var collection: Any {
        switch kind {
        case .aggregate(let elements): return elements
        case .subquery(let collection, _, _): return collection
        default: misuse("collection")
        }
    }

    public var predicate: NSPredicate {
        guard case .subquery(_, _, let predicate) = kind else { misuse("predicate") }
        return predicate
    }

    private func misuse(_ property: String) -> Never {
        fatalError("NSExpression: \(property) is not defined for \(expressionType) expressions")
    }

    /// The expression's value for `object`; `context` supplies `$variables` (String keys).
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: Any] = [:]
        for (key, value) in context ?? [:] {
            if let key = key as? String { variables[key] = value }
        }
        return value(of: object, variables: variables)
    }

    package func value(of object: Any?, variables: [String: Any]) -> Any? {
        switch kind {
        case .constant(let value):
            return value
        case .evaluatedObject:
            return object
        case .variable(let name):
            return KeyPathReader.unwrapped(variables[name])
        case .keyPath(_, let components, let operand):
            let base = operand.map { $0.value(of: object, variables: variables) } ?? object
            return KeyPathReader.value(at: components, of: base)
        case .aggregate(let elements):
            return elements.map { $0.value(of: object, variables: variables) ?? NSNull() }
        case .function(let name, let arguments):
            return ExpressionFunctions.apply(name, arguments.map { $0.value(of: object, variables: variables) })
        case .subquery(let collection, let variable, let predicate):
            guard let elements = collection.value(of: object, variables: variables).flatMap(QueryValues.collectionElements) else {
                return nil
            }
            var bound = variables
            return elements.filter { element in
                bound[variable] = element
                return predicate.evaluate(object, variables: bound)
            }
        case .call(let target, let selector, let arguments):
            return SelectorDispatch.perform(
                selector, on: target.value(of: object, variables: variables),
                arguments: arguments.map { $0.value(of: object, variables: variables) })
        case .fetch(let request, let context, let countOnly):
            return SelectorDispatch.fetch(
                request.value(of: object, variables: variables), in: context.value(of: object, variables: variables),
                countOnly: countOnly)
        }
    }

    /// A copy with `$variables` replaced by constants; unbound variables stay.
    func substituting(_ variables: [String: Any]) -> NSExpression {
        switch kind {
        case .variable(let name):
            guard let value = variables[name] else { return self }
            return NSExpression(forConstantValue: value)
        case .keyPath(let path, let components, let operand?):
            return NSExpression(kind: .keyPath(path, components: components, operand: operand.substituting(variables)))
        case .aggregate(let elements):
            return NSExpression(kind: .aggregate(elements.map { $0.substituting(variables) }))
        case .function(let name, let arguments):
            return NSExpression(kind: .function(name, arguments: arguments.map { $0.substituting(variables) }))
        case .subquery(let collection, let variable, let predicate):
            var inner = variables
            inner[variable] = nil
            return NSExpression(
                kind: .subquery(
                    collection: collection.substituting(variables), variable: variable, predicate: predicate.substituting(inner)))
        case .call(let target, let selector, let arguments):
            return NSExpression(
                kind: .call(
                    target: target.substituting(variables), selector: selector, arguments: arguments.map { $0.substituting(variables) }))
        case .fetch(let request, let context, let countOnly):
            return NSExpression(
                kind: .fetch(request: request.substituting(variables), context: context.substituting(variables), countOnly: countOnly))
        case .constant, .evaluatedObject, .keyPath:
            return self
        }
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String { PredicateFormatWriter.expression(self) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return self === other || description == other.description
    }

    open override var hash: Int { description.hashValue }
}
#endif

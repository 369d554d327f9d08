#if !canImport(CoreData)
import Foundation

/// One operand of a translated comparison: an `NSExpression` (constant, key path, `$variable`,
/// `@count`), or a choice between operands made by `??` and `?:`, each under its condition.
/// Comparisons expand a choice into `(condition AND comparison) OR …`.
indirect enum PredicateOperand {
    case expression(NSExpression)
    case choice([(condition: NSPredicate, operand: PredicateOperand)])

    /// The constant's value when the operand is a constant (a nil constant is `.some(nil)`).
    var constant: Any?? {
        guard case .expression(let expression) = self, case .constant(let value) = expression.kind else { return nil }
        return .some(value)
    }
}

/// What one `PredicateExpressions` node translates to.
enum TranslatedNode {
    /// A condition. `nilWhen` is set for an optional Boolean (`$0.notes?.isEmpty`): the
    /// condition under which the Swift value is nil rather than true or false.
    case predicate(NSPredicate, nilWhen: NSPredicate?)
    /// A value of Swift type `type`.
    case value(PredicateOperand, type: Any.Type)
    /// `a.caseInsensitiveCompare(b)` / `a.localizedCompare(b)`: an ordering that only a
    /// comparison with a `ComparisonResult` constant turns into a condition.
    case ordering(PredicateOperand, PredicateOperand, options: NSComparisonPredicate.Options, part: String)
    /// `lower...upper` or `lower..<upper` with bounds that are not both constants.
    case range(lower: PredicateOperand, upper: PredicateOperand, closed: Bool)
}

/// A `PredicateExpressions` node the translator knows. Every conformance translates its own
/// node and asks the translator for its children, so a child of a type without a conformance
/// is reported by its own name.
protocol TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode
}

/// Turns the expression tree of a Foundation `Predicate` into the runtime's `NSPredicate` tree.
///
/// Every subtree that does not read the predicate's input is evaluated once, here, by
/// Foundation and becomes a constant (captured variables, literals, `limit + 1`). The rest maps
/// node by node: key paths by the names `KeyPathStringConvertible` gives them, optional chains
/// to key paths (nil propagates as it does in SQL), `contains(where:)`/`allSatisfy` over
/// to-many relationships to `SUBQUERY(…).@count`.
final class PredicateTranslator {
    private var bindings: [PredicateExpressions.VariableID: PredicateOperand] = [:]
    private var iteratorNames: Set<String> = []

    init(input: PredicateExpressions.VariableID) {
        bindings[input] = .expression(.expressionForEvaluatedObject())
    }

    static func translate<Input>(_ predicate: Predicate<Input>) throws(PredicateTranslationError) -> NSPredicate {
        let translator = PredicateTranslator(input: predicate.variable.key)
        return try translator.condition(predicate.expression)
    }

    // MARK: Nodes

    /// The translation of one node: a constant when it does not depend on the input, else the
    /// node's own translation.
    func node<E: PredicateExpression>(_ expression: E) throws(PredicateTranslationError) -> TranslatedNode {
        if let value = Self.constantValue(of: expression) {
            return .value(.expression(NSExpression(forConstantValue: value.value)), type: E.Output.self)
        }
        guard let translatable = expression as? any TranslatablePredicateExpression else {
            throw Self.unsupported(expression)
        }
        return try translatable.translate(with: self)
    }

    /// A node that must be a condition (the operand of `&&`, `||`, `!`, the whole predicate).
    func condition<E: PredicateExpression>(_ expression: E) throws(PredicateTranslationError) -> NSPredicate {
        try condition(node(expression), part: expression)
    }

    func condition(_ node: TranslatedNode, part: Any) throws(PredicateTranslationError) -> NSPredicate {
        switch node {
        case .predicate(let predicate, nil):
            return predicate
        case .value(let operand, _):
            if let constant = operand.constant {
                if let value = constant as? Bool { return NSPredicate(value: value) }
                throw Self.error(part, "the value \(constant.map { "\($0)" } ?? "nil") is not a Boolean condition")
            }
            return compare(operand, .equalTo, Self.constant(true))
        case .predicate(_, _?):
            throw Self.error(part, "an optional Boolean needs `== true`, `== false` or `?? false` to be a condition")
        case .ordering:
            throw Self.error(part, "a string ordering needs a comparison with a ComparisonResult to be a condition")
        case .range:
            throw Self.error(part, "a range is not a condition; use range.contains(value)")
        }
    }

    /// A node that must be a value (an operand of a comparison).
    func operand<E: PredicateExpression>(_ expression: E) throws(PredicateTranslationError) -> PredicateOperand {
        let translated = try node(expression)
        guard case .value(let operand, _) = translated else {
            throw Self.error(expression, "a condition or ordering is used where a value is expected")
        }
        return operand
    }

    // MARK: Variables

    /// The operand a `PredicateExpressions.Variable` stands for.
    func binding(for variable: PredicateExpressions.VariableID) -> PredicateOperand? {
        bindings[variable]
    }

    /// Runs `body` with `variable` standing for `operand` (an optional's wrapped value, an
    /// element of a constant collection).
    func with<T>(
        _ variable: PredicateExpressions.VariableID, boundTo operand: PredicateOperand,
        _ body: () throws(PredicateTranslationError) -> T
    ) throws(PredicateTranslationError) -> T {
        let previous = bindings[variable]
        bindings[variable] = operand
        defer { bindings[variable] = previous }
        return try body()
    }

    /// A `SUBQUERY` iteration variable name for elements of `elementType` not used yet in
    /// this predicate (`$tag`, `$tag2`, …).
    func iteratorName(for elementType: Any.Type) -> String {
        var base = String(String(describing: elementType).prefix { $0.isLetter || $0.isNumber })
        // Elements typed `Any` (of an `NSOrderedSet` or `NSSet` relationship) are `$x`.
        if base.isEmpty || base == "Any" || base == "AnyObject" || !(base.first?.isLetter ?? false) { base = "x" }
        base = base.prefix(1).lowercased() + base.dropFirst()
        var name = base
        var number = 2
        while iteratorNames.contains(name) {
            name = "\(base)\(number)"
            number += 1
        }
        iteratorNames.insert(name)
        return name
    }

    // MARK: Building predicates

    /// `left <operator> right`, with choices expanded into `(condition AND …) OR …`.
    func compare(
        _ left: PredicateOperand, _ type: NSComparisonPredicate.Operator, _ right: PredicateOperand,
        options: NSComparisonPredicate.Options = []
    ) -> NSPredicate {
        switch (left, right) {
        case (.choice(let cases), _):
            return Self.or(cases.map { Self.and([$0.condition, compare($0.operand, type, right, options: options)]) })
        case (_, .choice(let cases)):
            return Self.or(cases.map { Self.and([$0.condition, compare(left, type, $0.operand, options: options)]) })
        case (.expression(let lhs), .expression(let rhs)):
            let comparison = NSComparisonPredicate(
                leftExpression: lhs, rightExpression: rhs, modifier: .direct, type: type, options: options)
            // Two constants (the default of `??`, a branch of `?:`): the answer is known now.
            if left.constant != nil && right.constant != nil { return NSPredicate(value: comparison.evaluate(with: nil)) }
            return comparison
        }
    }

    /// `operand == nil`.
    func isNil(_ operand: PredicateOperand) -> NSPredicate {
        compare(operand, .equalTo, Self.constant(nil))
    }

    /// `name` read from the operand's value: `trip` then `name` is `trip.name`, `$tag` then
    /// `name` is `$tag.name`.
    func keyPath(_ name: String, after operand: PredicateOperand) -> PredicateOperand {
        switch operand {
        case .choice(let cases):
            return .choice(cases.map { ($0.condition, keyPath(name, after: $0.operand)) })
        case .expression(let base):
            let components = KeyPathReader.components(name)
            switch base.kind {
            case .evaluatedObject:
                return .expression(NSExpression(forKeyPath: name))
            case .keyPath(let prefix, let baseComponents, let baseOperand):
                return .expression(
                    NSExpression(kind: .keyPath(prefix + "." + name, components: baseComponents + components, operand: baseOperand)))
            default:
                return .expression(NSExpression(kind: .keyPath(name, components: components, operand: base)))
            }
        }
    }

    static func constant(_ value: Any?) -> PredicateOperand {
        .expression(NSExpression(forConstantValue: value.flatMap(PredicateConstants.converted)))
    }

    static func and(_ predicates: [NSPredicate]) -> NSPredicate {
        let parts = predicates.filter { $0.fixedValue != true }
        if parts.contains(where: { $0.fixedValue == false }) { return NSPredicate(value: false) }
        if parts.isEmpty { return NSPredicate(value: true) }
        return parts.count == 1 ? parts[0] : NSCompoundPredicate(andPredicateWithSubpredicates: parts)
    }

    static func or(_ predicates: [NSPredicate]) -> NSPredicate {
        let parts = predicates.filter { $0.fixedValue != false }
        if parts.contains(where: { $0.fixedValue == true }) { return NSPredicate(value: true) }
        if parts.isEmpty { return NSPredicate(value: false) }
        return parts.count == 1 ? parts[0] : NSCompoundPredicate(orPredicateWithSubpredicates: parts)
    }

    static func not(_ predicate: NSPredicate) -> NSPredicate {
        if let value = predicate.fixedValue { return NSPredicate(value: !value) }
        // `NOT x == nil` is `x != nil` (and the reverse), in SQL and in memory.
        if let comparison = predicate as? NSComparisonPredicate, comparison.comparisonPredicateModifier == .direct,
            comparison.predicateOperatorType == .equalTo || comparison.predicateOperatorType == .notEqualTo,
            case .constant(let value) = comparison.rightExpression.kind, value == nil
        {
            return NSComparisonPredicate(
                leftExpression: comparison.leftExpression, rightExpression: comparison.rightExpression, modifier: .direct,
                type: comparison.predicateOperatorType == .equalTo ? .notEqualTo : .equalTo, options: comparison.options)
        }
        return NSCompoundPredicate(notPredicateWithSubpredicate: predicate)
    }

    // MARK: Constants

    /// The value of a node that reads no variable (the input or a closure parameter), evaluated
    /// by Foundation (wrapped, so that a nil value is told apart from "not constant").
    ///
    /// Whether a node reads a variable is decided from the tree, not by evaluating it with no
    /// bindings: Foundation reads an unbound `Variable<Any>` or `Variable<T?>` as nil instead
    /// of throwing.
    static func constantValue<E: PredicateExpression>(of expression: E) -> (value: Any?, Void)? {
        guard !readsVariables(expression), let value = try? expression.evaluate(PredicateBindings()) else { return nil }
        return (PredicateConstants.converted(value), ())
    }

    /// Whether the expression or any expression inside it is a `PredicateExpressions.Variable`.
    ///
    /// `PredicateExpressions` trees are fully typed (`Comparison<KeyPath<Variable<Trip>, Int16>,
    /// Value<Int16>>`), so a node reads a variable exactly when its type names one; the answer is
    /// kept per type. A type that holds an existential expression is walked with `Mirror`.
    static func readsVariables(_ expression: Any) -> Bool {
        let type = Swift.type(of: expression)
        if let known = variableReadingTypes.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        let name = String(reflecting: type)
        let reads: Bool
        if name.contains("PredicateExpressions.Variable<") {
            reads = true
        } else if name.contains("any ") {
            return Mirror(reflecting: expression).children.contains { child in
                child.value is any PredicateVariableMarker || (child.value is any PredicateExpression && readsVariables(child.value))
            }
        } else {
            reads = false
        }
        variableReadingTypes.withLock { $0[ObjectIdentifier(type)] = reads }
        return reads
    }

    // MARK: Errors

    /// The name Foundation gives the node's type, without generic arguments
    /// (`PredicateExpressions.Arithmetic`).
    static func partName(_ part: Any) -> String {
        let name = String(String(describing: type(of: part)).prefix { $0 != "<" })
        return "PredicateExpressions.\(name)"
    }

    static func error(_ part: Any, _ reason: String) -> PredicateTranslationError {
        PredicateTranslationError(part: partName(part), reason: "\(reason) (in \(part))")
    }

    static func unsupported(_ part: Any) -> PredicateTranslationError {
        let name = String(String(describing: type(of: part)).prefix { $0 != "<" })
        let reason =
            switch name {
            case "Arithmetic", "IntDivision", "FloatDivision", "IntRemainder", "UnaryMinus":
                "arithmetic on stored values does not translate; a fetch compares stored values with constants, key paths "
                    + "and counts (arithmetic on captured values is fine: it is computed before the fetch)"
            case "StringContainsRegex":
                "regular expressions do not translate; use NSPredicate(format: \"name MATCHES %@\", pattern)"
            case "Filter":
                "filter(_:) makes a collection; use contains(where:), allSatisfy(_:) or .count of the relationship"
            case "SequenceMinimum", "SequenceMaximum":
                "min()/max() of a relationship do not translate; use NSPredicate(format: \"items.@max.value > %@\", …)"
            case "CollectionIndexSubscript", "CollectionRangeSubscript", "DictionaryKeySubscript", "DictionaryKeyDefaultValueSubscript":
                "subscripts do not translate"
            case "TypeCheck":
                "`is` type checks do not translate; fetch the entity you want instead"
            case "ExpressionEvaluate", "PredicateEvaluate":
                "evaluating another predicate or expression inside a predicate does not translate"
            default:
                "the runtime has no translation for this expression"
            }
        return PredicateTranslationError(part: "PredicateExpressions.\(name)", reason: "\(reason) (in \(part))")
    }
}

/// Whether nodes of a type read a variable, by type (`PredicateTranslator.readsVariables`).
private let variableReadingTypes = LockedCache<[ObjectIdentifier: Bool]>([:])

/// Marks `PredicateExpressions.Variable` for `readsVariables`, whatever its output type.
protocol PredicateVariableMarker {}

extension PredicateExpressions.Variable: PredicateVariableMarker {}

/// Swift values as the runtime's predicates hold them.
enum PredicateConstants {
    /// Optionals unwrapped, enums with raw values as their raw value (the stored form of the
    /// model's enum attributes), substrings and characters as strings.
    static func converted(_ value: Any) -> Any? {
        guard let value = KeyPathReader.unwrapped(value) else { return nil }
        if QueryValues.isPlainScalar(type(of: value)) { return value }
        if let substring = value as? Substring { return String(substring) }
        if let character = value as? Character { return String(character) }
        if !(type(of: value) is AnyClass), let raw = value as? any RawRepresentable { return converted(raw.rawValue) }
        return value
    }

    /// The elements of a constant collection (an array, a set, a string's characters are not
    /// elements here), converted; nil when the value is not such a collection.
    static func elements(_ value: Any?) -> [Any?]? {
        guard let value = value.flatMap(KeyPathReader.unwrapped) else { return nil }
        if value is String { return nil }
        if let elements = QueryValues.collectionElements(value) { return elements.map(converted) }
        if let sequence = value as? any Sequence { return anyElements(sequence).map(converted) }
        return nil
    }

    private static func anyElements<S: Sequence>(_ sequence: S) -> [Any] {
        sequence.map { $0 as Any }
    }
}
#endif

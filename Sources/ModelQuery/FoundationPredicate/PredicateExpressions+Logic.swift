#if !canImport(CoreData)
import Foundation

// `&&`, `||`, `!`, `==`, `!=`, `<`…, `?:`: conditions and comparisons.

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(PredicateTranslator.and([try translator.condition(lhs), try translator.condition(rhs)]), nilWhen: nil)
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(PredicateTranslator.or([try translator.condition(lhs), try translator.condition(rhs)]), nilWhen: nil)
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(PredicateTranslator.not(try translator.condition(wrapped)), nilWhen: nil)
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(try translator.equality(translator.node(lhs), translator.node(rhs), notEqual: false, part: self), nilWhen: nil)
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(try translator.equality(translator.node(lhs), translator.node(rhs), notEqual: true, part: self), nilWhen: nil)
    }
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let type: NSComparisonPredicate.Operator =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqualTo
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqualTo
            }
        return .predicate(translator.compare(try translator.operand(lhs), type, try translator.operand(rhs)), nilWhen: nil)
    }
}

extension PredicateExpressions.Conditional: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let condition = try translator.condition(test)
        let negated = PredicateTranslator.not(condition)
        let whenTrue = try translator.node(trueBranch)
        let whenFalse = try translator.node(falseBranch)
        switch (whenTrue, whenFalse) {
        case (.value(let first, _), .value(let second, _)) where Output.self != Bool.self:
            return .value(.choice([(condition, first), (negated, second)]), type: Output.self)
        default:
            let first = try translator.condition(whenTrue, part: trueBranch)
            let second = try translator.condition(whenFalse, part: falseBranch)
            return .predicate(
                PredicateTranslator.or([PredicateTranslator.and([condition, first]), PredicateTranslator.and([negated, second])]),
                nilWhen: nil)
        }
    }
}

extension PredicateTranslator {
    /// `left == right` (or `!=`) for every pair of node kinds `#Predicate` produces.
    func equality(_ left: TranslatedNode, _ right: TranslatedNode, notEqual: Bool, part: Any) throws(PredicateTranslationError)
        -> NSPredicate
    {
        switch (left, right) {
        case (.ordering(let a, let b, let options, _), .value(let value, _)),
            (.value(let value, _), .ordering(let a, let b, let options, _)):
            // `a.caseInsensitiveCompare(b) == .orderedAscending`: ComparisonResult's raw values are -1, 0, 1.
            guard let constant = value.constant, let result = constant.flatMap({ QueryValues.number($0) }),
                case .integer(let raw) = result, (-1...1).contains(raw)
            else {
                throw Self.error(part, "a string ordering can only be compared with a ComparisonResult constant")
            }
            let type: NSComparisonPredicate.Operator =
                switch (raw, notEqual) {
                case (-1, false): .lessThan
                case (-1, true): .greaterThanOrEqualTo
                case (1, false): .greaterThan
                case (1, true): .lessThanOrEqualTo
                case (_, false): .equalTo
                case (_, true): .notEqualTo
                }
            return compare(a, type, b, options: options)
        case (.predicate(let condition, let nilWhen), .value(let value, _)), (.value(let value, _), .predicate(let condition, let nilWhen)):
            if let constant = value.constant {
                let equal: NSPredicate
                switch constant {
                case nil:
                    equal = nilWhen ?? NSPredicate(value: false)
                case let flag as Bool:
                    let known = nilWhen.map { [Self.not($0)] } ?? []
                    equal = Self.and(known + [flag ? condition : Self.not(condition)])
                default:
                    throw Self.error(part, "a condition can only be compared with true, false or nil")
                }
                return notEqual ? Self.not(equal) : equal
            }
            guard nilWhen == nil else {
                throw Self.error(part, "an optional Boolean can only be compared with true, false or nil")
            }
            return equivalence(condition, compare(value, .equalTo, Self.constant(true)), notEqual: notEqual)
        case (.predicate(let first, nil), .predicate(let second, nil)):
            return equivalence(first, second, notEqual: notEqual)
        case (.value(let a, _), .value(let b, _)):
            return compare(a, notEqual ? .notEqualTo : .equalTo, b)
        default:
            throw Self.error(part, "these operands cannot be compared in a fetch")
        }
    }

    /// Whether two conditions are both true or both false (`!=`: exactly one is true).
    private func equivalence(_ first: NSPredicate, _ second: NSPredicate, notEqual: Bool) -> NSPredicate {
        let other = notEqual ? Self.not(second) : second
        return Self.or([Self.and([first, other]), Self.and([Self.not(first), Self.not(other)])])
    }
}
#endif

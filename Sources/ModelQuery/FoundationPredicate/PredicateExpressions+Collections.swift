#if !canImport(CoreData)
import Foundation

// `contains`, `starts(with:)`, `contains(where:)`, `allSatisfy`, ranges.

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    /// `list.contains($0.name)` is `name IN list`; `$0.name.contains(character)` is `CONTAINS`;
    /// `$0.tags.contains(tag)` is `tags CONTAINS tag`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let collection = try translator.operand(sequence)
        let member = try translator.operand(element)
        if let constant = collection.constant {
            guard let elements = PredicateConstants.elements(constant) else {
                throw PredicateTranslator.error(self, "contains(_:) needs a collection")
            }
            let list = NSExpression(forConstantValue: elements.map { $0 ?? NSNull() })
            return .predicate(translator.compare(member, .in, .expression(list)), nilWhen: nil)
        }
        return .predicate(translator.compare(collection, .contains, member), nilWhen: nil)
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    /// `$0.name.contains("x")`: `name CONTAINS "x"`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        guard Base.Output.self is any StringProtocol.Type else {
            throw PredicateTranslator.error(self, "contains(_:) of one collection in another translates for strings only")
        }
        return .predicate(translator.compare(try translator.operand(base), .contains, try translator.operand(other)), nilWhen: nil)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    /// `$0.name.starts(with: "x")`: `name BEGINSWITH "x"`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        guard Base.Output.self is any StringProtocol.Type else {
            throw PredicateTranslator.error(self, "starts(with:) translates for strings only")
        }
        return .predicate(translator.compare(try translator.operand(base), .beginsWith, try translator.operand(prefix)), nilWhen: nil)
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    /// `$0.tags.contains { $0.name == "x" }`: `SUBQUERY(tags, $tag, $tag.name == "x").@count > 0`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(
            try translator.quantified(sequence, variable: variable.key, elementType: Element.self, test: test, all: false, part: self),
            nilWhen: nil)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    /// `$0.tags.allSatisfy { … }`: `SUBQUERY(tags, $tag, NOT …).@count == 0` (true when empty).
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .predicate(
            try translator.quantified(sequence, variable: variable.key, elementType: Element.self, test: test, all: true, part: self),
            nilWhen: nil)
    }
}

extension PredicateExpressions.ClosedRange: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .range(lower: try translator.operand(lower), upper: try translator.operand(upper), closed: true)
    }
}

extension PredicateExpressions.Range: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .range(lower: try translator.operand(lower), upper: try translator.operand(upper), closed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    /// `(1...3).contains($0.rating)`: `rating BETWEEN {1, 3}`; half-open and partial ranges
    /// become `>=`, `<`, `<=` comparisons.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let value = try translator.operand(element)
        let bounds: (lower: PredicateOperand?, upper: PredicateOperand?, closed: Bool)
        switch try translator.node(range) {
        case .range(let lower, let upper, let closed):
            bounds = (lower, upper, closed)
        case .value(let operand, _):
            guard let constant = operand.constant, let constant else {
                throw PredicateTranslator.error(self, "the range is not a constant or a range expression")
            }
            typealias Bound = Element.Output
            switch constant {
            case let closed as Swift.ClosedRange<Bound>:
                let pair = NSExpression(
                    forConstantValue: [closed.lowerBound, closed.upperBound].map { PredicateConstants.converted($0) ?? NSNull() })
                return .predicate(translator.compare(value, .between, .expression(pair)), nilWhen: nil)
            case let halfOpen as Swift.Range<Bound>:
                bounds = (PredicateTranslator.constant(halfOpen.lowerBound), PredicateTranslator.constant(halfOpen.upperBound), false)
            case let from as PartialRangeFrom<Bound>:
                bounds = (PredicateTranslator.constant(from.lowerBound), nil, false)
            case let through as PartialRangeThrough<Bound>:
                bounds = (nil, PredicateTranslator.constant(through.upperBound), true)
            case let upTo as PartialRangeUpTo<Bound>:
                bounds = (nil, PredicateTranslator.constant(upTo.upperBound), false)
            default:
                throw PredicateTranslator.error(self, "ranges of type \(type(of: constant)) do not translate")
            }
        default:
            throw PredicateTranslator.error(self, "the range is not a range expression")
        }
        var parts: [NSPredicate] = []
        if let lower = bounds.lower { parts.append(translator.compare(value, .greaterThanOrEqualTo, lower)) }
        if let upper = bounds.upper { parts.append(translator.compare(value, bounds.closed ? .lessThanOrEqualTo : .lessThan, upper)) }
        return .predicate(PredicateTranslator.and(parts), nilWhen: nil)
    }
}

extension PredicateTranslator {
    /// `contains(where:)` (`all == false`) or `allSatisfy` (`all == true`): over a to-many key
    /// path a `SUBQUERY` count; over a constant collection one test per element.
    func quantified<S: PredicateExpression, T: PredicateExpression>(
        _ sequence: S, variable: PredicateExpressions.VariableID, elementType: Any.Type, test: T, all: Bool, part: Any
    ) throws(PredicateTranslationError) -> NSPredicate {
        let collection = try operand(sequence)
        if let constant = collection.constant {
            guard let elements = PredicateConstants.elements(constant) else {
                throw Self.error(part, "contains(where:) and allSatisfy need a collection")
            }
            var tests: [NSPredicate] = []
            for element in elements {
                tests.append(
                    try with(variable, boundTo: .expression(NSExpression(forConstantValue: element))) {
                        () throws(PredicateTranslationError) in try condition(test)
                    })
            }
            return all ? Self.and(tests) : Self.or(tests)
        }
        guard case .expression(let expression) = collection, case .keyPath = expression.kind else {
            throw Self.error(part, "contains(where:) and allSatisfy translate over a to-many relationship or a constant collection")
        }
        let name = iteratorName(for: elementType)
        let body = try with(variable, boundTo: .expression(NSExpression(forVariable: name))) {
            () throws(PredicateTranslationError) in try condition(test)
        }
        let subquery = NSExpression(forSubquery: expression, usingIteratorVariable: name, predicate: all ? Self.not(body) : body)
        let count = NSExpression(kind: .keyPath("@count", components: ["@count"], operand: subquery))
        return NSComparisonPredicate(
            leftExpression: count, rightExpression: NSExpression(forConstantValue: 0), modifier: .direct,
            type: all ? .equalTo : .greaterThan)
    }
}
#endif

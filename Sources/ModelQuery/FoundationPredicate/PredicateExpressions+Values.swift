#if !canImport(CoreData)
import Foundation

// Values: constants, the input and closure variables, key paths, optionals and casts.

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .value(PredicateTranslator.constant(value), type: Output.self)
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        .value(PredicateTranslator.constant(nil), type: Output.self)
    }
}

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        guard let operand = translator.binding(for: key) else {
            throw PredicateTranslator.error(self, "the variable is not the predicate's input or a closure parameter inside it")
        }
        return .value(operand, type: Output.self)
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let base = try translator.operand(root)
        if let constant = base.constant {
            // A key path of a constant bound to a closure parameter (an element of a captured array).
            guard let value = constant as? Root.Output else {
                throw PredicateTranslator.error(self, "the key path cannot be read from the constant \(constant.map { "\($0)" } ?? "nil")")
            }
            return .value(PredicateTranslator.constant(value[keyPath: keyPath]), type: Output.self)
        }
        let isString = Root.Output.self is any StringProtocol.Type
        switch kind {
        case .collectionCount?:
            guard !isString else {
                throw PredicateTranslator.error(self, "the length of a string does not translate (Core Data has no length in fetches)")
            }
            return .value(translator.keyPath("@count", after: base), type: Output.self)
        case .collectionIsEmpty?:
            let empty =
                isString
                ? translator.compare(base, .equalTo, PredicateTranslator.constant(""))
                : translator.compare(translator.keyPath("@count", after: base), .equalTo, PredicateTranslator.constant(0))
            return .predicate(empty, nilWhen: nil)
        case .collectionFirst?, .bidirectionalCollectionLast?:
            throw PredicateTranslator.error(self, "first and last of a collection do not translate")
        case nil:
            break
        }
        let path = keyPath as AnyKeyPath
        if path == \NSOrderedSet.count || path == \NSSet.count || path == \NSArray.count {
            return .value(translator.keyPath("@count", after: base), type: Output.self)
        }
        guard let named = Root.Output.self as? any KeyPathStringConvertible.Type else {
            throw PredicateTranslationError(
                part: "\(path)",
                reason: "\(Root.Output.self) does not name its key paths (generated managed object classes adopt KeyPathStringConvertible)")
        }
        guard let name = named.keyPathString(for: path) else {
            throw PredicateTranslationError(part: "\(path)", reason: "the key path names no modeled property of \(Root.Output.self)")
        }
        return .value(translator.keyPath(name, after: base), type: Output.self)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    /// `$0.trip?.name` is `trip.name`: a nil to-one reads as nil through the rest of the path,
    /// in SQL (outer joins) as in memory. A condition inside (`$0.notes?.isEmpty`) remembers
    /// when the optional is nil, so `== true`, `== false` and `?? x` keep Swift's meaning.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let base = try translator.operand(wrapped)
        let result = try translator.with(variable.key, boundTo: base) { () throws(PredicateTranslationError) in
            try translator.node(transform)
        }
        switch result {
        case .value(let operand, _):
            guard operand.constant != nil else { return .value(operand, type: Output.self) }
            let present = translator.compare(base, .notEqualTo, PredicateTranslator.constant(nil))
            return .value(.choice([(present, operand), (translator.isNil(base), PredicateTranslator.constant(nil))]), type: Output.self)
        case .predicate(let condition, let nilWhen):
            return .predicate(condition, nilWhen: PredicateTranslator.or([translator.isNil(base)] + (nilWhen.map { [$0] } ?? [])))
        case .ordering, .range:
            throw PredicateTranslator.error(self, "the optional chain ends in an ordering or a range")
        }
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    /// `a ?? b` is a choice: `a` where `a != nil`, else `b`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        let left = try translator.node(lhs)
        let right = try translator.node(rhs)
        switch left {
        case .value(let value, _):
            guard case .value(let fallback, _) = right else {
                throw PredicateTranslator.error(self, "the default of ?? is not a value")
            }
            let present = translator.compare(value, .notEqualTo, PredicateTranslator.constant(nil))
            return .value(.choice([(present, value), (translator.isNil(value), fallback)]), type: Output.self)
        case .predicate(let condition, let nilWhen):
            guard let nilWhen else { return .predicate(condition, nilWhen: nil) }
            let fallback: NSPredicate
            var fallbackNil: NSPredicate?
            switch right {
            case .predicate(let other, let otherNil):
                fallback = other
                fallbackNil = otherNil
            default:
                fallback = try translator.condition(right, part: rhs)
            }
            let combined = PredicateTranslator.or([
                PredicateTranslator.and([PredicateTranslator.not(nilWhen), condition]), PredicateTranslator.and([nilWhen, fallback]),
            ])
            return .predicate(combined, nilWhen: fallbackNil.map { PredicateTranslator.and([nilWhen, $0]) })
        case .ordering, .range:
            throw PredicateTranslator.error(self, "?? of an ordering or a range does not translate")
        }
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    /// `$0.trip!.name` reads as `trip.name`: where Swift would stop on nil, the fetch compares nil.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        switch try translator.node(inner) {
        case .value(let operand, _): return .value(operand, type: Output.self)
        case .predicate(let condition, _): return .predicate(condition, nilWhen: nil)
        case .ordering, .range: throw PredicateTranslator.error(self, "! of an ordering or a range does not translate")
        }
    }
}

extension PredicateExpressions.ConditionalCast: TranslatablePredicateExpression {
    /// `$0 as? Stop` (elements of an `NSOrderedSet` relationship): the object itself. A cast to
    /// a class is taken to succeed; it does not restrict the entity.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        guard Desired.self is AnyClass else { throw PredicateTranslator.error(self, "only casts to a managed object class translate") }
        return .value(try translator.operand(input), type: Output.self)
    }
}

extension PredicateExpressions.ForceCast: TranslatablePredicateExpression {
    /// `$0 as! Stop`: the object itself, as for `as?`.
    func translate(with translator: PredicateTranslator) throws(PredicateTranslationError) -> TranslatedNode {
        guard Desired.self is AnyClass else { throw PredicateTranslator.error(self, "only casts to a managed object class translate") }
        return .value(try translator.operand(input), type: Output.self)
    }
}
#endif

/// Writes ``ModelPredicate`` trees into a keyed archive as Foundation's `NSPredicate` coders do:
/// `NSComparisonPredicate` (`NSLeftExpression`, `NSRightExpression`, `NSPredicateOperator`),
/// `NSCompoundPredicate` (`NSSubpredicates`, an `NSArray`, and `NSCompoundPredicateType`),
/// `NSTruePredicate` and `NSFalsePredicate` (no keys). The operator is an object of the class
/// Foundation makes for its type, with `NSOperatorType` and `NSModifier` and the keys of that
/// class (see `docs/CompiledModel.md` for the evidence). As for expressions, each object's slot
/// is taken before its contents are written.
extension KeyedArchiveBuilder {
    static let predicateChain = ["NSPredicate", "NSObject"]
    static let operatorChain = ["NSPredicateOperator", "NSObject"]
    static let stringOperatorChain = ["NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]

    mutating func predicate(_ predicate: ModelPredicate) -> PropertyList {
        switch predicate {
        case .truePredicate:
            return object(classChain: ["NSTruePredicate"] + Self.predicateChain, fields: [])
        case .falsePredicate:
            return object(classChain: ["NSFalsePredicate"] + Self.predicateChain, fields: [])
        case .comparison(let comparison):
            let (uid, _) = reserve()
            let left = expression(comparison.left)
            let right = expression(comparison.right)
            let operatorObject = predicateOperator(comparison.comparison, modifier: comparison.modifier, options: comparison.options)
            fill(
                uid, classChain: ["NSComparisonPredicate"] + Self.predicateChain,
                fields: [("NSLeftExpression", left), ("NSRightExpression", right), ("NSPredicateOperator", operatorObject)])
            return uid
        case .and(let members): return compound(type: 1, members)
        case .or(let members): return compound(type: 2, members)
        case .not(let member): return compound(type: 0, [member])
        }
    }

    private mutating func compound(type: Int64, _ members: [ModelPredicate]) -> PropertyList {
        let (uid, _) = reserve()
        let (array, _) = reserve()
        let subpredicates = members.map { predicate($0) }
        fill(array, classChain: Self.arrayChain(mutable: false), fields: [("NS.objects", .array(subpredicates))])
        fill(
            uid, classChain: ["NSCompoundPredicate"] + Self.predicateChain,
            fields: [("NSSubpredicates", array), ("NSCompoundPredicateType", .integer(type))])
        return uid
    }

    /// The operator object Foundation's `+[NSPredicateOperator _newOperatorWithType:modifier:options:]`
    /// makes for `comparison`, with the keys its class encodes.
    mutating func predicateOperator(
        _ comparison: ModelPredicate.Operator, modifier: ModelPredicate.Modifier, options: ModelPredicate.Options
    ) -> PropertyList {
        var fields: [(String, PropertyList)] = [
            ("NSOperatorType", .integer(comparison.rawValue)), ("NSModifier", .integer(modifier.rawValue)),
        ]
        let classChain: [String]
        switch comparison {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            classChain = ["NSComparisonPredicateOperator"] + Self.operatorChain
            fields += [("NSVariant", .integer(comparison.rawValue)), ("NSOptions", .integer(options.rawValue))]
        case .equalTo, .notEqualTo:
            classChain = ["NSEqualityPredicateOperator"] + Self.operatorChain
            fields += [("NSNegate", .boolean(comparison == .notEqualTo)), ("NSOptions", .integer(options.rawValue))]
        case .matches:
            classChain = ["NSMatchingPredicateOperator"] + Self.stringOperatorChain
            fields.append(("NSFlags", .integer(options.rawValue & 0x1F)))
        case .like:
            classChain = ["NSLikePredicateOperator", "NSMatchingPredicateOperator"] + Self.stringOperatorChain
            fields.append(("NSFlags", .integer(options.rawValue & 0x1F)))
        case .beginsWith, .endsWith:
            classChain = ["NSSubstringPredicateOperator"] + Self.stringOperatorChain
            fields += [("NSFlags", .integer(options.rawValue & 0x1F)), ("NSPosition", .integer(comparison == .beginsWith ? 0 : 1))]
        case .in, .contains:
            classChain = ["NSInPredicateOperator"] + Self.operatorChain
            fields.append(("NSFlags", .integer(options.rawValue)))
        case .between:
            classChain = ["NSBetweenPredicateOperator"] + Self.operatorChain
        }
        return object(classChain: classChain, fields: fields)
    }
}

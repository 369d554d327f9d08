/// Reads archived `NSPredicate` trees (Foundation's, and those ``KeyedArchiveBuilder/predicate(_:)``
/// writes) into ``ModelPredicate`` values. Predicates and their expressions are walked with a
/// depth limit; a class, operator or expression modelgen cannot express is a failure naming
/// `what` was being read, never a crash.
extension MappingArchiveReader {
    func predicate(_ value: PropertyList?, what: String, depth: Int = 0) throws(Failure) -> ModelPredicate? {
        guard let uid = try archive.reference(value) else { return nil }
        guard depth < ModelPredicate.maximumDepth else { throw Failure(message: "\(what) is nested too deeply") }
        let (className, fields) = try archive.object(uid)
        switch className {
        case "NSTruePredicate": return .truePredicate
        case "NSFalsePredicate": return .falsePredicate
        case "NSCompoundPredicate":
            var members: [ModelPredicate] = []
            for member in try archive.array(fields[field: "NSSubpredicates"], what: "the subpredicates of \(what)") {
                guard let predicate = try predicate(member, what: "a subpredicate of \(what)", depth: depth + 1) else {
                    throw Failure(message: "a subpredicate of \(what) is null")
                }
                members.append(predicate)
            }
            switch try archive.integer(fields[field: "NSCompoundPredicateType"], default: -1, what: "the type of \(what)") {
            case 0:
                guard members.count == 1 else { throw Failure(message: "\(what) negates \(members.count) predicates") }
                return .not(members[0])
            case 1: return .and(members)
            case 2: return .or(members)
            case let other: throw Failure(message: "\(what) has compound type \(other), which is not an NSCompoundPredicate.LogicalType")
            }
        case "NSComparisonPredicate":
            return .comparison(try comparison(fields, what: what))
        default:
            throw Failure(message: "\(what) is an \(className), which modelgen does not read")
        }
    }

    private func comparison(_ fields: Fields, what: String) throws(Failure) -> ModelPredicate.Comparison {
        func side(_ key: String, _ name: String) throws(Failure) -> MappingExpression {
            guard let expression = try expression(fields[field: key], what: "the \(name) side of \(what)", depth: 0) else {
                throw Failure(message: "\(what) has no \(name) side")
            }
            return expression
        }
        let left = try side("NSLeftExpression", "left")
        let right = try side("NSRightExpression", "right")
        guard let operatorUID = try archive.reference(fields[field: "NSPredicateOperator"]) else {
            throw Failure(message: "\(what) has no operator")
        }
        let (operatorClass, operatorFields) = try archive.object(operatorUID)
        let type = try archive.integer(operatorFields[field: "NSOperatorType"], default: -1, what: "the operator of \(what)")
        var comparison = ModelPredicate.Operator(rawValue: type)
        // Earlier modelgen versions archived MATCHES with type 7 in an NSMatchingPredicateOperator
        // (Foundation's LIKE is an NSLikePredicateOperator).
        if type == 7, operatorClass == "NSMatchingPredicateOperator" { comparison = .matches }
        guard let comparison else {
            let kind = type == 11 ? " (a custom selector)" : ""
            throw Failure(message: "\(what) uses operator type \(type)\(kind), which modelgen does not read")
        }
        let modifierNumber = try archive.integer(operatorFields[field: "NSModifier"], what: "the modifier of \(what)")
        guard let modifier = ModelPredicate.Modifier(rawValue: modifierNumber) else {
            throw Failure(message: "\(what) has modifier \(modifierNumber), which is not an NSComparisonPredicate.Modifier")
        }
        let optionsKey = operatorFields[field: "NSOptions"] != nil ? "NSOptions" : "NSFlags"
        let options = try archive.integer(operatorFields[field: optionsKey], what: "the options of \(what)")
        guard options & ~0xF == 0 else { throw Failure(message: "\(what) has comparison options \(options), which modelgen does not read") }
        return ModelPredicate.Comparison(left, comparison, right, modifier: modifier, options: ModelPredicate.Options(rawValue: options))
    }
}

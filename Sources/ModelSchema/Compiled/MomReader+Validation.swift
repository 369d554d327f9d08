/// Validation predicates read back as ``ValidationRule`` values.
extension MomReader {
    /// A validation predicate of the shapes ``ValidationRule`` describes; nil for any other
    /// predicate (one written by code), which the schema values cannot express.
    func validationRule(_ value: PropertyList, what: String) throws(Failure) -> ValidationRule? {
        guard let uid = try archive.reference(value) else { return nil }
        let (className, fields) = try archive.object(uid)
        guard className == "NSComparisonPredicate", let operatorUID = try archive.reference(fields[field: "NSPredicateOperator"]) else {
            return nil
        }
        let (operatorClass, operatorFields) = try archive.object(operatorUID)
        let comparison: ValidationRule.Comparison
        switch try archive.integer(operatorFields[field: "NSOperatorType"], default: -1, what: "the operator of \(what)") {
        case 3: comparison = .atLeast
        case 1: comparison = .atMost
        case 6: comparison = .matches
        // Earlier modelgen versions wrote MATCHES with LIKE's type 7 (in an NSMatchingPredicateOperator).
        case 7 where operatorClass == "NSMatchingPredicateOperator": comparison = .matches
        default: return nil
        }
        guard try archive.integer(operatorFields[field: "NSModifier"], what: "the modifier of \(what)") == 0,
            try archive.integer(operatorFields[field: "NSFlags"], what: "the options of \(what)") == 0,
            try archive.integer(operatorFields[field: "NSOptions"], what: "the options of \(what)") == 0,
            let subject = try validationSubject(fields[field: "NSLeftExpression"], what: what),
            let constant = try validationConstant(fields[field: "NSRightExpression"], what: what)
        else { return nil }
        return ValidationRule(subject: subject, comparison: comparison, constant: constant)
    }

    /// `SELF`, or a key path of `SELF` (`length`, `timeIntervalSinceReferenceDate`) archived as
    /// a `valueForKey:` function expression or with an `NSKeyPath` string.
    func validationSubject(_ value: PropertyList?, what: String) throws(Failure) -> ValidationRule.Subject? {
        guard let uid = try archive.reference(value) else { return nil }
        let (className, fields) = try archive.object(uid)
        if className == "NSSelfExpression" { return .value }
        guard className == "NSKeyPathExpression" else { return nil }
        var key = try archive.string(fields[field: "NSKeyPath"], what: "the key path of \(what)")
        if key == nil {
            let arguments = try archive.array(fields[field: "NSArguments"], what: "the key path of \(what)")
            guard arguments.count == 1, let argumentUID = try archive.reference(arguments[0]) else { return nil }
            let argument = try archive.object(argumentUID)
            // A string constant, or the NSKeyPathSpecifierExpression +expressionForKeyPath: makes.
            switch argument.className {
            case "NSConstantValueExpression":
                key = try archive.string(argument.fields[field: "NSConstantValue"], what: "the key path of \(what)")
            case "NSKeyPathSpecifierExpression":
                key = try archive.string(argument.fields[field: "NSKeyPath"], what: "the key path of \(what)")
            default: return nil
            }
        }
        guard let key, let subject = ValidationRule.Subject(rawValue: key), subject != .value else { return nil }
        return subject
    }

    func validationConstant(_ value: PropertyList?, what: String) throws(Failure) -> ValidationRule.Constant? {
        guard let uid = try archive.reference(value) else { return nil }
        let (className, fields) = try archive.object(uid)
        guard className == "NSConstantValueExpression", let constantUID = try archive.reference(fields[field: "NSConstantValue"]) else {
            return nil
        }
        switch archive.entry(constantUID) {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .string(let text): return .string(text)
        case .dictionary:
            if let text = try? archive.string(.uid(constantUID), what: what) { return .string(text) }
            let (valueClass, valueFields) = try archive.object(constantUID)
            if valueClass == "NSDecimalNumber", let number = Double(try MomDefaultValue.decimalText(valueFields, what: what)) {
                return .real(number)
            }
            if valueClass == "NSDate", case .real(let seconds)? = valueFields[field: "NS.time"] { return .real(seconds) }
            return nil
        default: return nil
        }
    }
}

#if !canImport(CoreData)
import ModelQuery

/// Core Data's property validation at save: required values, relationship counts, and each
/// property's validation predicates (bounds, lengths, patterns), with Core Data's error codes.
enum Validator {
    static func validate(_ object: NSManagedObject) throws {
        try throwing(errors(of: object))
    }

    /// `validateValue(_:forKey:)`: `value` checked as if it were the object's value of `key`.
    static func validate(_ value: AnyObject?, forKey key: String, of object: NSManagedObject) throws {
        let engine = object.engine
        guard let slot = engine.slotsByName[key] else { return }
        let unwrapped: Any? = value.flatMap { $0 is NSNull ? nil : $0 }
        if let relationship = engine.properties[slot] as? NSRelationshipDescription {
            let count = relationship.isToMany ? NSManagedObject.objects(in: unwrapped).count : (unwrapped == nil ? 0 : 1)
            try throwing(countErrors(relationship, count: count, of: object))
            return
        }
        try throwing(valueErrors(engine.properties[slot], value: object.normalizedAttribute(unwrapped, slot: slot), of: object))
    }

    static func validateDelete(_ object: NSManagedObject) throws {
        var errors: [NSError] = []
        let engine = object.engine
        for slot in engine.relationshipSlots {
            guard let relationship = engine.properties[slot] as? NSRelationshipDescription, relationship.deleteRule == .denyDeleteRule
            else { continue }
            let destinations =
                engine.isRelationshipToMany(slot)
                ? object.loadedToMany(slot).objects : [object.values[slot] as? NSManagedObject].compactMap { $0 }
            if destinations.contains(where: { !$0.deletedFlag }) {
                errors.append(
                    error(
                        NSValidationRelationshipDeniedDeleteError, object, relationship.name, nil,
                        "\(relationship.name) is not empty (deny rule)"))
            }
        }
        try throwing(errors)
    }

    /// One error as itself, several as `NSValidationMultipleErrorsError` with `NSDetailedErrorsKey`.
    static func throwing(_ errors: [NSError]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 { throw multiple(errors) }
    }

    static func multiple(_ errors: [NSError]) -> NSError {
        let flat = errors.flatMap { error -> [NSError] in
            error.code == NSValidationMultipleErrorsError ? (error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [error]) : [error]
        }
        return CoreDataError.make(
            NSValidationMultipleErrorsError, "Multiple validation errors occurred.", [NSDetailedErrorsKey: flat])
    }

    static func error(_ code: Int, _ object: NSManagedObject, _ key: String, _ value: Any?, _ reason: String) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: object, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return CoreDataError.make(code, "The operation couldn't be completed: \(key): \(reason)", info)
    }

    static func errors(of object: NSManagedObject) -> [NSError] {
        var errors: [NSError] = []
        let engine = object.engine
        for slot in engine.writeChecks.validatedSlots {
            let property = engine.properties[slot]
            if let relationship = property as? NSRelationshipDescription {
                if engine.isRelationshipToMany(slot) {
                    if object.values[slot] is ToManyUnloaded && relationship.isOptional && relationship.minCount == 0
                        && relationship.maxCount == 0
                    {
                        continue
                    }
                    errors += countErrors(relationship, count: object.loadedToMany(slot).objects.count, of: object)
                } else {
                    errors += countErrors(relationship, count: object.values[slot] == nil ? 0 : 1, of: object)
                }
                continue
            }
            errors += valueErrors(property, value: object.values[slot], of: object)
        }
        return errors
    }

    /// The errors of a relationship holding `count` objects: a required one empty, a to-many
    /// outside its minimum and maximum counts.
    static func countErrors(_ relationship: NSRelationshipDescription, count: Int, of object: NSManagedObject) -> [NSError] {
        guard relationship.isToMany else {
            guard !relationship.isOptional, count == 0 else { return [] }
            return [error(NSValidationMissingMandatoryPropertyError, object, relationship.name, nil, "a value is required")]
        }
        if !relationship.isOptional && count == 0
            || (relationship.minCount > 0 && count < relationship.minCount && (count > 0 || !relationship.isOptional))
        {
            return [error(NSValidationRelationshipLacksMinimumCountError, object, relationship.name, nil, "too few objects")]
        }
        if relationship.maxCount > 0 && count > relationship.maxCount {
            return [error(NSValidationRelationshipExceedsMaximumCountError, object, relationship.name, nil, "too many objects")]
        }
        return []
    }

    /// The errors of an attribute's value: a required one missing, each validation predicate
    /// the value fails.
    static func valueErrors(_ property: NSPropertyDescription, value: Any?, of object: NSManagedObject) -> [NSError] {
        guard let value else {
            // A derived attribute's value is the store's to compute, never the app's to supply.
            let isDerived = property is NSDerivedAttributeDescription
            guard !property.isOptional && !isDerived else { return [] }
            return [error(NSValidationMissingMandatoryPropertyError, object, property.name, nil, "a value is required")]
        }
        var errors: [NSError] = []
        for (index, predicate) in property.validationPredicates.enumerated() where !holds(predicate, for: value) {
            let warning = index < property.validationWarnings.count ? property.validationWarnings[index] : nil
            let code = (warning as? NSNumber)?.intValue ?? code(of: predicate, value: value)
            let reason = (warning as? String) ?? predicate.predicateFormat
            var failure = error(code, object, property.name, value, reason)
            var info = failure.userInfo
            info[NSValidationPredicateErrorKey] = predicate
            failure = NSError(domain: failure.domain, code: failure.code, userInfo: info)
            errors.append(failure)
        }
        return errors
    }

    /// Evaluates a validation predicate on a value: `SELF` is the value, `length` a string's
    /// length (UTF-16 code units, as `NSString`'s) or binary data's, `timeIntervalSinceReferenceDate`
    /// a date's seconds.
    static func holds(_ predicate: NSPredicate, for value: Any) -> Bool {
        switch subjectKey(of: predicate) {
        case "length":
            if let text = value as? String { return predicate.evaluate(with: ["length": text.utf16.count] as [String: Any]) }
            if let data = value as? Data { return predicate.evaluate(with: ["length": data.count] as [String: Any]) }
        case "timeIntervalSinceReferenceDate":
            if let date = value as? Date {
                return predicate.evaluate(with: ["timeIntervalSinceReferenceDate": date.timeIntervalSinceReferenceDate] as [String: Any])
            }
        default: break
        }
        return predicate.evaluate(with: value)
    }

    /// The key of a comparison whose left side is a one-key path (`length`), else nil.
    static func subjectKey(of predicate: NSPredicate) -> String? {
        guard let comparison = predicate as? NSComparisonPredicate, comparison.leftExpression.expressionType == .keyPath else {
            return nil
        }
        return comparison.leftExpression.keyPath
    }

    /// The error code Core Data gives a failed validation predicate, from its operator.
    static func code(of predicate: NSPredicate, value: Any) -> Int {
        guard let comparison = predicate as? NSComparisonPredicate else { return NSManagedObjectValidationError }
        let isLength = subjectKey(of: predicate) == "length"
        let isDate = value is Date
        switch comparison.predicateOperatorType {
        case .greaterThan, .greaterThanOrEqualTo:
            return isLength ? NSValidationStringTooShortError : isDate ? NSValidationDateTooSoonError : NSValidationNumberTooSmallError
        case .lessThan, .lessThanOrEqualTo:
            return isLength ? NSValidationStringTooLongError : isDate ? NSValidationDateTooLateError : NSValidationNumberTooLargeError
        case .matches:
            return NSValidationStringPatternMatchingError
        default:
            return NSManagedObjectValidationError
        }
    }
}
#endif

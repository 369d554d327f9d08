import Foundation

/// One validation rule of an attribute in the form Core Data keeps it: a validation predicate
/// `<subject> <comparison> <constant>` and, as its warning, the error code a failure gets.
///
/// What Xcode's model compiler writes for the model editor's rules (reported by a public project
/// that reads compiled models; not checked against momc here): `SELF >= min` / `SELF <= max`
/// for numbers (warnings 1620 / 1610), `timeIntervalSinceReferenceDate >= min` / `<= max` for
/// dates (1640 / 1630), `length >= min` / `length <= max` for strings (1670 / 1660) and
/// `SELF MATCHES regex` (1680), each warning an `NSNumber`.
public struct ValidationRule: Hashable, Sendable {
    /// The left side of the predicate.
    public enum Subject: String, Hashable, Sendable {
        /// `SELF`: the value itself.
        case value = "SELF"
        /// `length`: a string's length in UTF-16 code units, binary data's in bytes.
        case length
        /// `timeIntervalSinceReferenceDate`: a date as seconds since 2001-01-01.
        case referenceDateSeconds = "timeIntervalSinceReferenceDate"
    }

    public enum Comparison: Hashable, Sendable {
        case atLeast, atMost, matches

        /// The comparison as a predicate operator.
        public var predicateOperator: ModelPredicate.Operator {
            switch self {
            case .atLeast: .greaterThanOrEqualTo
            case .atMost: .lessThanOrEqualTo
            case .matches: .matches
            }
        }

        /// `NSComparisonPredicate.Operator`'s raw value: 3, 1, 6.
        public var operatorType: Int64 { predicateOperator.rawValue }

        public var symbol: String {
            switch self {
            case .atLeast: ">="
            case .atMost: "<="
            case .matches: "MATCHES"
            }
        }
    }

    public enum Constant: Hashable, Sendable {
        case integer(Int64)
        case real(Double)
        case string(String)
    }

    public var subject: Subject
    public var comparison: Comparison
    public var constant: Constant

    public init(subject: Subject, comparison: Comparison, constant: Constant) {
        self.subject = subject
        self.comparison = comparison
        self.constant = constant
    }

    /// The warning Core Data keeps next to the predicate: the error code of a failure.
    public var errorCode: Int {
        switch (subject, comparison) {
        case (_, .matches): 1680  // NSValidationStringPatternMatchingError
        case (.length, .atLeast): 1670  // NSValidationStringTooShortError
        case (.length, .atMost): 1660  // NSValidationStringTooLongError
        case (.referenceDateSeconds, .atLeast): 1640  // NSValidationDateTooSoonError
        case (.referenceDateSeconds, .atMost): 1630  // NSValidationDateTooLateError
        case (.value, .atLeast): 1620  // NSValidationNumberTooSmallError
        case (.value, .atMost): 1610  // NSValidationNumberTooLargeError
        }
    }

    /// The predicate in `NSPredicate(format:)` syntax, constants written literally.
    public var predicateFormat: String {
        let right: String
        switch constant {
        case .integer(let number): right = String(number)
        case .real(let number): right = MomDefaultValue.numberText(number)
        case .string(let text):
            right = "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "\(subject.rawValue) \(comparison.symbol) \(right)"
    }
}

extension AttributeValidation {
    /// The validation predicates an attribute of `type` carries, in the order they are archived:
    /// minimum, maximum, minimum length, maximum length, pattern. Rules that do not apply to the
    /// type (which the compiler reports) are left out.
    public func rules(for type: AttributeType) -> [ValidationRule] {
        var rules: [ValidationRule] = []
        if type.isNumeric || type == .date {
            let subject: ValidationRule.Subject = type == .date ? .referenceDateSeconds : .value
            for (bound, comparison) in [(minimum, ValidationRule.Comparison.atLeast), (maximum, .atMost)] {
                guard let bound, let constant = Self.constant(bound, type: type) else { continue }
                rules.append(ValidationRule(subject: subject, comparison: comparison, constant: constant))
            }
        }
        if type == .string || type == .binaryData {
            if let minimumLength {
                rules.append(ValidationRule(subject: .length, comparison: .atLeast, constant: .integer(Int64(minimumLength))))
            }
            if let maximumLength {
                rules.append(ValidationRule(subject: .length, comparison: .atMost, constant: .integer(Int64(maximumLength))))
            }
        }
        if type == .string {
            if let regularExpression {
                rules.append(ValidationRule(subject: .value, comparison: .matches, constant: .string(regularExpression)))
            }
        }
        return rules
    }

    /// The rules back as validation values of an attribute of `type`; nil for a rule of another
    /// shape (a predicate written by code, which the values cannot express).
    public init?(rules: [ValidationRule], type: AttributeType) {
        self.init()
        for rule in rules {
            switch (rule.subject, rule.comparison, rule.constant) {
            case (.length, .atLeast, .integer(let number))
            where (type == .string || type == .binaryData) && number >= 0 && minimumLength == nil:
                minimumLength = Int(clamping: number)
            case (.length, .atMost, .integer(let number))
            where (type == .string || type == .binaryData) && number >= 0 && maximumLength == nil:
                maximumLength = Int(clamping: number)
            case (.value, .matches, .string(let pattern)) where type == .string && regularExpression == nil:
                regularExpression = pattern
            case (.value, .atLeast, _) where type.isNumeric && minimum == nil:
                minimum = Self.value(rule.constant, type: type)
            case (.value, .atMost, _) where type.isNumeric && maximum == nil:
                maximum = Self.value(rule.constant, type: type)
            case (.referenceDateSeconds, .atLeast, _) where type == .date && minimum == nil:
                minimum = Self.value(rule.constant, type: type)
            case (.referenceDateSeconds, .atMost, _) where type == .date && maximum == nil:
                maximum = Self.value(rule.constant, type: type)
            default:
                return nil
            }
        }
    }

    /// The rules in the canonical form a `.mom` gives them back (numbers as archived, dates as UTC
    /// ISO 8601, rules that do not apply to the type left out).
    public func canonical(for type: AttributeType) -> AttributeValidation {
        AttributeValidation(rules: rules(for: type), type: type) ?? AttributeValidation()
    }

    static func constant(_ bound: AttributeValue, type: AttributeType) -> ValidationRule.Constant? {
        switch bound {
        case .integer(let number):
            return type.isInteger ? .integer(number) : .real(Double(number))
        case .number(let text):
            if type.isInteger, let number = Int64(text) { return .integer(number) }
            return Double(text).map { type.isInteger && $0 == $0.rounded() && abs($0) < 9.2e18 ? .integer(Int64($0)) : .real($0) }
        case .boolean(let flag):
            return .integer(flag ? 1 : 0)
        case .date(let text):
            return ISO8601.date(from: text).map { .real($0.timeIntervalSinceReferenceDate) }
        case .string, .uuid, .uri:
            return nil
        }
    }

    static func value(_ constant: ValidationRule.Constant, type: AttributeType) -> AttributeValue? {
        switch constant {
        case .integer(let number):
            if type == .date { return .date(MomDefaultValue.iso8601(Date(timeIntervalSinceReferenceDate: Double(number)))) }
            return type.isInteger ? .integer(number) : .number(String(number))
        case .real(let number):
            if type == .date { return .date(MomDefaultValue.iso8601(Date(timeIntervalSinceReferenceDate: number))) }
            if type.isInteger, number == number.rounded(), abs(number) < 9.2e18 { return .integer(Int64(number)) }
            return .number(MomDefaultValue.numberText(number))
        case .string:
            return nil
        }
    }
}

/// A predicate of a model — a fetched property's fetch request predicate — as the `NSPredicate`
/// tree Foundation archives: comparisons of two expressions, `AND`/`OR`/`NOT` compounds and the
/// constant predicates. Its expressions are ``MappingExpression`` values (the `NSExpression`
/// trees mapping models use too). ``init(format:)`` reads the `NSPredicate` format,
/// ``description`` prints it back, and the keyed archive form is Foundation's (see
/// `docs/CompiledModel.md`).
public indirect enum ModelPredicate: Hashable, Sendable {
    /// `NSComparisonPredicate`.
    case comparison(Comparison)
    /// `NSCompoundPredicate` of type `and` (1). The parser builds binary compounds nested to the
    /// left, as Foundation's does: `a AND b AND c` is `(a AND b) AND c`.
    case and([ModelPredicate])
    /// `NSCompoundPredicate` of type `or` (2).
    case or([ModelPredicate])
    /// `NSCompoundPredicate` of type `not` (0), with one subpredicate.
    case not(ModelPredicate)
    /// `NSTruePredicate`: `TRUEPREDICATE`.
    case truePredicate
    /// `NSFalsePredicate`: `FALSEPREDICATE`.
    case falsePredicate

    /// How deeply predicates may nest (compounds within compounds), in text and in archives.
    public static let maximumDepth = 64

    /// `left <operator>[options] right`, with `ANY`/`ALL` in front as its modifier.
    public struct Comparison: Hashable, Sendable {
        public var left: MappingExpression
        public var comparison: Operator
        public var modifier: Modifier
        public var options: Options
        public var right: MappingExpression

        public init(
            _ left: MappingExpression, _ comparison: Operator, _ right: MappingExpression, modifier: Modifier = .direct,
            options: Options = []
        ) {
            self.left = left
            self.comparison = comparison
            self.modifier = modifier
            self.options = options
            self.right = right
        }
    }

    /// `NSComparisonPredicate.Operator`; the raw value is what archives store as `NSOperatorType`.
    public enum Operator: Int64, Hashable, Sendable, CaseIterable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        case contains = 99
        case between = 100

        /// The operator as the format writes it.
        public var symbol: String {
            switch self {
            case .lessThan: "<"
            case .lessThanOrEqualTo: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqualTo: ">="
            case .equalTo: "=="
            case .notEqualTo: "!="
            case .matches: "MATCHES"
            case .like: "LIKE"
            case .beginsWith: "BEGINSWITH"
            case .endsWith: "ENDSWITH"
            case .in: "IN"
            case .contains: "CONTAINS"
            case .between: "BETWEEN"
            }
        }
    }

    /// `NSComparisonPredicate.Modifier`: `ANY` and `ALL` compare each member of a to-many left
    /// side. (`NONE p` is `NOT (ANY p)`.)
    public enum Modifier: Int64, Hashable, Sendable {
        case direct = 0
        case all = 1
        case any = 2
    }

    /// `NSComparisonPredicate.Options`: `[c]` case-insensitive, `[d]` diacritic-insensitive,
    /// `[n]` normalized, `[l]` locale-sensitive.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: Int64
        public init(rawValue: Int64) { self.rawValue = rawValue }

        public static let caseInsensitive = Options(rawValue: 1)
        public static let diacriticInsensitive = Options(rawValue: 2)
        public static let normalized = Options(rawValue: 4)
        public static let localeSensitive = Options(rawValue: 8)

        /// The letters between the brackets, in the order Foundation prints them.
        static let letters: [(Character, Options)] = [
            ("c", .caseInsensitive), ("d", .diacriticInsensitive), ("n", .normalized), ("l", .localeSensitive),
        ]
    }

    /// Every expression the predicate compares, left before right, in order.
    public var expressions: [MappingExpression] {
        switch self {
        case .comparison(let comparison): [comparison.left, comparison.right]
        case .and(let members), .or(let members): members.flatMap(\.expressions)
        case .not(let member): member.expressions
        case .truePredicate, .falsePredicate: []
        }
    }
}

extension MappingExpression {
    /// Every key path in the expression with the expression it starts from: `name` and
    /// `author.alias` start from `SELF`, `$FETCH_SOURCE.alias` from a variable. Nested key paths
    /// (`a.b` written as one path) come once, whole.
    public var keyPaths: [(operand: MappingExpression, path: String)] {
        switch self {
        case .constant, .evaluatedObject, .variable: return []
        case .keyPath(let operand, let path): return [(operand, path)] + operand.keyPaths
        case .function(let target, _, let arguments): return target.keyPaths + arguments.flatMap(\.keyPaths)
        case .aggregate(let items): return items.flatMap(\.keyPaths)
        case .fetch(let request, let context, _): return request.keyPaths + context.keyPaths
        }
    }

    /// The variables the expression uses, without `$`.
    public var variables: [String] {
        switch self {
        case .constant, .evaluatedObject: return []
        case .variable(let name): return [name]
        case .keyPath(let operand, _): return operand.variables
        case .function(let target, _, let arguments): return target.variables + arguments.flatMap(\.variables)
        case .aggregate(let items): return items.flatMap(\.variables)
        case .fetch(let request, let context, _): return request.variables + context.variables
        }
    }
}

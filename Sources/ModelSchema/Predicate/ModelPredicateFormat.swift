/// A predicate in the `NSPredicate` format, as Foundation's `predicateFormat` writes it:
/// `folder == $FETCH_SOURCE`, `name BEGINSWITH[cd] "a"`, `ANY tags.name IN {"x", "y"}`,
/// `(a == 1 AND b == 2) AND c == 3` (a compound inside a compound in parentheses),
/// `NOT done == YES`. ``ModelPredicate/init(format:)`` reads what this prints back to an equal
/// value, and so does Foundation's parser.
extension ModelPredicate: CustomStringConvertible {
    public var description: String {
        switch self {
        case .comparison(let comparison):
            let modifier =
                switch comparison.modifier {
                case .direct: ""
                case .any: "ANY "
                case .all: "ALL "
                }
            let letters = Options.letters.filter { comparison.options.contains($0.1) }.map(\.0)
            let options = letters.isEmpty ? "" : "[" + String(letters) + "]"
            return "\(modifier)\(comparison.left) \(comparison.comparison.symbol)\(options) \(comparison.right)"
        case .and(let members):
            return members.isEmpty ? "TRUEPREDICATE" : members.map(Self.operand).joined(separator: " AND ")
        case .or(let members):
            return members.isEmpty ? "FALSEPREDICATE" : members.map(Self.operand).joined(separator: " OR ")
        case .not(let member):
            return "NOT " + Self.operand(member)
        case .truePredicate:
            return "TRUEPREDICATE"
        case .falsePredicate:
            return "FALSEPREDICATE"
        }
    }

    private static func operand(_ predicate: ModelPredicate) -> String {
        switch predicate {
        case .and, .or, .not: "(\(predicate))"
        case .comparison, .truePredicate, .falsePredicate: predicate.description
        }
    }
}

/// Derived attributes are hashed by the `predicateFormat` rendering Foundation gives their
/// expression, not by the text written in the model. This type renders the forms modelgen knows.
public enum DerivationExpression {
    /// The canonical rendering of a derivation expression, or nil when the expression is outside
    /// the forms modelgen can render exactly:
    /// - a key path (`trip.name`) renders as itself;
    /// - a to-many count (`stops.@count`) renders as `count:(stops)` (confirmed on real stores);
    /// - `now()` renders as itself;
    /// - the string functions `lowercase:(k)`, `uppercase:(k)`, `canonical:(k)` render as themselves;
    /// - `count:(k)` renders as itself (it is what `k.@count` renders as).
    public static func canonicalPredicateFormat(_ expression: String) -> String? {
        let text = expression.trimmingWhitespace
        if isKeyPath(text) { return text }
        if text.hasSuffix(".@count") {
            let path = String(text.dropLast(".@count".count))
            return isKeyPath(path) ? "count:(\(path))" : nil
        }
        if text == "now()" { return text }
        // `count:(stops)` is the rendering of `stops.@count`, so it renders as itself.
        for function in ["lowercase", "uppercase", "canonical", "count"] where text.hasPrefix(function + ":(") && text.hasSuffix(")") {
            let argument = String(text.dropFirst(function.count + 2).dropLast()).trimmingWhitespace
            return isKeyPath(argument) ? "\(function):(\(argument))" : nil
        }
        return nil
    }

    /// The text hashed for a derived attribute: the canonical rendering when known, otherwise the
    /// expression as written (which matches Core Data only if it is already canonical).
    public static func predicateFormat(of expression: String) -> String {
        canonicalPredicateFormat(expression) ?? expression
    }

    /// Whether `text` is a dotted key path of identifiers (`trip.name`).
    public static func isKeyPathText(_ text: String) -> Bool { isKeyPath(text) }

    static func isKeyPath(_ text: String) -> Bool {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        return !components.isEmpty && components.allSatisfy(isIdentifier)
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

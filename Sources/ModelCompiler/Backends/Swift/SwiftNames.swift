/// Swift spellings of model names: type names, case names, capitalised property names.
enum SwiftNames {
    /// `Trips 2` → `trips2`, `2024 spring` → `v2024Spring`: a lower-camel identifier.
    static func caseName(_ text: String) -> String {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        var name = words.enumerated().map { index, word in index == 0 ? lowercasedFirst(word) : uppercasedFirst(word) }.joined()
        if name.isEmpty { name = "version" }
        if let first = name.first, first.isNumber { name = "v" + name }
        return Names.swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    static func uppercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// A string as a Swift string literal.
    static func literal(_ text: String) -> String {
        TextEscaping.swiftString(text)
    }
}

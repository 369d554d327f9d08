/// How model names are written into Mermaid text so that any name parses and shows as written.
///
/// Mermaid has no backslash escapes; it replaces entity codes (`#35;` for `#`, `#quot;`) before
/// parsing and turns them into HTML character references in what it renders. Every character of
/// a name other than ASCII letters, digits, `_`, space and `.` is written as `#<decimal code>;`,
/// which keeps out of the parser everything it gives a meaning: `:` and `;` end a relationship
/// label, `"` starts a string, `{` `}` open and close a class body, `(` `)` make a member a
/// method, `~` starts a generic type, `*` `$` at the end and `+ - # ~` at the start of a member
/// classify it, `%%` starts a comment, `` ` `` quotes a class name, `<` `>` are HTML.
enum MermaidEscaping {
    static func text(_ name: String) -> String {
        var output = ""
        for scalar in name.unicodeScalars {
            if isPlain(scalar) {
                output.unicodeScalars.append(scalar)
            } else {
                output += "#\(scalar.value);"
            }
        }
        return output
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", " ", ".": true
        default: false
        }
    }

    /// Whether a name can be a class or namespace identifier as written. Mermaid's lexer matches
    /// keywords before identifiers, and its keywords are lower case (`class`, `note`, `link`,
    /// `click`, `call`, `href`, `style`, and `o`, which is an aggregation arrow), so an
    /// identifier must start with an upper-case letter; the rest are letters, digits and `_`
    /// (the `style` statement accepts nothing else).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// A class identifier for every entity: its name when that is an identifier, else
    /// `Entity<n>` (numbered in diagram order, skipping names taken), shown with its name as the
    /// class label.
    static func identifiers(for names: [String]) -> [String: String] {
        var taken = Set(names.filter(isIdentifier))
        var identifiers: [String: String] = [:]
        var next = 1
        for name in names where identifiers[name] == nil {
            if isIdentifier(name) {
                identifiers[name] = name
                continue
            }
            while taken.contains("Entity\(next)") { next += 1 }
            identifiers[name] = "Entity\(next)"
            taken.insert("Entity\(next)")
        }
        return identifiers
    }
}

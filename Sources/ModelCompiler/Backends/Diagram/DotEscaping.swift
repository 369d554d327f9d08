/// How text is written into Graphviz DOT.
enum DotEscaping {
    /// A double-quoted DOT string: `"` and `\` escaped with a backslash (so Graphviz's own
    /// escapes, `\n`, `\l`, `\N`, never come from a name), a line break as `\n`, other control
    /// characters left out.
    static func quoted(_ text: String) -> String {
        "\"" + TextEscaping.escape(text, quotedEscapes) { _ in "" } + "\""
    }

    private static let quotedEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]

    /// Text inside an HTML-like label, which Graphviz parses as XML: `&`, `<`, `>` and `"` as
    /// entities, control characters left out.
    static func html(_ text: String) -> String {
        TextEscaping.escape(text, htmlEscapes) { _ in "" }
    }

    private static let htmlEscapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"]
}

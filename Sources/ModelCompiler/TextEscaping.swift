/// Escaping for the text formats modelgen writes (JSON, Swift and YAML string literals, XML
/// attributes): one loop, with each format's table of replacements and its control-character form.
enum TextEscaping {
    /// The backslash escapes JSON, Swift and YAML double-quoted strings share.
    static let backslashEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]

    static let xmlEscapes: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "&#10;", "\t": "&#9;", "\r": "&#13;",
    ]

    /// `text` with every scalar in `table` replaced, and other control characters (below U+0020,
    /// and U+007F) written by `control`.
    static func escape(_ text: String, _ table: [Unicode.Scalar: String], control: (UInt32) -> String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] {
                output += replacement
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                output += control(scalar.value)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func jsonString(_ text: String) -> String {
        "\"" + escape(text, backslashEscapes) { "\\u" + hex($0, digits: 4) } + "\""
    }

    static func swiftString(_ text: String) -> String {
        "\"" + escape(text, backslashEscapes) { "\\u{\(hex($0, digits: 1))}" } + "\""
    }

    static func yamlDoubleQuoted(_ text: String) -> String {
        "\"" + escape(text, backslashEscapes) { "\\x" + hex($0, digits: 2) } + "\""
    }

    static func xmlAttribute(_ text: String) -> String {
        escape(text, xmlEscapes) { "&#\($0);" }
    }
}

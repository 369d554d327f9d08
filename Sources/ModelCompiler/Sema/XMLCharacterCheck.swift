import ModelSchema

/// Text in a model must survive `modelgen export` to Xcode's XML, and XML 1.0 cannot carry the
/// C0 control characters other than tab, line feed and carriage return (not even as `&#0;`), nor
/// U+FFFE and U+FFFF. Such characters are reported where they are written, before any output.
enum XMLCharacterCheck {
    /// Reports every scalar (key or value) under `root` holding a character XML cannot carry.
    static func check(_ root: YAMLNode, diagnostics: DiagnosticCollector) {
        var reported: Set<SourceLocation> = []
        visit(root, diagnostics: diagnostics, reported: &reported)
    }

    private static func visit(_ node: YAMLNode, diagnostics: DiagnosticCollector, reported: inout Set<SourceLocation>) {
        switch node.content {
        case .scalar(let text, _):
            guard let scalar = firstForbiddenScalar(in: text), reported.insert(node.location).inserted else { return }
            diagnostics.error(
                "this text contains \(name(of: scalar)), a character XML (and so an Xcode model) cannot carry; remove it",
                at: node.location)
        case .sequence(let items):
            for item in items { visit(item, diagnostics: diagnostics, reported: &reported) }
        case .mapping(let entries):
            for entry in entries {
                visit(entry.key, diagnostics: diagnostics, reported: &reported)
                visit(entry.value, diagnostics: diagnostics, reported: &reported)
            }
        }
    }

    /// The first scalar outside XML 1.0's `Char` production, or nil.
    static func firstForbiddenScalar(in text: String) -> Unicode.Scalar? {
        // Fast path: every forbidden scalar has a UTF-8 byte below 0x20 or the lead byte 0xEF.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0xEF }) else { return nil }
        return text.unicodeScalars.first(where: isForbidden)
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    private static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

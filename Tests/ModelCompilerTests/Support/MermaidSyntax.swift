/// A check of the Mermaid class-diagram text `modelgen diagram` writes, line by line, against
/// what Mermaid's class-diagram lexer and parser accept (no Mermaid runs here): entity codes
/// (`#35;`) are replaced first, as Mermaid does before parsing; then each line must be one of
/// the statements the writer uses, with identifiers Mermaid lexes as one name, strings without
/// `"`, relationship labels without `:` or `;` (which end a label), members without braces,
/// quotes, parentheses, `~` or a classifier at either end, and every class used declared.
enum MermaidSyntax {
    static let identifier = "[A-Z][A-Za-z0-9_]*"

    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        var declared: Set<String> = []
        var used: [String] = []
        var inClass = false
        var namespaceDepth = 0
        var sawHeader = false
        let codes = try! Regex("#[0-9]+;")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last != "" { problems.append("the text does not end with a line break") }
        for (number, rawLine) in lines.dropLast().enumerated() {
            let raw = String(rawLine)
            let line = raw.replacing(codes, with: "E").trimmingCharacters(in: .whitespaces)
            let at = "line \(number + 1)"
            // Colours are the one place a `#` belongs (`style Trip fill:#dafbe1`).
            if line.contains("#") && !line.hasPrefix("style ") { problems.append("\(at): '#' outside an entity code: \(raw)") }
            if line.hasPrefix("%%") {
                if inClass { problems.append("\(at): a comment inside a class body") }
                continue
            }
            if !sawHeader {
                if line != "classDiagram" { problems.append("\(at): expected 'classDiagram'") }
                sawHeader = true
                continue
            }
            if inClass {
                if line == "}" {
                    inClass = false
                } else {
                    problems += memberProblems(line).map { "\(at): \($0): \(raw)" }
                }
                continue
            }
            if let match = line.wholeMatch(of: try! Regex("class (\(identifier))(\\[\"[^\"]*\"\\])?( \\{)?")) {
                declared.insert(String(match.output[1].substring ?? ""))
                inClass = match.output[3].substring != nil
            } else if line.wholeMatch(of: try! Regex("namespace (\(identifier)|`[^`]+`) \\{")) != nil {
                namespaceDepth += 1
            } else if line == "}" && namespaceDepth > 0 {
                namespaceDepth -= 1
            } else if let match = line.wholeMatch(of: try! Regex("<<abstract>> (\(identifier))")) {
                used.append(String(match.output[1].substring ?? ""))
            } else if let match = line.wholeMatch(of: try! Regex("(\(identifier)) <\\|-- (\(identifier))")) {
                used += [String(match.output[1].substring ?? ""), String(match.output[2].substring ?? "")]
            } else if let match = line.wholeMatch(
                of: try! Regex("(\(identifier)) (\"[^\"]*\" -- |--> )\"[^\"]*\" (\(identifier)) : ([^:;\"]+)"))
            {
                used += [String(match.output[1].substring ?? ""), String(match.output[3].substring ?? "")]
            } else if let match = line.wholeMatch(of: try! Regex("style (\(identifier)) [a-z-]+:[#A-Za-z0-9]+(,[a-z-]+:[#A-Za-z0-9]+)*")) {
                used.append(String(match.output[1].substring ?? ""))
            } else if line.wholeMatch(of: try! Regex("note \"[^\"]*\"")) != nil {
                continue
            } else {
                problems.append("\(at): not a statement the writer uses: \(raw)")
            }
        }
        if inClass || namespaceDepth > 0 { problems.append("a class body or namespace is not closed") }
        for name in used where !declared.contains(name) { problems.append("'\(name)' is used but not declared as a class") }
        return problems
    }

    private static func memberProblems(_ member: String) -> [String] {
        var problems: [String] = []
        for character in ["{", "}", "\"", "(", ")", "~", "`", "%", "<", ">", ";"] where member.contains(character) {
            problems.append("a member holds '\(character)'")
        }
        if let first = member.first, "+-#~".contains(first) { problems.append("a member starts with a visibility character") }
        if let last = member.last, "$*".contains(last) { problems.append("a member ends with a classifier") }
        return problems
    }
}

import Foundation

/// What one command accepts, declared once: the parser checks the command line against it, and
/// the usage line and help text are generated from it.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let discussion: String
    /// Every argument in declaration order (the order of the usage line and of help).
    let arguments: [ArgumentDeclaration]

    init(name: String, summary: String, discussion: String = "", arguments: [any DeclaresArguments]) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments.flatMap(\.declarations)
    }

    var positionals: [ArgumentDeclaration] { arguments.filter { $0.kind == .positional } }

    var named: [ArgumentDeclaration] { arguments.filter { $0.kind != .positional } }

    /// Declaration mistakes (two arguments with one name, a value name missing, a positional
    /// argument after a repeating one); empty for a well-formed command. Checked by tests.
    var declarationProblems: [String] {
        var problems: [String] = []
        var keys: Set<String> = ["-h", "--help"]
        for argument in arguments where !keys.insert(argument.key).inserted {
            problems.append("'\(argument.key)' is declared twice")
        }
        for argument in named where !argument.name.hasPrefix("--") { problems.append("'\(argument.name)' does not start with --") }
        if let repeating = positionals.firstIndex(where: \.isRepeating), repeating != positionals.count - 1 {
            problems.append("a positional argument follows the repeating '\(positionals[repeating].label)'")
        }
        return problems
    }

    /// `modelgen generate <model> --output <dir> [--check] …`; with more than 12 arguments, the
    /// optional ones are summarised as `[<options>]`, as swift-argument-parser does.
    var usage: String {
        let command = "modelgen \(name)"
        guard !arguments.isEmpty else { return command }
        guard arguments.count > 12 else { return ([command] + arguments.map(\.synopsis)).joined(separator: " ") }
        let kept = arguments.filter { $0.kind == .positional || $0.isRequired }
        return ([command, "[<options>]"] + kept.map(\.synopsis)).joined(separator: " ")
    }

    /// `modelgen <command> --help` and `modelgen help <command>`.
    var help: String {
        var text = HelpLayout.wrapped("OVERVIEW: \(summary)", indent: 0) + "\n"
        if !discussion.isEmpty { text += "\n" + HelpLayout.paragraphs(discussion) + "\n" }
        text += "\nUSAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n" + positionals.map { HelpLayout.row($0.label, $0.helpText) }.joined()
        }
        text += "\nOPTIONS:\n" + named.map { HelpLayout.row($0.label, $0.helpText) }.joined()
        text += HelpLayout.row("-h, --help", "Show help information.")
        return text
    }
}

/// The layout of help text: two-column rows wrapped to 80 columns, as swift-argument-parser lays
/// them out for a terminal 80 columns wide. The width is fixed so the output is the same
/// everywhere.
enum HelpLayout {
    static let width = 80
    static let labelColumn = 26

    /// `  --output <dir>          The folder …`: the help starts in column 27, or on the next line
    /// when the label reaches that far; continuation lines are indented to it.
    static func row(_ label: String, _ help: String) -> String {
        let padded = "  " + label
        guard !help.isEmpty else { return padded + "\n" }
        let body = wrapped(help, indent: labelColumn)
        if padded.count < labelColumn {
            return padded + String(body.dropFirst(padded.count)) + "\n"
        }
        return padded + "\n" + body + "\n"
    }

    /// Paragraphs (separated by blank lines) refilled to `width` columns: line breaks within a
    /// paragraph become spaces.
    static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { wrapped($0.replacingOccurrences(of: "\n", with: " "), indent: 0) }
            .joined(separator: "\n\n")
    }

    /// The text's words filled into lines of at most `width` columns (a longer word gets its own
    /// line), every line indented by `indent`; line breaks in the text are kept.
    static func wrapped(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            var lines: [String] = []
            var line = margin
            for word in paragraph.split(separator: " ") {
                if line.count > indent, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = margin
                }
                line += (line.count > indent ? " " : "") + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

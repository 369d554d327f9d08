import ModelCompiler

/// A command-line usage mistake: exit status 2 and a message that says how to do it right.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
}

/// The options and arguments one command accepts.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        let name: String
        /// The placeholder of the option's value (`<dir>`), or nil for a flag.
        let valueName: String?
        let help: String
        /// Whether an empty value (`--class-prefix=`) means something; otherwise it is a usage error.
        var acceptsEmptyValue = false
    }

    let name: String
    let summary: String
    /// The positional arguments as shown in usage (`<model>...`).
    let argumentsUsage: String
    let minimumArguments: Int
    let maximumArguments: Int?
    let options: [Option]
    let discussion: String

    var usage: String {
        "modelgen \(name)" + (options.isEmpty ? "" : " [options]") + (argumentsUsage.isEmpty ? "" : " \(argumentsUsage)")
    }

    var help: String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        let rows =
            options.map { ($0.name + ($0.valueName.map { " \($0)" } ?? ""), $0.help) } + [("-h, --help", "Show help for this command.")]
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        return text
    }
}

/// The parsed command line of one command.
struct ParsedArguments: Equatable, Sendable {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var arguments: [String] = []
    var wantsHelp = false
}

/// A small, strict parser: `--name value`, `--name=value`, flags, positional arguments, and `--`
/// to end options. Unknown options are errors with a suggestion; nothing is guessed.
enum ArgumentParser {
    static func parse(_ words: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.arguments.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "-h" || word == "--help" {
                parsed.wantsHelp = true
                continue
            }
            let (name, inlineValue) = split(word)
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let suggestion = Suggestions.didYouMean(name, in: spec.options.map(\.name) + ["--help"])
                throw UsageError(message: "unknown option '\(name)' for 'modelgen \(spec.name)'\(suggestion)")
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError(message: "option '\(name)' does not take a value") }
                guard parsed.flags.insert(name).inserted else { throw UsageError(message: "option '\(name)' is given more than once") }
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw UsageError(message: "option '\(name)' needs a value \(option.valueName!)") }
                value = words[index]
                index += 1
            }
            if value.isEmpty, !option.acceptsEmptyValue {
                throw UsageError(message: "option '\(name)' needs a non-empty value \(option.valueName!)")
            }
            if parsed.values[name] != nil { throw UsageError(message: "option '\(name)' is given more than once") }
            parsed.values[name] = value
        }
        if parsed.wantsHelp { return parsed }
        if parsed.arguments.count < spec.minimumArguments {
            throw UsageError(message: "missing argument \(spec.argumentsUsage)\nusage: \(spec.usage)")
        }
        if let maximum = spec.maximumArguments, parsed.arguments.count > maximum {
            let extra = parsed.arguments[maximum]
            throw UsageError(message: "unexpected argument '\(extra)'\nusage: \(spec.usage)")
        }
        return parsed
    }

    private static func split(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}

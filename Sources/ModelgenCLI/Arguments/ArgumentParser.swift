import ModelCompiler

/// A small, strict parser for one command's declared arguments: `--name value`, `--name=value`,
/// flags, positional arguments, and `--` to end options. `-h`/`--help` anywhere before `--` asks
/// for help and wins over every error. Unknown options are errors with a suggestion; nothing is
/// guessed. Errors use swift-argument-parser's wording.
enum ArgumentParser {
    static func parse(_ words: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        if words.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            parsed.wantsHelp = true
            return parsed
        }
        var positionalWords: [String] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !isOption(word) {
                positionalWords.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = split(word)
            guard let declaration = spec.named.first(where: { $0.name == name }) else {
                let suggestion = name.hasPrefix("--") ? Suggestions.closest(to: name, in: spec.named.map(\.name) + ["--help"]) : nil
                throw .unknownOption(name, suggestion: suggestion)
            }
            if declaration.kind == .flag {
                if let inlineValue { throw .unexpectedValue(inlineValue, for: declaration) }
                guard parsed.values[declaration.key] == nil else { throw .repeated(declaration) }
                parsed.values[declaration.key] = [true]
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count, !isOption(words[index]) else { throw .missingValue(declaration) }
                value = words[index]
                index += 1
            }
            if parsed.values[declaration.key] != nil, !declaration.isRepeating { throw .repeated(declaration) }
            parsed.values[declaration.key, default: []].append(try convert(value, for: declaration))
            if declaration.secondValueName != nil {
                guard index < words.count, !isOption(words[index]) else { throw .missingValue(declaration) }
                parsed.values[declaration.key, default: []].append(try convert(words[index], for: declaration))
                index += 1
            }
        }
        try assignPositionals(positionalWords, for: spec, into: &parsed)
        for declaration in spec.arguments where declaration.isRequired && parsed.values[declaration.key] == nil {
            throw .missingArgument(declaration)
        }
        return parsed
    }

    /// Hands the words to the positional arguments in order: each takes one word, a repeating one
    /// every word the required arguments after it leave. Words left over are an error.
    private static func assignPositionals(_ words: [String], for spec: CommandSpec, into parsed: inout ParsedArguments) throws(UsageError) {
        var remaining = words[...]
        let positionals = spec.positionals
        for (position, declaration) in positionals.enumerated() {
            let requiredAfter = positionals[(position + 1)...].filter(\.isRequired).count
            let count = declaration.isRepeating ? max(0, remaining.count - requiredAfter) : min(1, remaining.count)
            guard count > 0 else { continue }
            for word in remaining.prefix(count) {
                parsed.values[declaration.key, default: []].append(try convert(word, for: declaration))
            }
            remaining = remaining.dropFirst(count)
        }
        if !remaining.isEmpty { throw .unexpectedArguments(Array(remaining)) }
    }

    private static func convert(_ word: String, for declaration: ArgumentDeclaration) throws(UsageError) -> any Sendable {
        if word.isEmpty, !declaration.acceptsEmptyValue {
            throw .invalidValue(word, for: declaration, reason: "an empty value is not allowed")
        }
        do {
            return try declaration.convert(word)
        } catch {
            throw .invalidValue(word, for: declaration, reason: error.reason)
        }
    }

    /// `-x`, `--name`, `--name=value` and `--`; a lone `-` (standard input, by convention) is a value.
    private static func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word != "-" }

    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}

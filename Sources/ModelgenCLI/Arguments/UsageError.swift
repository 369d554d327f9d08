/// A command-line usage mistake: exit status 2 and, in swift-argument-parser's form, what is wrong,
/// the argument's help, and the command's usage.
public struct UsageError: Error, Equatable, Sendable {
    /// The text after `Error: `.
    public let message: String
    /// `--output <dir>  The folder …`: the help of the argument the error is about, if one.
    let argumentHelp: String?

    public init(message: String) {
        self.message = message
        argumentHelp = nil
    }

    init(message: String, about declaration: ArgumentDeclaration?) {
        self.message = message
        argumentHelp = declaration.map { "\($0.label)  \($0.helpText)" }
    }

    static func missingArgument(_ declaration: ArgumentDeclaration) -> UsageError {
        UsageError(message: "Missing expected argument '\(declaration.label)'", about: declaration)
    }

    static func missingValue(_ declaration: ArgumentDeclaration) -> UsageError {
        UsageError(message: "Missing value for '\(declaration.label)'", about: declaration)
    }

    static func unknownOption(_ name: String, suggestion: String?) -> UsageError {
        UsageError(message: "Unknown option '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""))
    }

    static func unexpectedValue(_ value: String, for declaration: ArgumentDeclaration) -> UsageError {
        UsageError(message: "The option '\(declaration.name)' does not take any value, but '\(value)' was specified.")
    }

    static func unexpectedArguments(_ words: [String]) -> UsageError {
        guard words.count > 1 else { return UsageError(message: "Unexpected argument '\(words.first ?? "")'") }
        return UsageError(message: "\(words.count) unexpected arguments: " + words.map { "'\($0)'" }.joined(separator: ", "))
    }

    static func repeated(_ declaration: ArgumentDeclaration) -> UsageError {
        UsageError(message: "The option '\(declaration.name)' cannot be given more than once", about: declaration)
    }

    /// `The value 'open' is invalid for '--access <level>'`, then the reason or the values the
    /// argument accepts.
    static func invalidValue(_ value: String, for declaration: ArgumentDeclaration, reason: String?) -> UsageError {
        var message = "The value '\(value)' is invalid for '\(declaration.label)'"
        if let reason {
            message += ": \(reason)"
        } else if !declaration.allValues.isEmpty {
            message += ". Please provide one of \(listing(declaration.allValues))."
        }
        return UsageError(message: message, about: declaration)
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    static func listing(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// The text printed to standard error: the error, then the argument's help and the usage.
    func rendered(usage: String, helpCommand: String) -> String {
        var text = "Error: \(message)\n"
        if let argumentHelp { text += "Help:  \(argumentHelp)\n" }
        return text + "Usage: \(usage)\n  See '\(helpCommand)' for more information.\n"
    }
}

/// One argument a command accepts, as the parser and the help text see it: a flag, an option with
/// a value (once or repeated) or a positional argument. Commands declare typed wrappers
/// (`Flag`, `Option`, `Argument`, …) that hold one of these.
struct ArgumentDeclaration: Sendable {
    enum Kind: Sendable, Equatable {
        case flag
        case option
        case positional
    }

    let kind: Kind
    /// `--output` for flags and options; the value name (`model`) for a positional argument.
    let name: String
    /// `dir` in `--output <dir>`; nil for flags.
    let valueName: String?
    let help: String
    let isRequired: Bool
    /// A repeatable option (`--name a --name b`) or a positional argument taking every remaining word.
    let isRepeating: Bool
    /// What an absent option means, shown in help as `default: …`.
    let defaultDescription: String?
    /// The values an enumerated option accepts, listed in help and in the error for any other value.
    let allValues: [String]
    /// Whether an empty value (`--class-prefix=`) means something; otherwise it is a usage error.
    let acceptsEmptyValue: Bool
    /// Turns one word into the argument's value.
    let convert: @Sendable (String) throws(InvalidValue) -> any Sendable
    /// `to` in `--diff <from> <to>`: an option that takes two words; nil for one.
    var secondValueName: String? = nil

    /// The key a parsed value is stored under: unique within a command.
    var key: String { kind == .positional ? "<\(name)>" : name }

    /// `--output <dir>`, `--check` or `<model>`: how the argument is named in help and errors.
    var label: String {
        switch kind {
        case .flag: name
        case .option: "\(name) <\(valueName ?? "value")>" + (secondValueName.map { " <\($0)>" } ?? "")
        case .positional: "<\(name)>"
        }
    }

    /// The label as the usage line shows it: bracketed when optional, `...` when repeating.
    var synopsis: String {
        var text = label
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }

    /// The help column: the help text, then the accepted values and the default, if any.
    var helpText: String {
        var notes: [String] = []
        if !allValues.isEmpty { notes.append("values: " + allValues.joined(separator: ", ")) }
        if let defaultDescription { notes.append("default: \(defaultDescription)") }
        return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
    }
}

/// Why a word is not a valid value of an argument. Without a reason, the error lists the values
/// the argument accepts.
struct InvalidValue: Error, Sendable {
    let reason: String?

    init(_ reason: String? = nil) { self.reason = reason }
}

/// A value type an option or argument can be parsed into.
protocol ArgumentValue: Sendable {
    init?(argument: String)
    /// Every accepted value, for help and errors; empty when any word may be valid.
    static var allValueStrings: [String] { get }
}

extension ArgumentValue {
    static var allValueStrings: [String] { [] }
}

extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    init?(argument: String) { self.init(rawValue: argument) }
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
}

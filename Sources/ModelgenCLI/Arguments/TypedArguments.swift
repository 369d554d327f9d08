/// Something a command declares: its arguments, and groups of arguments shared between commands.
protocol DeclaresArguments: Sendable {
    var declarations: [ArgumentDeclaration] { get }
}

/// A typed argument: declared once, read from `ParsedArguments` by subscript.
protocol TypedArgument: DeclaresArguments {
    var declaration: ArgumentDeclaration { get }
}

extension TypedArgument {
    var declarations: [ArgumentDeclaration] { [declaration] }
}

/// Several arguments declared once and used by several commands.
struct ArgumentGroup: DeclaresArguments {
    let declarations: [ArgumentDeclaration]

    init(_ members: [any DeclaresArguments]) { declarations = members.flatMap(\.declarations) }
}

/// Converts a word with `Value.init(argument:)`, or with the given check when there is one.
private func converter<Value: ArgumentValue>(
    _ type: Value.Type, _ check: (@Sendable (Value) -> String?)?
) -> @Sendable (String) throws(InvalidValue) -> any Sendable {
    { word throws(InvalidValue) in
        guard let value = Value(argument: word) else { throw InvalidValue() }
        if let problem = check?(value) { throw InvalidValue(problem) }
        return value
    }
}

/// `--check`: true when given.
struct Flag: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ name: String, help: String) {
        declaration = ArgumentDeclaration(
            kind: .flag, name: name, valueName: nil, help: help, isRequired: false, isRepeating: false, defaultDescription: nil,
            allValues: [], acceptsEmptyValue: false, convert: { _ in true })
    }
}

/// `--layout <layout>`, given at most once; nil when absent.
struct Option<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    /// `check` returns why a converted value is not acceptable, or nil when it is.
    init(
        _ name: String, valueName: String, help: String, default defaultDescription: String? = nil, acceptsEmptyValue: Bool = false,
        check: (@Sendable (Value) -> String?)? = nil
    ) {
        declaration = ArgumentDeclaration(
            kind: .option, name: name, valueName: valueName, help: help, isRequired: false, isRepeating: false,
            defaultDescription: defaultDescription, allValues: Value.allValueStrings, acceptsEmptyValue: acceptsEmptyValue,
            convert: converter(Value.self, check))
    }
}

/// `--diff <from> <to>`: an option taking the next two words, given at most once; nil when absent.
struct PairOption<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ name: String, valueNames: (String, String), help: String) {
        declaration = ArgumentDeclaration(
            kind: .option, name: name, valueName: valueNames.0, help: help, isRequired: false, isRepeating: false,
            defaultDescription: nil, allValues: Value.allValueStrings, acceptsEmptyValue: false, convert: converter(Value.self, nil),
            secondValueName: valueNames.1)
    }
}

/// `--output <dir>`, which must be given exactly once; the parser reports it when missing.
struct RequiredOption<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ name: String, valueName: String, help: String, check: (@Sendable (Value) -> String?)? = nil) {
        declaration = ArgumentDeclaration(
            kind: .option, name: name, valueName: valueName, help: help, isRequired: true, isRepeating: false, defaultDescription: nil,
            allValues: Value.allValueStrings, acceptsEmptyValue: false, convert: converter(Value.self, check))
    }
}

/// `--name <value>`, given any number of times; the values in command-line order.
struct RepeatableOption<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ name: String, valueName: String, help: String, check: (@Sendable (Value) -> String?)? = nil) {
        declaration = ArgumentDeclaration(
            kind: .option, name: name, valueName: valueName, help: help, isRequired: false, isRepeating: true, defaultDescription: nil,
            allValues: Value.allValueStrings, acceptsEmptyValue: false, convert: converter(Value.self, check))
    }
}

/// `<model>`: a positional argument that must be given.
struct Argument<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ valueName: String, help: String, check: (@Sendable (Value) -> String?)? = nil) {
        declaration = ArgumentDeclaration(
            kind: .positional, name: valueName, valueName: valueName, help: help, isRequired: true, isRepeating: false,
            defaultDescription: nil, allValues: Value.allValueStrings, acceptsEmptyValue: true, convert: converter(Value.self, check))
    }
}

/// `[<version>]`: a positional argument that may be left out.
struct OptionalArgument<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ valueName: String, help: String, default defaultDescription: String? = nil) {
        declaration = ArgumentDeclaration(
            kind: .positional, name: valueName, valueName: valueName, help: help, isRequired: false, isRepeating: false,
            defaultDescription: defaultDescription, allValues: Value.allValueStrings, acceptsEmptyValue: true,
            convert: converter(Value.self, nil))
    }
}

/// `<model> ...`: one or more positional arguments, taking every word the others leave.
struct RepeatingArgument<Value: ArgumentValue>: TypedArgument {
    let declaration: ArgumentDeclaration

    init(_ valueName: String, help: String) {
        declaration = ArgumentDeclaration(
            kind: .positional, name: valueName, valueName: valueName, help: help, isRequired: true, isRepeating: true,
            defaultDescription: nil, allValues: Value.allValueStrings, acceptsEmptyValue: true, convert: converter(Value.self, nil))
    }
}

/// The parsed command line of one command: each declared argument's converted values.
struct ParsedArguments: Sendable {
    var values: [String: [any Sendable]] = [:]
    var wantsHelp = false

    subscript(flag: Flag) -> Bool { values[flag.declaration.key] != nil }

    subscript<Value>(option: Option<Value>) -> Value? { values[option.declaration.key]?.first as? Value }

    /// The value; the parser has made sure it is there.
    subscript<Value>(option: RequiredOption<Value>) -> Value { values[option.declaration.key]!.first as! Value }

    subscript<Value>(option: PairOption<Value>) -> (Value, Value)? {
        guard let words = values[option.declaration.key], words.count == 2, let first = words[0] as? Value, let second = words[1] as? Value
        else { return nil }
        return (first, second)
    }

    subscript<Value>(option: RepeatableOption<Value>) -> [Value] { (values[option.declaration.key] ?? []).map { $0 as! Value } }

    /// The value; the parser has made sure it is there.
    subscript<Value>(argument: Argument<Value>) -> Value { values[argument.declaration.key]!.first as! Value }

    subscript<Value>(argument: OptionalArgument<Value>) -> Value? { values[argument.declaration.key]?.first as? Value }

    subscript<Value>(argument: RepeatingArgument<Value>) -> [Value] { (values[argument.declaration.key] ?? []).map { $0 as! Value } }
}

import Testing

@testable import ModelgenCLI

struct ArgumentParserTests {
    static let spec = CommandSpec(
        name: "test", summary: "A command for tests.", argumentsUsage: "<model>...", minimumArguments: 1, maximumArguments: 2,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "Where to write."),
            .init(name: "--check", valueName: nil, help: "Only check."),
        ],
        discussion: "")

    @Test func positionalArgumentsAndOptionsMixInAnyOrder() throws {
        let parsed = try ArgumentParser.parse(["a", "--output", "out", "b", "--check"], for: Self.spec)
        #expect(parsed.arguments == ["a", "b"])
        #expect(parsed.values == ["--output": "out"])
        #expect(parsed.flags == ["--check"])
    }

    @Test func optionValueCanFollowAnEqualsSign() throws {
        let parsed = try ArgumentParser.parse(["--output=out dir", "a"], for: Self.spec)
        #expect(parsed.values["--output"] == "out dir")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "--check"], for: Self.spec)
        #expect(parsed.arguments == ["--check"])
        #expect(parsed.flags.isEmpty)
    }

    @Test func unknownOptionIsAnErrorWithASuggestion() {
        #expect(throws: UsageError(message: "unknown option '--ouput' for 'modelgen test'; did you mean '--output'?")) {
            try ArgumentParser.parse(["--ouput", "x", "a"], for: Self.spec)
        }
    }

    @Test func optionMissingItsValueIsAnError() {
        #expect(throws: UsageError(message: "option '--output' needs a value <dir>")) {
            try ArgumentParser.parse(["a", "--output"], for: Self.spec)
        }
    }

    @Test func flagGivenAValueIsAnError() {
        #expect(throws: UsageError(message: "option '--check' does not take a value")) {
            try ArgumentParser.parse(["a", "--check=yes"], for: Self.spec)
        }
    }

    @Test func repeatedOptionIsAnError() {
        #expect(throws: UsageError(message: "option '--output' is given more than once")) {
            try ArgumentParser.parse(["a", "--output", "x", "--output", "y"], for: Self.spec)
        }
    }

    @Test func missingAndExtraArgumentsAreErrors() {
        #expect(throws: UsageError(message: "missing argument <model>...\nusage: modelgen test [options] <model>...")) {
            try ArgumentParser.parse([], for: Self.spec)
        }
        #expect(throws: UsageError(message: "unexpected argument 'c'\nusage: modelgen test [options] <model>...")) {
            try ArgumentParser.parse(["a", "b", "c"], for: Self.spec)
        }
    }

    @Test func helpNeedsNoArguments() throws {
        let parsed = try ArgumentParser.parse(["--help"], for: Self.spec)
        #expect(parsed.wantsHelp)
    }
}

struct ArgumentParserStrictnessTests {
    static let spec = CommandSpec(
        name: "test", summary: "A command for tests.", argumentsUsage: "<model>", minimumArguments: 1, maximumArguments: 1,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "Where to write."),
            .init(name: "--prefix", valueName: "<prefix>", help: "May be empty.", acceptsEmptyValue: true),
            .init(name: "--check", valueName: nil, help: "Only check."),
        ],
        discussion: "")

    @Test func repeatedFlagIsAnError() {
        #expect(throws: UsageError(message: "option '--check' is given more than once")) {
            try ArgumentParser.parse(["a", "--check", "--check"], for: Self.spec)
        }
    }

    @Test func emptyValueIsAUsageError() {
        #expect(throws: UsageError(message: "option '--output' needs a non-empty value <dir>")) {
            try ArgumentParser.parse(["a", "--output="], for: Self.spec)
        }
        #expect(throws: UsageError(message: "option '--output' needs a non-empty value <dir>")) {
            try ArgumentParser.parse(["a", "--output", ""], for: Self.spec)
        }
    }

    @Test func emptyValueIsKeptWhereTheOptionAcceptsIt() throws {
        let parsed = try ArgumentParser.parse(["a", "--prefix="], for: Self.spec)
        #expect(parsed.values["--prefix"] == "")
    }
}

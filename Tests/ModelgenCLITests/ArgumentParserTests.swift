import Testing

@testable import ModelgenCLI

enum Level: String, CaseIterable, ArgumentValue {
    case low, high
}

/// A command declaring one argument of every kind.
enum TestCommand {
    static let model = Argument<String>("model", help: "The model.")
    static let version = OptionalArgument<String>("version", help: "The version.", default: "the current one")
    static let output = RequiredOption<String>("--output", valueName: "dir", help: "Where to write.")
    static let level = Option<Level>("--level", valueName: "level", help: "How much.", default: "low")
    static let prefix = Option<String>("--prefix", valueName: "prefix", help: "May be empty.", acceptsEmptyValue: true)
    static let name = Option<String>(
        "--name", valueName: "name", help: "A file name.", check: { $0.contains("/") ? "a name cannot contain '/'" : nil })
    static let tags = RepeatableOption<String>("--tag", valueName: "tag", help: "A tag; give several.")
    static let check = Flag("--check", help: "Only check.")

    static let spec = CommandSpec(
        name: "test", summary: "A command for tests.",
        arguments: [model, version, output, level, ArgumentGroup([prefix, name, tags]), check])

    static func parse(_ words: [String]) throws(UsageError) -> ParsedArguments { try ArgumentParser.parse(words, for: spec) }
}

struct ArgumentParserTests {
    @Test func positionalArgumentsAndOptionsMixInAnyOrder() throws {
        let parsed = try TestCommand.parse(["a", "--output", "out", "b", "--check"])
        #expect(parsed[TestCommand.model] == "a")
        #expect(parsed[TestCommand.version] == "b")
        #expect(parsed[TestCommand.output] == "out")
        #expect(parsed[TestCommand.check])
    }

    @Test func absentArgumentsReadAsNilFalseOrEmpty() throws {
        let parsed = try TestCommand.parse(["a", "--output", "out"])
        #expect(parsed[TestCommand.version] == nil)
        #expect(parsed[TestCommand.level] == nil)
        #expect(!parsed[TestCommand.check])
        #expect(parsed[TestCommand.tags].isEmpty)
    }

    @Test func enumeratedOptionsParseIntoTheirType() throws {
        #expect(try TestCommand.parse(["a", "--output", "o", "--level", "high"])[TestCommand.level] == .high)
    }

    @Test func optionValueCanFollowAnEqualsSign() throws {
        let parsed = try TestCommand.parse(["--output=out dir", "a"])
        #expect(parsed[TestCommand.output] == "out dir")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try TestCommand.parse(["--output", "o", "--", "--check"])
        #expect(parsed[TestCommand.model] == "--check")
        #expect(!parsed[TestCommand.check])
    }

    @Test func repeatableOptionCollectsItsValuesInOrder() throws {
        let parsed = try TestCommand.parse(["a", "--tag", "x", "--output", "o", "--tag=y", "--tag", "x"])
        #expect(parsed[TestCommand.tags] == ["x", "y", "x"])
    }

    @Test func helpWinsOverEveryError() throws {
        #expect(try TestCommand.parse(["--nonsense", "-h"]).wantsHelp)
        #expect(try TestCommand.parse(["--help"]).wantsHelp)
        #expect(try TestCommand.parse(["--output", "o", "--", "--help"])[TestCommand.model] == "--help")
    }
}

/// Each error form, worded as swift-argument-parser words it.
struct ArgumentParserErrorTests {
    static func error(_ words: [String]) -> UsageError? {
        do {
            _ = try TestCommand.parse(words)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingRequiredOptionIsNamedWithItsValue() {
        let error = Self.error(["a"])
        #expect(error?.message == "Missing expected argument '--output <dir>'")
        #expect(error?.argumentHelp == "--output <dir>  Where to write.")
    }

    @Test func aMissingPositionalArgumentIsNamed() {
        #expect(Self.error(["--output", "o"])?.message == "Missing expected argument '<model>'")
    }

    @Test func nothingGivenAtAllReportsTheFirstMissingArgument() {
        let error = Self.error([])
        #expect(error?.message == "Missing expected argument '<model>'")
        #expect(error?.argumentHelp == "<model>  The model.")
    }

    @Test func anUnknownOptionSuggestsTheClosestDeclaredOne() {
        #expect(Self.error(["a", "--ouput", "x"])?.message == "Unknown option '--ouput'. Did you mean '--output'?")
        #expect(Self.error(["a", "--zzzzzz"])?.message == "Unknown option '--zzzzzz'")
        #expect(Self.error(["a", "-x"])?.message == "Unknown option '-x'")
    }

    @Test func anOptionWithoutItsValueIsMissingAValue() {
        #expect(Self.error(["a", "--output"])?.message == "Missing value for '--output <dir>'")
        #expect(Self.error(["a", "--output", "--check"])?.message == "Missing value for '--output <dir>'")
    }

    @Test func anUnknownEnumeratedValueListsTheAllowedOnes() {
        let error = Self.error(["a", "--output", "o", "--level", "mid"])
        #expect(error?.message == "The value 'mid' is invalid for '--level <level>'. Please provide one of 'low' or 'high'.")
        #expect(error?.argumentHelp == "--level <level>  How much. (values: low, high; default: low)")
    }

    @Test func aValueFailingItsCheckSaysWhy() {
        #expect(
            Self.error(["a", "--output", "o", "--name", "x/y"])?.message
                == "The value 'x/y' is invalid for '--name <name>': a name cannot contain '/'")
    }

    @Test func extraArgumentsAreUnexpected() {
        #expect(Self.error(["a", "b", "c", "--output", "o"])?.message == "Unexpected argument 'c'")
        #expect(Self.error(["a", "b", "c", "d", "--output", "o"])?.message == "2 unexpected arguments: 'c', 'd'")
    }

    @Test func aFlagGivenAValueIsAnError() {
        #expect(
            Self.error(["a", "--output", "o", "--check=yes"])?.message
                == "The option '--check' does not take any value, but 'yes' was specified.")
    }

    @Test func aSingleOptionOrFlagGivenTwiceIsAnError() {
        #expect(Self.error(["a", "--output", "x", "--output", "y"])?.message == "The option '--output' cannot be given more than once")
        #expect(Self.error(["a", "--output", "x", "--check", "--check"])?.message == "The option '--check' cannot be given more than once")
    }

    @Test func anEmptyValueIsAnErrorUnlessTheOptionAcceptsIt() throws {
        let expected = "The value '' is invalid for '--output <dir>': an empty value is not allowed"
        #expect(Self.error(["a", "--output="])?.message == expected)
        #expect(Self.error(["a", "--output", ""])?.message == expected)
        #expect(try TestCommand.parse(["a", "--output", "o", "--prefix="])[TestCommand.prefix] == "")
    }

    @Test func theRenderedErrorIsFollowedByTheHelpLineUsageAndWhereToLookFurther() {
        let rendered = Self.error(["a"])!.rendered(usage: "modelgen test <model>", helpCommand: "modelgen test --help")
        #expect(
            rendered == """
                Error: Missing expected argument '--output <dir>'
                Help:  --output <dir>  Where to write.
                Usage: modelgen test <model>
                  See 'modelgen test --help' for more information.

                """)
    }
}

struct HelpTextTests {
    @Test func usageListsEveryArgumentInDeclarationOrder() {
        #expect(
            TestCommand.spec.usage
                == "modelgen test <model> [<version>] --output <dir> [--level <level>] [--prefix <prefix>] [--name <name>] [--tag <tag> ...] [--check]"
        )
    }

    @Test func usageOfMoreThanTwelveArgumentsKeepsOnlyThePositionalAndRequiredOnes() {
        let flags = (1...12).map { Flag("--flag\($0)", help: "") }
        let spec = CommandSpec(name: "many", summary: "", arguments: [TestCommand.model, TestCommand.output] + flags)
        #expect(spec.usage == "modelgen many [<options>] <model> --output <dir>")
    }

    @Test func helpIsGeneratedFromTheDeclarations() {
        #expect(
            TestCommand.spec.help == """
                OVERVIEW: A command for tests.

                USAGE: modelgen test <model> [<version>] --output <dir> [--level <level>] [--prefix <prefix>] [--name <name>] [--tag <tag> ...] [--check]

                ARGUMENTS:
                  <model>                 The model.
                  <version>               The version. (default: the current one)

                OPTIONS:
                  --output <dir>          Where to write.
                  --level <level>         How much. (values: low, high; default: low)
                  --prefix <prefix>       May be empty.
                  --name <name>           A file name.
                  --tag <tag>             A tag; give several.
                  --check                 Only check.
                  -h, --help              Show help information.

                """)
    }

    @Test func longHelpWrapsAtEightyColumnsUnderItsColumn() {
        let row = HelpLayout.row("--output <X.xcdatamodeld>", String(repeating: "word ", count: 20))
        #expect(
            row == """
                  --output <X.xcdatamodeld>
                                          word word word word word word word word word word word
                                          word word word word word word word word word

                """)
        #expect(HelpLayout.row("--no-query-typealiases", "Leave out.") == "  --no-query-typealiases  Leave out.\n")
        #expect(row.split(separator: "\n").allSatisfy { $0.count <= HelpLayout.width })
    }

    @Test(arguments: Modelgen.commands.map(\.spec.name))
    func everyCommandIsDeclaredWellAndItsHelpListsEveryArgument(_ name: String) throws {
        let spec = try #require(Modelgen.commands.first { $0.spec.name == name }?.spec)
        #expect(spec.declarationProblems.isEmpty)
        let help = CapturedRun([name, "--help"])
        #expect(help.status == 0)
        #expect(help.output == spec.help)
        for argument in spec.arguments {
            #expect(help.output.contains("\n  \(argument.label) ") || help.output.contains("\n  \(argument.label)\n"))
        }
        #expect(help.output.split(separator: "\n").allSatisfy { $0.count <= HelpLayout.width || $0.hasPrefix("USAGE: ") })
        #expect(CapturedRun(["help", name]).output == spec.help)
        #expect(CapturedRun([name, "-h"]).output == spec.help)
    }

    @Test func declarationMistakesAreFound() {
        let spec = CommandSpec(
            name: "bad", summary: "",
            arguments: [
                RepeatingArgument<String>("a", help: ""), Argument<String>("b", help: ""), Flag("--x", help: ""), Flag("--x", help: ""),
            ])
        #expect(spec.declarationProblems == ["'--x' is declared twice", "a positional argument follows the repeating '<a>'"])
    }
}

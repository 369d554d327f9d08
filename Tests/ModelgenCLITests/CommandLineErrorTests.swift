import Testing

@testable import ModelgenCLI

/// What `modelgen` prints for each kind of command-line mistake: swift-argument-parser's forms,
/// on standard error, with exit status 2 and nothing on standard output.
struct CommandLineErrorTests {
    static let generateUsage =
        "Usage: modelgen generate <model> --output <dir> [--layout <layout>] [--check] [--access <level>] [--import <module>] "
        + "[--templates <dir>] [--class-prefix <prefix>] [--config <file>] [--no-query-typealiases] [--model-bundle <bundle>]\n"
        + "  See 'modelgen generate --help' for more information.\n"

    static func usageError(_ arguments: [String]) -> String {
        let run = CapturedRun(arguments)
        #expect(run.status == Modelgen.ExitStatus.usageError)
        #expect(run.output.isEmpty)
        return run.errors
    }

    @Test func missingRequiredOption() {
        #expect(
            Self.usageError(["generate", "Trips.modeld"])
                == "Error: Missing expected argument '--output <dir>'\nHelp:  --output <dir>  The folder to write the sources into.\n"
                + Self.generateUsage)
    }

    @Test func unknownOption() {
        #expect(
            Self.usageError(["generate", "Trips.modeld", "--output", "out", "--acess", "public"])
                == "Error: Unknown option '--acess'. Did you mean '--access'?\n" + Self.generateUsage)
    }

    @Test func missingValue() {
        #expect(
            Self.usageError(["generate", "Trips.modeld", "--output"])
                == "Error: Missing value for '--output <dir>'\nHelp:  --output <dir>  The folder to write the sources into.\n"
                + Self.generateUsage)
    }

    @Test func invalidEnumeratedValue() {
        #expect(
            Self.usageError(["generate", "Trips.modeld", "--output", "out", "--access", "open"])
                == "Error: The value 'open' is invalid for '--access <level>'. Please provide one of 'public', 'package' or 'internal'.\n"
                + "Help:  --access <level>  The access level of the generated declarations. (values: public, package, internal; default: public)\n"
                + Self.generateUsage)
    }

    @Test func unexpectedExtraArgument() {
        #expect(
            Self.usageError(["generate", "Trips.modeld", "Other.modeld", "--output", "out"])
                == "Error: Unexpected argument 'Other.modeld'\n" + Self.generateUsage)
    }

    @Test func aCommandGivenNothingReportsItsFirstMissingArgument() {
        #expect(
            Self.usageError(["generate"])
                == "Error: Missing expected argument '<model>'\nHelp:  <model>  \(ModelArgument.help)\n" + Self.generateUsage)
    }

    @Test func aMistakeFoundByTheCommandGetsTheSameForm() {
        let errors = Self.usageError(["import", "Trips.modeld", "--output", "out"])
        #expect(
            errors.hasPrefix(
                "Error: The value 'Trips.modeld' is invalid for '<model>': 'Trips.modeld' is not an Xcode model; expected a .xcdatamodeld or .xcdatamodel\n"
            ))
        #expect(
            errors.hasSuffix(
                "Usage: modelgen import <model> --output <dir> [--model <model>]\n  See 'modelgen import --help' for more information.\n"))
    }

    @Test func anUnknownSubcommandPointsAtTheOverview() {
        #expect(
            Self.usageError(["genrate"])
                == "Error: Unknown subcommand 'genrate'. Did you mean 'generate'?\nUsage: modelgen <subcommand>\n  See 'modelgen --help' for more information.\n"
        )
    }

    @Test func theOverviewListsEverySubcommandWithItsSummary() {
        let run = CapturedRun(["help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("OVERVIEW: modelgen compiles Core Data models written as YAML.\n"))
        for command in Modelgen.commands {
            #expect(run.output.contains("\n  \(command.spec.name)" + String(repeating: " ", count: 24 - command.spec.name.count)))
        }
        #expect(run.output.hasSuffix("\n  See 'modelgen help <subcommand>' for detailed help.\n"))
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= HelpLayout.width })
        #expect(CapturedRun(["-h"]).output == run.output)
    }

    @Test func sharedGenerationOptionsAreDeclaredOnceForGenerateAndBuild() {
        let generate = Set(GenerateCommand.spec.arguments.map(\.key))
        let build = Set(BuildCommand.spec.arguments.map(\.key))
        for option in GenerationOptions.shared.declarations {
            #expect(generate.contains(option.key) && build.contains(option.key))
        }
        #expect(!build.contains("--layout"))
    }
}

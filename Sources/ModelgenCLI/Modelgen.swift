import Foundation
import ModelCompiler

/// Where the CLI writes. Injected so tests can capture what a run prints.
public struct Console: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void

    public init(standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    public static let system = Console(
        standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        standardError: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// The `modelgen` command line: parses arguments, runs a command, returns the exit status.
/// Exit status: 0 success, 1 the model has errors, 2 the command line is wrong.
public enum Modelgen {
    public static let version = ModelgenVersion.current

    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let modelErrors: Int32 = 1
        public static let usageError: Int32 = 2
    }

    static let commands: [Command] = [
        ValidateCommand.command, DumpCommand.command, ChecksumCommand.command, CompileCommand.command, GenerateCommand.command,
        ImportCommand.command,
        ExportCommand.command, BuildCommand.command,
        InspectStoreCommand.command, ShipCommand.command, MigrationsCommand.command, MigrateStoreCommand.command,
    ]

    static var overview: String {
        var text = """
            OVERVIEW: modelgen compiles Core Data models written as YAML.

            USAGE: modelgen <command> [options] <arguments>

            COMMANDS:

            """
        let width = commands.map(\.spec.name.count).max() ?? 0
        for command in commands {
            text +=
                "  \(command.spec.name)" + String(repeating: " ", count: width - command.spec.name.count + 2) + command.spec.summary + "\n"
        }
        text += """

            OPTIONS:
              -h, --help     Show this help, or 'modelgen <command> --help' for a command's.
              --version      Show the modelgen version.

            A model is a '<Name>.model.yaml' file or a '<Name>.modeld' folder of versions.

            """
        return text
    }

    public static func main(arguments: [String], console: Console = .system) -> Int32 {
        guard let first = arguments.first else {
            console.standardError(overview)
            return ExitStatus.usageError
        }
        switch first {
        case "-h", "--help", "help":
            guard first == "help", arguments.count > 1, !["-h", "--help"].contains(arguments[1]) else {
                console.standardOutput(overview)
                return ExitStatus.success
            }
            guard arguments.count == 2, let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                let name = arguments[1]
                let message =
                    arguments.count > 2
                    ? "unexpected argument '\(arguments[2])'\nusage: modelgen help [<command>]"
                    : "unknown command '\(name)'\(Suggestions.didYouMean(name, in: commands.map(\.spec.name)))\nRun 'modelgen --help' to list the commands."
                console.standardError("error: \(message)\n")
                return ExitStatus.usageError
            }
            console.standardOutput(command.spec.help)
            return ExitStatus.success
        case "--version":
            console.standardOutput("modelgen \(version)\n")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let suggestion = Suggestions.didYouMean(first, in: commands.map(\.spec.name))
            console.standardError("error: unknown command '\(first)'\(suggestion)\nRun 'modelgen --help' to list the commands.\n")
            return ExitStatus.usageError
        }
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.wantsHelp {
                console.standardOutput(command.spec.help)
                return ExitStatus.success
            }
            return try command.run(parsed, console: console)
        } catch {
            console.standardError("error: \(error.message)\n")
            return ExitStatus.usageError
        }
    }
}

/// A subcommand: what it accepts and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, Console) throws(UsageError) -> Int32

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        try run(arguments, console)
    }
}

enum Report {
    /// Prints diagnostics in the compiler's format to standard error, with a closing count.
    static func diagnostics(_ diagnostics: [Diagnostic], console: Console) {
        guard !diagnostics.isEmpty else { return }
        var text = diagnostics.map { "\($0)\n" }.joined()
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        var counts: [String] = []
        if errors > 0 { counts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { counts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        if !counts.isEmpty { text += counts.joined(separator: " and ") + " generated.\n" }
        console.standardError(text)
    }
}

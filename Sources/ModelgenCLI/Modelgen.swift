import Foundation
import ModelCompiler

/// What a run is connected to: where the CLI writes, and the store migrator of the executable
/// that runs it. Injected so tests can capture what a run prints.
public struct Console: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    /// Whether standard error is a terminal, where long commands draw their progress line.
    public var standardErrorIsTerminal: Bool
    /// Runs migration steps through mapping models (`migrate-store`); nil in an executable that
    /// links no runtime.
    public var mappedStoreMigrator: (any MappedStoreMigrating)?

    public init(
        standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void,
        standardErrorIsTerminal: Bool = false, mappedStoreMigrator: (any MappedStoreMigrating)? = nil
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.mappedStoreMigrator = mappedStoreMigrator
    }

    public static let system = Console(
        standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        standardError: { FileHandle.standardError.write(Data($0.utf8)) }, standardErrorIsTerminal: isatty(2) != 0)
}

/// The `modelgen` command line: parses arguments, runs a command, returns the exit status.
/// Exit status: 0 success, 1 the model has errors, 2 the command line is wrong (see docs/CLI.md).
public enum Modelgen {
    public static let version = ModelgenVersion.current

    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let modelErrors: Int32 = 1
        /// The command line is wrong. swift-argument-parser exits with 64 (`EX_USAGE`) here; modelgen
        /// keeps the 2 it has always documented, which scripts and CI checks rely on.
        public static let usageError: Int32 = 2
    }

    static let commands: [Command] = [
        ValidateCommand.command, DumpCommand.command, ChecksumCommand.command, CompileCommand.command, GenerateCommand.command,
        ImportCommand.command,
        ExportCommand.command, BuildCommand.command,
        InspectStoreCommand.command, ShipCommand.command, MigrationsCommand.command, MigrateStoreCommand.command,
        DiagramCommand.command,
    ]

    static let summary = "modelgen compiles Core Data models written as YAML."

    static let discussion = "A model is a '<Name>.model.yaml' file or a '<Name>.modeld' folder of versions."

    static let usage = "modelgen <subcommand>"

    /// `modelgen --help` and `modelgen help`.
    static var overview: String {
        var text = HelpLayout.wrapped("OVERVIEW: \(summary)", indent: 0) + "\n\n\(discussion)\n\nUSAGE: \(usage)\n\nOPTIONS:\n"
        text += HelpLayout.row("--version", "Show the version.") + HelpLayout.row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n" + commands.map { HelpLayout.row($0.spec.name, $0.spec.summary) }.joined()
        text += "\n  See 'modelgen help <subcommand>' for detailed help.\n"
        return text
    }

    public static func main(arguments: [String], console: Console = .system) -> Int32 {
        guard let first = arguments.first else {
            console.standardError(overview)
            return ExitStatus.usageError
        }
        switch first {
        case "-h", "--help":
            console.standardOutput(overview)
            return ExitStatus.success
        case "help":
            return help(Array(arguments.dropFirst()), console: console)
        case "--version":
            console.standardOutput("modelgen \(version)\n")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            return usageError(unknownCommand(first), console: console)
        }
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.wantsHelp {
                console.standardOutput(command.spec.help)
                return ExitStatus.success
            }
            return try command.run(parsed, console: console)
        } catch {
            let spec = command.spec
            console.standardError(error.rendered(usage: spec.usage, helpCommand: "modelgen \(spec.name) --help"))
            return ExitStatus.usageError
        }
    }

    /// `modelgen help [<subcommand>]`.
    static func help(_ words: [String], console: Console) -> Int32 {
        guard let name = words.first, !["-h", "--help"].contains(name) else {
            console.standardOutput(overview)
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            return usageError(unknownCommand(name), console: console)
        }
        guard words.count == 1 else {
            return usageError(.unexpectedArguments(Array(words.dropFirst())), usage: "modelgen help [<subcommand>]", console: console)
        }
        console.standardOutput(command.spec.help)
        return ExitStatus.success
    }

    static func unknownCommand(_ name: String) -> UsageError {
        let suggestion = Suggestions.closest(to: name, in: commands.map(\.spec.name))
        return UsageError(message: "Unknown subcommand '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""))
    }

    static func usageError(_ error: UsageError, usage: String = Modelgen.usage, console: Console) -> Int32 {
        console.standardError(error.rendered(usage: usage, helpCommand: "modelgen --help"))
        return ExitStatus.usageError
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

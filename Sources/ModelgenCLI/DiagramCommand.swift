import Foundation
import ModelCompiler
import ModelSchema

/// `modelgen diagram <model> [--version <version>] [--diff <from> <to>] [--format …] [--output <file>]`:
/// an entity–relationship diagram of a version, or of what changes between two.
enum DiagramCommand {
    static let command = Command(spec: spec, run: run)

    enum Format: String, CaseIterable, ArgumentValue {
        case mermaid
        case dot
        case svg
    }

    static let model = Argument<String>("model", help: ModelArgument.help)
    static let version = Option<String>("--version", valueName: "version", help: "The version to draw.", default: "the current one")
    static let diff = PairOption<String>(
        "--diff", valueNames: ("from", "to"),
        help: "Draw both versions, coloured by what the migration from <from> to <to> adds, removes, renames and changes.")
    static let format = Option<Format>(
        "--format", valueName: "format", help: "Mermaid, Graphviz DOT, or SVG drawn by Graphviz's dot.", default: "mermaid")
    static let output = Option<String>("--output", valueName: "file", help: "Write the diagram to this file.", default: "standard output")

    static let spec = CommandSpec(
        name: "diagram",
        summary: "Print an entity-relationship diagram of a version, or of the changes between two.",
        discussion: """
            Entities with their attributes and types, relationships with cardinality, inverse and
            delete rule, inheritance, abstract entities, and configurations as groups. GitHub
            and GitLab render Mermaid from a 'mermaid' code block; '--format svg' needs Graphviz
            ('dot' on PATH).
            """,
        arguments: [model, version, diff, format, output])

    /// `The value 'V9' is invalid for '--version <version>': the model has no version 'V9'; did you mean 'V2'?`
    static func unknownVersion(_ name: String, for declaration: ArgumentDeclaration, in names: [String]) -> UsageError {
        .invalidValue(name, for: declaration, reason: "the model has no version '\(name)'\(Suggestions.didYouMean(name, in: names))")
    }

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        if arguments[version] != nil, arguments[diff] != nil {
            throw UsageError(message: "'--version' and '--diff' cannot be used together")
        }
        let result = Pipeline.load(arguments[model])
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let diagram = try self.diagram(of: model, arguments)
        let text: String
        switch arguments[format] ?? .mermaid {
        case .mermaid: text = ModelDiagram.text(diagram, format: .mermaid)
        case .dot: text = ModelDiagram.text(diagram, format: .dot)
        case .svg:
            do throws(GraphvizRenderer.Failure) {
                text = try GraphvizRenderer.svg(fromDOT: ModelDiagram.text(diagram, format: .dot))
            } catch {
                console.standardError("error: \(error.message)\n")
                return Modelgen.ExitStatus.modelErrors
            }
        }
        guard let path = arguments[output] else {
            console.standardOutput(text)
            return Modelgen.ExitStatus.success
        }
        return write(text, to: path, console: console)
    }

    private static func diagram(of model: Model, _ arguments: ParsedArguments) throws(UsageError) -> Diagram {
        let names = model.versions.map(\.name)
        if let (from, to) = arguments[diff] {
            for name in [from, to] where !names.contains(name) { throw unknownVersion(name, for: diff.declaration, in: names) }
            if let diagram = ModelDiagram.diff(of: model, from: from, to: to) { return diagram }
        }
        let name = arguments[version]
        if let name, !names.contains(name) { throw unknownVersion(name, for: version.declaration, in: names) }
        guard let diagram = ModelDiagram.diagram(of: model, version: name) else {
            throw UsageError(message: "the model has no version '\(model.currentVersionName)' to draw")
        }
        return diagram
    }

    /// Writes the file only when its bytes change, as every writing command does.
    private static func write(_ text: String, to path: String, console: Console) -> Int32 {
        let folder = (path as NSString).deletingLastPathComponent
        let file = OutputFile(path: (path as NSString).lastPathComponent, text: text)
        do throws(OutputFiles.WriteError) {
            let written = try OutputFiles.write([file], under: folder.isEmpty ? "." : folder)
            console.standardOutput(written.isEmpty ? "\(path) is up to date\n" : "wrote \(path)\n")
            return Modelgen.ExitStatus.success
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
    }
}

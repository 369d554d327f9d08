import Foundation
import ModelCompiler
import ModelSchema
import Testing

@testable import ModelgenCLI

/// `modelgen diagram`: what it prints for each format and form, its usage errors, `--output`,
/// and the SVG Graphviz draws from it.
struct DiagramCommandTests {
    static let sample = Fixtures.tripsModel.path
    static let golden = Fixtures.golden.appendingPathComponent("Diagrams")
    static let abstractEntities = Fixtures.root.appendingPathComponent("xcode-patterns/AbstractEntities.xcdatamodel").path
    static let notes = Fixtures.samples.appendingPathComponent("CheckedIn/Sources/Notes/Notes.model.yaml").path

    static func golden(_ name: String) throws -> String {
        try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func printsTheCurrentVersionAsMermaidByDefault() throws {
        let run = CapturedRun(["diagram", Self.sample])
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
        #expect(run.output == (try Self.golden("Trips.mmd")))
    }

    @Test func versionChoosesTheVersionDrawn() throws {
        let run = CapturedRun(["diagram", Self.sample, "--version", "Trips 1"])
        #expect(run.status == 0)
        #expect(run.output == (try Self.golden("Trips-1.mmd")))
        #expect(!run.output.contains("status: TripStatus"))
    }

    @Test func formatDotPrintsGraphvizText() throws {
        let run = CapturedRun(["diagram", "--format", "dot", Self.sample])
        #expect(run.status == 0)
        #expect(run.output == (try Self.golden("Trips.dot")))
    }

    @Test func diffDrawsTheChangesBetweenTwoVersions() throws {
        let mermaid = CapturedRun(["diagram", Self.sample, "--diff", "Trips 1", "Trips 2"])
        #expect(mermaid.status == 0)
        #expect(mermaid.output == (try Self.golden("Trips-diff.mmd")))
        let dot = CapturedRun(["diagram", Self.sample, "--diff=Trips 1", "Trips 2", "--format=dot"])
        #expect(dot.output == (try Self.golden("Trips-diff.dot")))
    }

    @Test func xcodeModelsAreDrawnLikeYAMLModels() throws {
        let run = CapturedRun(["diagram", Self.abstractEntities])
        #expect(run.status == 0)
        #expect(run.output == (try Self.golden("AbstractEntities.mmd")))
        // The model's warning is reported; the diagram is drawn all the same.
        #expect(run.errors.contains("warning: relationship 'Draft.basedOn' has no inverse"))
    }

    @Test func anUnknownVersionIsAUsageErrorWithASuggestion() {
        let run = CapturedRun(["diagram", Self.sample, "--version", "Trips 3"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(
            run.errors.hasPrefix(
                "Error: The value 'Trips 3' is invalid for '--version <version>': the model has no version 'Trips 3'; did you mean 'Trips 1'?"
            ))
        let diff = CapturedRun(["diagram", Self.sample, "--diff", "Trips 1", "Trips"])
        #expect(diff.status == 2)
        #expect(diff.errors.contains("is invalid for '--diff <from> <to>': the model has no version 'Trips'"))
    }

    @Test func diffTakesTwoVersionsAndExcludesVersion() {
        let one = CapturedRun(["diagram", Self.sample, "--diff", "Trips 1"])
        #expect(one.status == 2)
        #expect(one.errors.hasPrefix("Error: Missing value for '--diff <from> <to>'"))
        let both = CapturedRun(["diagram", Self.sample, "--diff", "Trips 1", "Trips 2", "--version", "Trips 1"])
        #expect(both.status == 2)
        #expect(both.errors.hasPrefix("Error: '--version' and '--diff' cannot be used together"))
        let format = CapturedRun(["diagram", Self.sample, "--format", "png"])
        #expect(format.status == 2)
        #expect(
            format.errors.hasPrefix(
                "Error: The value 'png' is invalid for '--format <format>'. Please provide one of 'mermaid', 'dot' or 'svg'."))
    }

    @Test func aModelWithErrorsGetsLocatedDiagnosticsAndNoDiagram() {
        let path = Fixtures.golden.appendingPathComponent("Diagnostics/missing-inverse.model.yaml").path
        let run = CapturedRun(["diagram", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("\(path):4:7: error: relationship 'Trip.stops' has no inverse"))
        let missing = CapturedRun(["diagram", "/nonexistent/Nothing.model.yaml"])
        #expect(missing.status == 1)
        #expect(missing.output.isEmpty)
        #expect(missing.errors.contains("error:"))
    }

    @Test func outputWritesTheFileOnlyWhenItChanges() throws {
        let folder = try ScratchFolder()
        let path = folder.path("docs/Trips.mmd")
        let first = CapturedRun(["diagram", Self.sample, "--output", path])
        #expect(first.status == 0)
        #expect(first.output == "wrote \(path)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try Self.golden("Trips.mmd")))
        let second = CapturedRun(["diagram", Self.sample, "--output", path])
        #expect(second.output == "\(path) is up to date\n")
    }

    @Test func helpShowsTheOptionsAndTheOverviewListsTheCommand() {
        let help = CapturedRun(["help", "diagram"])
        #expect(help.status == 0)
        #expect(
            help.output.contains(
                "USAGE: modelgen diagram <model> [--version <version>] [--diff <from> <to>] [--format <format>] [--output <file>]"))
        #expect(help.output.contains("  --format <format>       Mermaid, Graphviz DOT, or SVG drawn by Graphviz's dot."))
        #expect(CapturedRun(["--help"]).output.contains("  diagram                 Print an entity-relationship diagram"))
        #expect(DiagramCommand.spec.declarationProblems.isEmpty)
    }

    /// The README and the command-line article show the sample's diagram; it must stay what the
    /// command prints.
    @Test(arguments: ["README.md", "Sources/modelgen/modelgen.docc/CommandLine.md"])
    func documentationShowsTheSampleDiagramAsTheCommandPrintsIt(_ file: String) throws {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let blocks = text.components(separatedBy: "```mermaid\n").dropFirst().map { $0.components(separatedBy: "```\n")[0] }
        #expect(blocks.count == 1)
        #expect(blocks.first == CapturedRun(["diagram", Self.sample]).output)
    }

    @Test func svgWithoutGraphvizSaysHowToInstallIt() {
        #expect(GraphvizRenderer.locate(searchPath: "/nonexistent:") == nil)
        #expect(throws: GraphvizRenderer.Failure.self) {
            try GraphvizRenderer.svg(fromDOT: "digraph {}", searchPath: "/nonexistent")
        }
        let message = GraphvizRenderer.notInstalled.message
        #expect(message.contains("Graphviz") && message.contains("apt-get install graphviz") && message.contains("brew install graphviz"))
    }
}

import Foundation
import ModelCompiler

/// What every writing command does with the pipeline's output: print its diagnostics, write its
/// files under the output folder (removing its removals), report write failures.
enum PipelineOutput {
    /// Prints the diagnostics and writes the files; the exit status.
    static func write(_ output: Pipeline.Output, to folder: String, console: Console) -> Int32 {
        guard writeFiles(output, to: folder, console: console) else { return Modelgen.ExitStatus.modelErrors }
        return output.hasErrors ? Modelgen.ExitStatus.modelErrors : Modelgen.ExitStatus.success
    }

    /// Writes as ``write(_:to:console:)`` does, then says on standard output what changed: each
    /// file written or removed (`wrote <path>`, `removed <path>`), or that everything was up to
    /// date — never "wrote" for a file left as it was.
    /// With `wholeOutput`, one `wrote <summary>` stands for all the files written.
    static func writeReporting(
        _ output: Pipeline.Output, to folder: String, console: Console, summary: String, wholeOutput: Bool = false
    ) -> Int32 {
        let changes = OutputFiles.changes(output.files, removing: output.removals, under: folder)
        let status = write(output, to: folder, console: console)
        guard status == Modelgen.ExitStatus.success else { return status }
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        let written = (changes.missing + changes.changed).sorted()
        if wholeOutput, !written.isEmpty {
            console.standardOutput("wrote \(summary)\n")
            return status
        }
        for name in written { console.standardOutput("wrote \(path(name))\n") }
        for name in changes.removed.sorted() { console.standardOutput("removed \(path(name))\n") }
        if written.isEmpty && changes.removed.isEmpty { console.standardOutput("\(summary) is up to date\n") }
        return status
    }

    /// Prints the diagnostics and writes the files; false when writing failed.
    static func writeFiles(_ output: Pipeline.Output, to folder: String, console: Console) -> Bool {
        Report.diagnostics(output.diagnostics, console: console)
        guard !output.files.isEmpty || !output.removals.isEmpty else { return true }
        do throws(OutputFiles.WriteError) {
            try OutputFiles.apply(output.files, removing: output.removals, under: folder)
            return true
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return false
        }
    }

    /// `<folder>/<main path>`, for "wrote …" messages.
    static func mainPath(_ output: Pipeline.Output, in folder: String) -> String {
        guard let main = output.mainPath, !main.isEmpty else { return folder }
        return (folder as NSString).appendingPathComponent(main)
    }
}

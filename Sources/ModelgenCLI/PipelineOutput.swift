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

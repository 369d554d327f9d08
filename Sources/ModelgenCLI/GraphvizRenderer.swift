import Foundation
import Synchronization

/// SVG from DOT through Graphviz's `dot -Tsvg`, found on `PATH`, the DOT text on its standard
/// input. Graphviz is not a dependency of modelgen: without it, `--format svg` says how to
/// install it.
enum GraphvizRenderer {
    struct Failure: Error, Sendable {
        let message: String
    }

    static let notInstalled = Failure(
        message:
            "'--format svg' needs Graphviz's 'dot', which is not on PATH; install Graphviz ('apt-get install graphviz' on Debian and Ubuntu, 'brew install graphviz' on macOS), or use '--format dot' and render the DOT elsewhere"
    )

    /// The first executable `dot` in the folders of `searchPath` (`PATH`'s form, `:`-separated).
    static func locate(searchPath: String?) -> String? {
        for folder in (searchPath ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = (String(folder) as NSString).appendingPathComponent("dot")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    static func svg(fromDOT dot: String, searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) throws(Failure) -> String {
        guard let executable = locate(searchPath: searchPath) else { throw notInstalled }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(message: "cannot run '\(executable)': \(error.localizedDescription)")
        }
        // Standard input is written and standard error read on their own threads, so that
        // neither pipe can fill while this thread reads standard output.
        let writer = input.fileHandleForWriting
        let bytes = Data(dot.utf8)
        let written = DispatchGroup()
        written.enter()
        DispatchQueue.global().async {
            try? writer.write(contentsOf: bytes)
            try? writer.close()
            written.leave()
        }
        let errorText = Mutex(Data())
        let errorsRead = DispatchGroup()
        errorsRead.enter()
        let errorReader = errors.fileHandleForReading
        DispatchQueue.global().async {
            let data = errorReader.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorsRead.leave()
        }
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        written.wait()
        errorsRead.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: svg, encoding: .utf8) else {
            let detail = errorText.withLock { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                message: "'\(executable) -Tsvg' failed with status \(process.terminationStatus)\(detail.isEmpty ? "" : ": \(detail)")")
        }
        return text
    }
}

import Foundation
import Testing

/// `generate` and `compile` say what they wrote: every file written, or that the output was up
/// to date — never "wrote" for a file left as it was.
struct WriteReportTests {
    @Test func aSecondRunReportsThatNothingChanged() throws {
        let folder = try Fixtures.temporaryFolder("write-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = Fixtures.tripsModel.path
        let generated = folder.appendingPathComponent("Generated").path
        let first = CapturedRun(["generate", sample, "--output", generated])
        #expect(first.status == 0)
        #expect(
            first.output.split(separator: "\n").map(String.init) == ["Stop", "Tag", "Trip"].map {
                "wrote \(generated)/\($0)+CoreData.swift"
            } + ["wrote \(generated)/Trips+Model.swift"])
        let second = CapturedRun(["generate", sample, "--output", generated])
        #expect(second.output == "every generated source in \(generated) is up to date\n")

        let compiled = folder.appendingPathComponent("Compiled").path
        #expect(CapturedRun(["compile", sample, "--output", compiled]).output == "wrote \(compiled)/Trips.momd\n")
        #expect(CapturedRun(["compile", sample, "--output", compiled]).output == "\(compiled)/Trips.momd is up to date\n")
    }
}

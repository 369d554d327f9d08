import Foundation
import ModelCompiler
import Testing

/// Hostile and broken input never crashes or hangs: it gets a located diagnostic. (Time and
/// memory of the same cases on the release binary are measured by Benchmarks/robustness.sh.)
struct RobustnessTests {
    static func diagnose(_ text: String) -> Pipeline.Result {
        Pipeline.load(text: text, path: "input.model.yaml")
    }

    static func diagnose(bytes: [UInt8]) throws -> Pipeline.Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(UUID().uuidString).model.yaml")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return Pipeline.load(url.path)
    }

    static func firstError(_ result: Pipeline.Result) -> Diagnostic? {
        result.diagnostics.first { $0.severity == .error }
    }

    @Test func emptyFileIsAnError() {
        let error = Self.firstError(Self.diagnose(""))
        #expect(error?.message.contains("empty") == true)
    }

    @Test func binaryGarbageIsRejected() throws {
        var generator = SplitMix64(seed: 7)
        let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let error = Self.firstError(try Self.diagnose(bytes: garbage))
        #expect(error != nil)
    }

    @Test func invalidUTF8IsReportedWithItsPosition() throws {
        let bytes = Array("entities:\n  Trip:\n    attributes:\n      name: Str".utf8) + [0xC3, 0x28] + Array("ing\n".utf8)
        let error = try #require(Self.firstError(try Self.diagnose(bytes: bytes)))
        #expect(error.message.contains("UTF-8"))
        #expect(error.location.line == 4)
    }

    @Test func byteOrderMarkAndCRLFLineEndingsAreAccepted() throws {
        let text = "\u{FEFF}entities:\r\n  Trip:\r\n    attributes:\r\n      name: String\r\n"
        let result = try Self.diagnose(bytes: Array(text.utf8))
        #expect(result.diagnostics.isEmpty)
        #expect(result.model?.versions.first?.entities.first?.attributes.first?.name == "name")
    }

    @Test func tenThousandLevelsOfNestingAreRejected() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = Self.firstError(Self.diagnose(text))
        #expect(error?.message.contains("nested more than") == true)
    }

    @Test func deepBlockNestingIsRejected() {
        var text = ""
        for level in 0..<2_000 { text += String(repeating: " ", count: level) + "k:\n" }
        let error = Self.firstError(Self.diagnose(text))
        #expect(error?.message.contains("nested more than") == true)
    }

    @Test func aliasBombIsRejected() {
        var text = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        for level in 1..<12 {
            let previous = Character(Unicode.Scalar(UInt8(97 + level - 1)))
            let name = Character(Unicode.Scalar(UInt8(97 + level)))
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        let error = Self.firstError(Self.diagnose(text))
        #expect(error?.message.contains("alias bomb") == true)
    }

    @Test func recursiveAliasIsRejected() {
        let error = Self.firstError(Self.diagnose("a: &a [*a]\n"))
        #expect(error?.message.contains("recursive") == true)
    }

    @Test func folderThatIsNotAModelIsAnError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = Self.firstError(Pipeline.load(folder.path))
        #expect(error?.message.contains("is a folder") == true)
    }

    @Test func missingPathIsAnError() {
        let error = Self.firstError(Pipeline.load("does/not/exist.model.yaml"))
        #expect(error?.message == "no such file or folder")
        #expect(error?.location.file == "does/not/exist.model.yaml")
    }

    @Test func unreadableFileIsAnError() throws {
        // /proc/self/mem exists but cannot be read as a whole; other systems lack it.
        let path = "/proc/self/mem"
        guard FileManager.default.fileExists(atPath: path) else { return }
        #expect(Self.firstError(Pipeline.load(path)) != nil)
    }

    @Test func tenMegabyteModelIsValidated() {
        var text = "entities:\n"
        var entity = 0
        while text.utf8.count < 10 * 1024 * 1024 {
            text += "  Entity\(entity):\n    attributes:\n"
            for attribute in 0..<20 {
                text += "      attribute\(attribute): { type: String, optional: true, maxLength: 100 }\n"
            }
            text += "    relationships:\n      next: { to: Entity\(entity), inverse: previous }\n"
            text += "      previous: { to: Entity\(entity), inverse: next }\n"
            entity += 1
        }
        let result = Self.diagnose(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.model?.versions.first?.entities.count == entity)
    }
}

/// A small deterministic generator (SplitMix64), so random tests repeat exactly.

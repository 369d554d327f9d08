import Foundation
import ModelCompiler
import Testing

/// `modelgen ship` and the check `validate` makes with what it records.
struct VersionLockTests {
    static let version = """
        entities:
          Trip:
            attributes:
              name: String
              notes: String?

        """

    /// A `.modeld` with versions V1 and V2 (equal) and the given manifest.
    static func model(_ scratch: ScratchFolder, manifest: String) throws -> String {
        try scratch.write("M.modeld/V1.model.yaml", version)
        try scratch.write("M.modeld/V2.model.yaml", version)
        try scratch.write("M.modeld/versions.yaml", manifest)
        return scratch.path("M.modeld")
    }

    static func ship(_ path: String, _ version: String? = nil) throws -> VersionShipping.Outcome {
        let outcome = VersionShipping.ship(path, version: version)
        _ = try OutputFiles.write(outcome.files, under: path)
        return outcome
    }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func shipRewritesOnlyTheShippedEntryAndKeepsCommentsAndOrder() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(
            scratch,
            manifest: """
                # Versions, oldest first.
                versions:
                  - V1   # the first release
                  - V2
                shipped: [V1]  # released in 1.0
                # Keep V2 current until 2.0.
                current: V2

                """)
        let outcome = try Self.ship(path, "V1")
        #expect(!outcome.hasErrors)
        let first = try #require(Pipeline.load(path).model?.versions.first)
        let checksum = LockedVersion(first).checksum
        #expect(
            try Self.read(path + "/versions.yaml") == """
                # Versions, oldest first.
                versions:
                  - V1   # the first release
                  - V2
                shipped:
                  V1: "\(checksum)"
                # Keep V2 current until 2.0.
                current: V2

                """)
        #expect(Pipeline.load(path).diagnostics.isEmpty)
    }

    @Test func shipDefaultsToTheCurrentVersionAndAppendsShippedWhenMissing() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        let outcome = try Self.ship(path)
        #expect(outcome.message?.hasPrefix("recorded 'V2' as shipped") == true)
        let manifest = try Self.read(path + "/versions.yaml")
        #expect(manifest.hasPrefix("versions: [V1, V2]\ncurrent: V2\nshipped:\n  V2: \""))
        #expect(try Self.read(path + "/versions.lock").contains("\nV2:\n  checksum: "))
    }

    @Test func shippingTheSameVersionAgainWritesNothing() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        _ = try Self.ship(path, "V1")
        let again = VersionShipping.ship(path, version: "V1")
        #expect(again.files.isEmpty)
        #expect(again.message?.contains("already shipped") == true)
    }

    @Test func shippingASecondVersionKeepsTheFirstLockEntryByteForByte() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        _ = try Self.ship(path, "V1")
        let first = try Self.read(path + "/versions.lock")
        _ = try Self.ship(path, "V2")
        let both = try Self.read(path + "/versions.lock")
        #expect(both.hasPrefix(first))
        #expect(both.count > first.count)
        #expect(Pipeline.load(path).diagnostics.isEmpty)
    }

    @Test func theLockIsTheSameWhicheverOrderVersionsAreShipped() throws {
        let scratchA = try ScratchFolder()
        let a = try Self.model(scratchA, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        _ = try Self.ship(a, "V1")
        _ = try Self.ship(a, "V2")
        let scratchB = try ScratchFolder()
        let b = try Self.model(scratchB, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        _ = try Self.ship(b, "V2")
        _ = try Self.ship(b, "V1")
        #expect(try Self.read(a + "/versions.lock") == Self.read(b + "/versions.lock"))
        #expect(try Self.read(a + "/versions.yaml") == Self.read(b + "/versions.yaml"))
    }

    @Test func changingAShippedVersionFailsValidationAtItsShippedEntryWithTheChange() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        _ = try Self.ship(path, "V1")
        try scratch.write("M.modeld/V1.model.yaml", Self.version.replacingOccurrences(of: "notes: String?", with: "notes: Integer 32?"))
        let result = Pipeline.load(path)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.location.file.hasSuffix("versions.yaml"))
        #expect(error.message.contains("shipped version 'V1' has changed"))
        #expect(error.message.contains("add a new version"))
        #expect(error.notes.map(\.message) == ["attribute 'Trip.notes': type changed from String to Integer 32"])
        // And `ship` refuses to record over it.
        #expect(VersionShipping.ship(path, version: "V1").hasErrors)
    }

    @Test func shipRefusesSingleFileAndXcodeModelsAndUnknownVersions() throws {
        let scratch = try ScratchFolder()
        let single = try scratch.write("One.model.yaml", Self.version)
        #expect(VersionShipping.ship(single).diagnostics.first?.message.contains("single-file model") == true)
        let xcode = try scratch.writeXcodeModel("X", "<entity name=\"A\" representedClassName=\"A\"/>")
        #expect(VersionShipping.ship(xcode).diagnostics.first?.message.contains("Xcode model") == true)
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        #expect(VersionShipping.ship(path, version: "V3").diagnostics.first?.message.contains("no version 'V3'") == true)
    }

    @Test func shipRefusesAFlowMappingManifestInsteadOfRewritingIt() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "{ versions: [V1, V2], current: V2 }\n")
        let outcome = VersionShipping.ship(path, version: "V1")
        #expect(outcome.hasErrors)
        #expect(outcome.files.isEmpty)
    }

    @Test func aDamagedLockIsALocatedErrorNotACrash() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\nshipped: [V1]\n")
        try scratch.write("M.modeld/versions.lock", "V1:\n  entities: [oops]\n")
        let diagnostics = Pipeline.load(path).diagnostics
        #expect(diagnostics.contains { $0.severity == .error && $0.location.file.hasSuffix("versions.lock") })
    }
}

extension VersionLockTests {
    @Test func shipKeepsCommentsAroundAnIndentedShippedList() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(
            scratch,
            manifest: """
                versions: [V1, V2]
                shipped:
                # released so far
                - V1

                # the next release
                current: V2

                """)
        let outcome = try Self.ship(path, "V2")
        #expect(!outcome.hasErrors)
        let manifest = try Self.read(path + "/versions.yaml")
        #expect(manifest.hasPrefix("versions: [V1, V2]\nshipped:\n  V1: ~\n  V2: \""))
        #expect(manifest.hasSuffix("\"\n\n# the next release\ncurrent: V2\n"))
        // V1 stays shipped without a checksum: a warning until it is shipped too.
        let diagnostics = Pipeline.load(path).diagnostics
        #expect(diagnostics.map(\.severity) == [.warning])
    }
}

extension VersionLockTests {
    @Test func anEmptyLockIsNoLock() throws {
        let scratch = try ScratchFolder()
        let path = try Self.model(scratch, manifest: "versions: [V1, V2]\ncurrent: V2\n")
        try scratch.write("M.modeld/versions.lock", "# nothing shipped yet\n")
        #expect(Pipeline.load(path).diagnostics.isEmpty)
        let outcome = try Self.ship(path, "V1")
        #expect(!outcome.hasErrors)
        #expect(try Self.read(path + "/versions.lock").contains("\nV1:\n  checksum: "))
    }
}

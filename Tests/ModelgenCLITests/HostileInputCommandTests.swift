import Foundation
import Testing

/// Hostile compiled models and Xcode contents end `modelgen` with status 1 and a message naming
/// the problem, never with a crash.
struct HostileInputCommandTests {
    /// A `.momd` folder whose `VersionInfo.plist` holds the given binary property list objects
    /// (one-byte object references).
    static func compiledModel(_ objects: [[UInt8]]) throws -> URL {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, UInt8(objects.count), 0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(UUID().uuidString).momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent("VersionInfo.plist"))
        return folder
    }

    @Test func checksumOfAVersionInfoWithAHugeUIDFails() throws {
        let folder = try Self.compiledModel([[0x87, 0x80, 0, 0, 0, 0, 0, 0, 0]])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = CapturedRun(["checksum", folder.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("UID out of range"))
    }

    @Test func checksumOfAnExponentialVersionInfoFailsQuickly() throws {
        var objects: [[UInt8]] = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x78])
        let folder = try Self.compiledModel(objects)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = CapturedRun(["checksum", folder.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("too large"))
    }

    @Test func checksumOfACyclicVersionInfoFails() throws {
        let folder = try Self.compiledModel([[0xA1, 0x00]])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = CapturedRun(["checksum", folder.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("reference cycle"))
    }

    @Test func validateOfXcodeContentsWithABadAttributeNameFails() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(UUID().uuidString).contents")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Array("<model><entity n".utf8) + [0xFF] + Array("ame=\"X\"/></model>".utf8)).write(to: file)
        let run = CapturedRun(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.errors.contains(":1:17: error:"))
    }
}

import Foundation
import Testing

/// `modelgen inspect-store` run as a process: finished or killed at any moment, it leaves
/// nothing behind, neither beside the store nor in its temporary folder.
struct InspectStoreProcessTests {
    static var executable: URL? { BuiltProducts.executable(named: "modelgen") }

    static func contents(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test(arguments: [nil, 0.0, 0.02, 0.05])
    func inspectStoreLeavesNothingBehind(killAfter delay: Double?) throws {
        let executable = try #require(Self.executable, "the modelgen executable is built next to the tests")
        let folder = try Fixtures.temporaryFolder("process")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storeFolder = folder.appendingPathComponent("store")
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let store = try Fixtures.copyStore("wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite", to: storeFolder)
        let before = try Self.contents(storeFolder)

        let process = Process()
        process.executableURL = executable
        process.arguments = ["inspect-store", store]
        process.environment = ["TMPDIR": temporary.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        if delay == nil { #expect(process.terminationStatus == 0) }
        #expect(try Self.contents(storeFolder) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }
}

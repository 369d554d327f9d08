import Foundation

/// Runs the toolchain's `swiftc` (found on PATH) and returns its exit status and output.
public enum Swiftc {
    public static let objcInteropFlags = [
        "-Xfrontend", "-enable-objc-interop", "-Xfrontend", "-disable-objc-attr-requires-foundation-module",
    ]

    public static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

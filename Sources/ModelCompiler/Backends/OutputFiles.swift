import Foundation

/// Writes generated files under a folder, touching only files whose bytes change, so builds
/// that watch timestamps see no change when there is none.
public enum OutputFiles {
    public struct WriteError: Error, Sendable {
        public let path: String
        public let message: String

        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// Writes each (relative path, bytes) under `folder`; returns the relative paths written.
    @discardableResult
    public static func write(_ files: [(path: String, bytes: [UInt8])], under folder: String) throws(WriteError) -> [String] {
        let fileManager = FileManager.default
        var written: [String] = []
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file.path)
            if let existing = fileManager.contents(atPath: path), [UInt8](existing) == file.bytes { continue }
            do {
                try fileManager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw WriteError(path: path, message: error.localizedDescription)
            }
            written.append(file.path)
        }
        return written
    }
}

import Foundation

/// One file a command writes: a path relative to the output folder and its bytes. Every backend's
/// result reaches the command line as a list of these.
public struct OutputFile: Equatable, Sendable {
    /// Relative to the output folder, `/`-separated; see ``OutputFiles/pathProblem(_:)``.
    public let path: String
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}

/// Writes generated files under a folder, touching only files whose bytes change, so builds
/// that watch timestamps see no change when there is none. Nothing is written outside the
/// folder: every path is checked before the first file is written.
public enum OutputFiles {
    public struct WriteError: Error, Sendable {
        public let path: String
        public let message: String

        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// Why `path` may not name a file inside an output folder, or nil when it may: it must be
    /// relative, and each `/`-separated component a plain file name (not empty, `.` or `..`,
    /// no backslash or NUL).
    public static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") { return "'\(path)' is an absolute path" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if let problem = fileNameProblem(String(component)) { return "'\(path)': \(problem)" }
        }
        return nil
    }

    /// Why `name` is not a plain file name (one path component), or nil when it is.
    public static func fileNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a file name cannot be empty" }
        if name == "." || name == ".." { return "'\(name)' is not a file name" }
        if name.contains("/") { return "a file name cannot contain '/'" }
        if name.contains("\\") { return "a file name cannot contain '\\'" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a file name cannot contain control characters"
        }
        return nil
    }

    /// Checks every path of `files` (a relative path of plain names stays inside the folder) and
    /// that no two name the same file, also on a file system that ignores case; throws for the
    /// first problem.
    public static func checkPaths(_ files: [OutputFile], under folder: String) throws(WriteError) {
        var seen: [String: String] = [:]
        for file in files {
            let full = (folder as NSString).appendingPathComponent(file.path)
            if let problem = pathProblem(file.path) {
                throw WriteError(path: full, message: "refusing to write outside the output folder: \(problem)")
            }
            if let other = seen.updateValue(file.path, forKey: file.path.lowercased()) {
                throw WriteError(
                    path: full,
                    message: "two outputs, '\(other)' and '\(file.path)', would be the same file on a case-insensitive file system")
            }
        }
    }

    /// Writes each file under `folder`; returns the relative paths written.
    @discardableResult
    public static func write(_ files: [OutputFile], under folder: String) throws(WriteError) -> [String] {
        try checkPaths(files, under: folder)
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

    /// What writing `files` and removing `removals` would change under `folder`.
    public struct Changes: Equatable, Sendable {
        public var missing: [String] = []
        public var changed: [String] = []
        public var removed: [String] = []
        public var isEmpty: Bool { missing.isEmpty && changed.isEmpty && removed.isEmpty }
    }

    public static func changes(_ files: [OutputFile], removing removals: [String], under folder: String) -> Changes {
        var changes = Changes()
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file.path)
            guard let existing = FileManager.default.contents(atPath: path) else {
                changes.missing.append(file.path)
                continue
            }
            if [UInt8](existing) != file.bytes { changes.changed.append(file.path) }
        }
        changes.removed = removals
        return changes
    }

    /// Writes `files` (only those whose bytes change), then removes `removals`; every path is
    /// checked first.
    public static func apply(_ files: [OutputFile], removing removals: [String], under folder: String) throws(WriteError) {
        for removal in removals {
            if let problem = pathProblem(removal) {
                throw WriteError(path: (folder as NSString).appendingPathComponent(removal), message: "refusing to remove: \(problem)")
            }
        }
        try write(files, under: folder)
        for removal in removals {
            let path = (folder as NSString).appendingPathComponent(removal)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw WriteError(path: path, message: "cannot remove the stale generated file: \(error.localizedDescription)")
            }
        }
    }
}

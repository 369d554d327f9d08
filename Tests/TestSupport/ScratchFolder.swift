import Foundation

/// A folder under the temporary directory holding small models written by a test.
public final class ScratchFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-checks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// `<name>.xcdatamodeld` with one version whose `<model>` element holds `body`.
    @discardableResult
    public func writeXcodeModel(_ name: String, _ body: String) throws -> String {
        try write(
            "\(name).xcdatamodeld/\(name).xcdatamodel/contents",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(body)
            </model>
            """)
        return path("\(name).xcdatamodeld")
    }

    /// Every file under the folder, relative, sorted.
    public var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var result: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path(next), isDirectory: &isDirectory), !isDirectory.boolValue { result.append(next) }
        }
        return result.sorted()
    }
}

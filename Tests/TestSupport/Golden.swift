import Foundation

/// Golden files: expected output checked in beside the tests. `MODELGEN_UPDATE_GOLDEN=1 swift test`
/// rewrites them from what the code produces now; review the diff before committing.
public enum Golden {
    /// Whether this run rewrites the golden files.
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDEN"] != nil }

    /// The golden file's text, after writing `actual` into it when updating.
    public static func expected(_ actual: String, at url: URL) throws -> String {
        if isUpdating {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

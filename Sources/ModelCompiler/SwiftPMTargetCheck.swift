import Foundation
import ModelSchema

/// A model in a SwiftPM target's folder (`Sources/<Target>/…`) whose target has no Swift file:
/// SwiftPM drops such a target before any plugin runs ("Source files for target Trips should be
/// located under 'Sources/Trips'"), so the build plugin never sees the model and no plugin can
/// say why. `modelgen validate` warns instead, naming the file to add.
public enum SwiftPMTargetCheck {
    /// The warning for the model at `path`, or nil when it is not in a target folder or the
    /// target has a Swift file. The path is taken as given (not resolved).
    public static func warning(forModelAt path: String) -> Diagnostic? {
        var components = (path as NSString).standardizingPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard components.count >= 3 else { return nil }
        components.removeLast()
        // The target folder: the one right under the nearest `Sources` above the model.
        guard let sources = components.lastIndex(of: "Sources"), sources + 1 < components.count else { return nil }
        let target = components[sources + 1]
        let folder = components[...(sources + 1)].joined(separator: "/")
        guard !target.isEmpty, !containsSwiftFile(folder.isEmpty ? "/" : folder) else { return nil }
        let file = "\(folder)/\(target).swift"
        return Diagnostic(
            .warning,
            "target '\(target)' has no Swift file, so SwiftPM drops it before the build plugin runs (\"Source files for target \(target) should be located under 'Sources/\(target)'\"); add one beside the model, such as '\(file)' (an empty file will do)",
            at: .file(path))
    }

    private static func containsSwiftFile(_ folder: String) -> Bool {
        guard let files = FileManager.default.enumerator(atPath: folder) else { return true }
        for case let file as String in files where file.hasSuffix(".swift") { return true }
        return false
    }
}

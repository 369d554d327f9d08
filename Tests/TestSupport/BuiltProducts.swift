import Foundation

/// Executables of this package built next to the tests (`modelgen`, the crash-test children).
public enum BuiltProducts {
    /// The executable named `name` beside the test bundle, or in `.build/debug`; nil when it was not built.
    public static func executable(named name: String) -> URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
            Fixtures.packageRoot.appendingPathComponent(".build/debug"),
        ].compactMap { $0?.appendingPathComponent(name) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

import Foundation

/// Paths of the shared fixtures and of this package, independent of the working directory.
enum Fixtures {
    /// The repository root (three levels above this file: Support/, ModelCompilerTests/, Tests/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static let yamlTestSuite = shared.appendingPathComponent("yaml-test-suite")

    static let golden = packageRoot.appendingPathComponent("Tests/ModelCompilerTests/Golden")

    static let samples = packageRoot.appendingPathComponent("Samples")
}

import Foundation

/// Paths of the fixtures (`Tests/Fixtures`, see its README) and of this package, independent of the working directory.
enum Fixtures {
    /// The repository root (three levels above this file: Support/, ModelCompilerTests/, Tests/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let root = packageRoot.appendingPathComponent("Tests/Fixtures")

    static let yamlTestSuite = root.appendingPathComponent("yaml-test-suite")

    static let golden = packageRoot.appendingPathComponent("Tests/ModelCompilerTests/Golden")

    static let samples = packageRoot.appendingPathComponent("Samples")
}

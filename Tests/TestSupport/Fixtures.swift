import Foundation

/// Paths of the fixtures (`Tests/Fixtures`, see its README) and of this package, independent of
/// the working directory.
public enum Fixtures {
    /// The repository root (above Tests/TestSupport/, where this file is).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Tests/Fixtures`.
    public static let root = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// Models and stores written by Apple's tools (`Tests/Fixtures/coredata`).
    public static let coredata = root.appendingPathComponent("coredata")

    public static let yamlTestSuite = root.appendingPathComponent("yaml-test-suite")

    /// The compiler's golden files (`Tests/ModelCompilerTests/Golden`).
    public static let golden = packageRoot.appendingPathComponent("Tests/ModelCompilerTests/Golden")

    public static let samples = packageRoot.appendingPathComponent("Samples")

    /// The sample model `Samples/Trips/Trips.modeld`.
    public static let tripsModel = samples.appendingPathComponent("Trips/Trips.modeld")

    /// A fresh private temporary folder named after `label`; the caller removes it.
    public static func temporaryFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Copies a fixture store (a path under `coredata`) with its `-wal`/`-shm` files into
    /// `folder`; returns the copy's path.
    public static func copyStore(_ relativePath: String, to folder: URL) throws -> String {
        let source = coredata.appendingPathComponent(relativePath).path
        let destination = folder.appendingPathComponent((relativePath as NSString).lastPathComponent).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
        return destination
    }
}

/// The fixture stores and the model version that wrote each.
public enum FixtureStores {
    public static let sampleModel = "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"
    public static let sampleModel3 = "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld"
    public static let wibosco = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld"
    public static let bookmarks = "duckduckgo-bsk/BookmarksModel.xcdatamodeld"
    public static let syncMetadata = "duckduckgo-bsk/SyncMetadata.xcdatamodeld"

    /// Store → (model, the version that wrote it).
    public static let stores: [String: (model: String, version: String)] = [
        "CoreDataPlus-SampleModel/SampleModel_V1.sqlite": (sampleModel, "SampleModel"),
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite": (sampleModel, "SampleModel2"),
        "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite": (sampleModel3, "SampleModel3"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_1.sqlite": (wibosco, "CoreDataMigration_Example"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite": (wibosco, "CoreDataMigration_Example 2"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_3.sqlite": (wibosco, "CoreDataMigration_Example 3"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite": (wibosco, "CoreDataMigration_Example 4"),
        "duckduckgo-bsk/stores/Bookmarks_V1.sqlite": (bookmarks, "BookmarksModel"),
        "duckduckgo-bsk/stores/Bookmarks_V2.sqlite": (bookmarks, "BookmarksModel 2"),
        "duckduckgo-bsk/stores/Bookmarks_V3.sqlite": (bookmarks, "BookmarksModel 3"),
        "duckduckgo-bsk/stores/Bookmarks_V4.sqlite": (bookmarks, "BookmarksModel 4"),
        "duckduckgo-bsk/stores/Bookmarks_V5.sqlite": (bookmarks, "BookmarksModel 5"),
        "duckduckgo-bsk/stores/SyncMetadata_V3.sqlite": (syncMetadata, "SyncMetadata 3"),
    ]
}

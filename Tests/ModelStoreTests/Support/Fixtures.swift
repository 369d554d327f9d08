import Foundation

/// Paths of the fixtures (`Tests/Fixtures`, see its README), independent of the working directory.
enum Fixtures {
    /// The repository root (three levels above this file: Support/, ModelStoreTests/, Tests/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let coredata = packageRoot.appendingPathComponent("Tests/Fixtures/coredata")

    static let samples = packageRoot.appendingPathComponent("Samples")

    /// A fresh private temporary folder; the caller removes it.
    static func temporaryFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Copies a fixture store with its `-wal`/`-shm` files into `folder`; returns the copy's path.
    static func copyStore(_ relativePath: String, to folder: URL) throws -> String {
        let source = coredata.appendingPathComponent(relativePath).path
        let destination = folder.appendingPathComponent((relativePath as NSString).lastPathComponent).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
        return destination
    }
}

/// A small deterministic generator (SplitMix64), so random tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The fixture stores and the model version that wrote each.
enum FixtureStores {
    static let sampleModel = "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"
    static let sampleModel3 = "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld"
    static let wibosco = "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld"

    /// Store → (model, the version that wrote it).
    static let stores: [String: (model: String, version: String)] = [
        "CoreDataPlus-SampleModel/SampleModel_V1.sqlite": (sampleModel, "SampleModel"),
        "CoreDataPlus-SampleModel/SampleModel_V2.sqlite": (sampleModel, "SampleModel2"),
        "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite": (sampleModel3, "SampleModel3"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_1.sqlite": (wibosco, "CoreDataMigration_Example"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite": (wibosco, "CoreDataMigration_Example 2"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_3.sqlite": (wibosco, "CoreDataMigration_Example 3"),
        "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite": (wibosco, "CoreDataMigration_Example 4"),
    ]
}

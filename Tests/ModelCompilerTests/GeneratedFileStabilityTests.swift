import ModelCompiler
import Testing

/// A generated file changes only when what it declares changes: adding an attribute to one
/// entity rewrites that entity's file and the model file (which names the model checksum), and
/// leaves every other entity's file byte for byte as it was.
struct GeneratedFileStabilityTests {
    static let model = """
        entities:
          Trip:
            attributes:
              name: String
            relationships:
              stops: { to: Stop, toMany: true, inverse: trip }
          Stop:
            attributes:
              title: String
            relationships:
              trip: { to: Trip, inverse: stops }
          Tag:
            attributes:
              label: String
        """

    static func files(_ text: String) throws -> [String: String] {
        let loaded = Pipeline.load(text: text, path: "Trips.model.yaml")
        let model = try #require(loaded.model, "\(loaded.diagnostics)")
        var options = SwiftGenerator.Options()
        options.sourceName = "Trips.model.yaml"
        return Dictionary(uniqueKeysWithValues: try SwiftGenerator.generate(model, options: options).map { ($0.name, $0.contents) })
    }

    @Test func anEditChangesOnlyTheFilesOfWhatItChanges() throws {
        let before = try Self.files(Self.model)
        let after = try Self.files(
            Self.model.replacingOccurrences(of: "      title: String\n", with: "      title: String\n      note: String?\n"))
        #expect(Set(before.keys) == Set(after.keys))
        let changed = Set(before.keys.filter { before[$0] != after[$0] })
        #expect(changed == ["Stop+CoreData.swift", "Trips+Model.swift"])
        #expect(before["Trips+Model.swift"]?.contains("model checksum") == true)
        #expect(before["Tag+CoreData.swift"]?.contains("model checksum") == false)
    }
}

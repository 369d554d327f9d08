#if !canImport(CoreData)
import Foundation
import ModelCompiler
import ModelRuntime
import ModelSchema
import Testing

/// Fetched properties written in a YAML model reach the runtime through the compiled `.mom`: the
/// loaded entity has an `NSFetchedPropertyDescription` whose request fetches the destination with
/// the archived predicate, and reading it on an object runs that request.
struct CompiledFetchedPropertyTests {
    static let modelText = """
        entities:
          Folder:
            attributes:
              name: String
            relationships:
              notes: { to: Note, toMany: true, inverse: folder }
            fetchedProperties:
              starred: { entity: Note, predicate: "folder == $FETCH_SOURCE AND rating >= 4 AND title BEGINSWITH[c] \\"s\\"" }
              sameName: { entity: Note, predicate: "title == $FETCH_SOURCE.name" }
          Note:
            attributes:
              title: String
              rating: Integer 16
            relationships:
              folder: { to: Folder, inverse: notes }
        """

    static func model() throws -> NSManagedObjectModel {
        let loaded = Pipeline.load(text: modelText, path: "Fetched.model.yaml")
        let version = try #require(loaded.model?.versions.first, "\(loaded.diagnostics)")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-fetched-\(UUID().uuidString).mom")
        try Data(CompiledModel.mom(for: version)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try #require(NSManagedObjectModel(contentsOf: url))
    }

    @Test func aLoadedFetchedPropertyHasItsRequest() throws {
        let model = try Self.model()
        let folder = try #require(model.entitiesByName["Folder"])
        let starred = try #require(folder.propertiesByName["starred"] as? NSFetchedPropertyDescription)
        #expect(starred.fetchRequest?.entity === model.entitiesByName["Note"])
        #expect(
            starred.fetchRequest?.predicate?.predicateFormat
                == #"(folder == $FETCH_SOURCE AND rating >= 4) AND title BEGINSWITH[c] "s""#)
        #expect(folder.attributesByName.keys.sorted() == ["name"])
    }

    @Test func readingALoadedFetchedPropertyRunsItsRequest() throws {
        let (_, context) = try EngineTestModel.stack(model: Self.model())
        try context.performAndWait {
            let work = EngineTestModel.insert("Folder", into: context, ["name": "sun"])
            let other = EngineTestModel.insert("Folder", into: context, ["name": "other"])
            for (title, rating, folder) in [("sun", 5, work), ("Stars", 4, work), ("sky", 2, work), ("sea", 5, other)] {
                let note = EngineTestModel.insert("Note", into: context, ["title": title, "rating": NSNumber(value: rating)])
                note.setValue(folder, forKey: "folder")
            }
            try context.save()
            let starred = (work.value(forKey: "starred") as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "title") as? String }
            #expect(starred.sorted() == ["Stars", "sun"])
            let same = (work.value(forKey: "sameName") as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "title") as? String }
            #expect(same == ["sun"])
        }
    }
}
#endif

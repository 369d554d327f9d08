import Foundation
import ModelCompiler
import ModelSchema
import ModelStore
import Testing

/// Every version of every fixture model (with or without a store, composites included) gets a
/// schema SQLite accepts, and the created store has no differences from its own layout.
struct StoreSchemaConsistencyTests {
    static let models = [
        FixtureStores.sampleModel, FixtureStores.sampleModel3, FixtureStores.wibosco,
        "composite-xml/phimage-MomXML-Tests-Model.contents", "composite-xml/fatbobman-CoreDataEvolution-GeneratedFlowModel.contents",
    ]

    @Test(arguments: models)
    func everyFixtureVersionCreatesAConsistentStore(_ modelPath: String) throws {
        let result = Pipeline.load(Fixtures.coredata.appendingPathComponent(modelPath).path)
        let model = try #require(result.model)
        let folder = try Fixtures.temporaryFolder("consistency")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (offset, version) in model.versions.enumerated() {
            let layout = StoreLayout(version)
            let connection = try StoreSchema.create(
                at: folder.appendingPathComponent("\(offset).sqlite").path, version: version, layout: layout)
            #expect(try StoreSchema.existingLayout(of: connection, version: version).differences == [], "\(version.name)")
            for entity in layout.entities {
                let table = layout.table(of: entity)
                #expect(table.entityNumbers.contains(entity.entityNumber))
                for property in entity.properties {
                    switch property.storage {
                    case .column(let index): #expect(index >= 3 && index < table.columns.count)
                    case .composite(let indexes): #expect(!indexes.isEmpty && indexes.allSatisfy { $0 >= 3 && $0 < table.columns.count })
                    case .toOne(let key, _, _): #expect(key >= 3 && key < table.columns.count)
                    case .joinTable(let index): #expect(index < layout.joinTables.count)
                    case .none, .inverseOfToOne: break
                    }
                }
            }
        }
    }
}

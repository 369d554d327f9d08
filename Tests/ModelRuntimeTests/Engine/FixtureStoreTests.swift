#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Stores Apple's Core Data wrote open with the model version that wrote them, and every row
/// reads back as an object whose values have the attribute's type and whose relationships
/// resolve to objects of the destination entity, inverses agreeing.
struct FixtureStoreTests {
    static let coredata = Fixtures.coredata

    struct Case: Sendable, CustomStringConvertible {
        let model: String
        let store: String
        var description: String { store }
    }

    static let cases: [Case] =
        [
            Case(model: "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", store: "CoreDataPlus-SampleModel/SampleModel_V1.sqlite"),
            Case(model: "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld", store: "CoreDataPlus-SampleModel/SampleModel_V2.sqlite"),
            Case(model: "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld", store: "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite"),
        ]
        + ["1", "2", "3", "WAL"].map {
            Case(
                model: "wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld",
                store: "wibosco-CoreDataMigration-Example/CoreDataMigration_Example_\($0).sqlite")
        }
        + ["1", "2", "3", "4", "5"].map {
            Case(model: "duckduckgo-bsk/BookmarksModel.xcdatamodeld", store: "duckduckgo-bsk/stores/Bookmarks_V\($0).sqlite")
        }
        + [Case(model: "duckduckgo-bsk/SyncMetadata.xcdatamodeld", store: "duckduckgo-bsk/stores/SyncMetadata_V3.sqlite")]

    /// Copies the store and its `-wal`/`-shm` into `folder`.
    static func copy(_ store: URL, into folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: target.path + suffix)
        }
        return target
    }

    /// The model version whose hashes the store recorded, loaded from the `.mom` modelgen compiles.
    static func writingModel(_ modelPath: String, metadata: [String: Any], folder: URL) throws -> NSManagedObjectModel? {
        let model = try #require(Pipeline.load(modelPath).model)
        for version in model.versions.reversed() {
            let url = folder.appendingPathComponent("\(version.name).mom")
            try Data(CompiledModel.mom(for: version)).write(to: url)
            if let loaded = NSManagedObjectModel(contentsOf: url),
                loaded.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
            {
                return loaded
            }
        }
        return nil
    }

    static func hasExpectedType(_ value: Any, _ type: NSAttributeType) -> Bool {
        switch type {
        case .integer16AttributeType: value is Int16
        case .integer32AttributeType: value is Int32
        case .integer64AttributeType: value is Int64
        case .booleanAttributeType: value is Bool
        case .doubleAttributeType: value is Double
        case .floatAttributeType: value is Float
        case .decimalAttributeType: value is Decimal
        case .stringAttributeType: value is String
        case .dateAttributeType: value is Date
        case .UUIDAttributeType: value is UUID
        case .URIAttributeType: value is URL
        case .binaryDataAttributeType, .transformableAttributeType: value is Data
        default: true
        }
    }

    @Test(arguments: cases)
    func everyRowOfAnAppleWrittenStoreReadsBack(_ fixture: Case) throws {
        let folder = EngineTestModel.Folder()
        let store = try Self.copy(Self.coredata.appendingPathComponent(fixture.store), into: folder.url)
        let rowCounts = Dictionary(
            uniqueKeysWithValues: try StoreInspector.inspect(store.path).entityTables.map { ($0.entityName, $0.rowCount) })
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
        let model = try #require(
            try Self.writingModel(Self.coredata.appendingPathComponent(fixture.model).path, metadata: metadata, folder: folder.url))
        let (_, context) = try EngineTestModel.stack(model: model, url: store)
        var links = 0
        var rows = 0
        try context.performAndWait { () throws in
            for entity in model.entities {
                let name = try #require(entity.name)
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.includesSubentities = false
                let objects = try context.fetch(request)
                // Z_PRIMARYKEY may name a renamed entity by its renaming identifier.
                #expect(objects.count == rowCounts[name] ?? rowCounts[entity.renamingIdentifier ?? ""] ?? 0, "\(name)")
                rows += objects.count
                for object in objects {
                    #expect(object.entity === entity)
                    for (key, attribute) in entity.attributesByName where !attribute.isTransient {
                        guard let value = object.value(forKey: key) else { continue }
                        #expect(Self.hasExpectedType(value, attribute.attributeType), "\(name).\(key): \(type(of: value))")
                    }
                    for (key, relationship) in entity.relationshipsByName where !relationship.isTransient {
                        let destination = try #require(relationship.destinationEntity)
                        let related: [NSManagedObject]
                        if relationship.isToMany {
                            let value = object.value(forKey: key)
                            related =
                                ((value as? NSSet)?.allObjects ?? (value as? NSOrderedSet)?.array ?? []).compactMap {
                                    $0 as? NSManagedObject
                                }
                        } else {
                            related = [object.value(forKey: key) as? NSManagedObject].compactMap { $0 }
                        }
                        for other in related {
                            links += 1
                            #expect(other.entity.isKindOf(entity: destination), "\(name).\(key)")
                            #expect(!other.isDeleted && other.managedObjectContext === context)
                            if let inverse = relationship.inverseRelationship {
                                let back = other.value(forKey: inverse.name)
                                let contains =
                                    (back as? NSManagedObject) === object || (back as? NSSet)?.contains(object) == true
                                    || (back as? NSOrderedSet)?.contains(object) == true
                                #expect(contains, "\(name).\(key) ↔ \(inverse.name)")
                            }
                        }
                    }
                }
            }
        }
        #expect(rows == rowCounts.values.reduce(0, +))
        if fixture.store.contains("SampleModel_V1") || fixture.store.contains("Bookmarks") { #expect(links > 0) }
    }
}
#endif

#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Derived attributes are computed by the store's triggers, as Core Data's are: new stores get
/// the triggers, and a save gives the saved objects the values the store computed.
struct DerivedAttributeTests {
    static let modelText = """
        entities:
          Trip:
            attributes:
              name: String
              lowerName: { type: String?, derived: "lowercase:(name)" }
              stopCount: { type: Integer 64?, derived: stops.@count }
              tagCount: { type: Integer 64?, derived: tags.@count }
              total: { type: Double?, derived: stops.@sum.cost }
              touched: { type: Date?, derived: now() }
            relationships:
              stops: { to: Stop, toMany: true, inverse: trip, deleteRule: cascade }
              tags: { to: Tag, toMany: true, inverse: trips }
          Stop:
            attributes:
              cost: Double
              tripName: { type: String?, derived: trip.name }
            relationships:
              trip: { to: Trip, inverse: stops }
          Tag:
            attributes:
              label: String
            relationships:
              trips: { to: Trip, toMany: true, inverse: tags }
        """

    static func version() throws -> ModelVersion {
        let loaded = Pipeline.load(text: modelText, path: "Derived.model.yaml")
        return try #require(loaded.model?.versions.first, "\(loaded.diagnostics)")
    }

    static func stack(_ folder: URL) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let url = folder.appendingPathComponent("Derived.mom")
        if !FileManager.default.fileExists(atPath: url.path) { try Data(CompiledModel.mom(for: version())).write(to: url) }
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        return try EngineTestModel.stack(model: model, url: folder.appendingPathComponent("Derived.sqlite"))
    }

    static func folder() throws -> URL {
        try Fixtures.temporaryFolder("derived")
    }

    @Test func newStoresGetCoreDatasTriggers() throws {
        let version = try Self.version()
        let layout = StoreLayout(version)
        #expect(DerivedAttributeTriggers.unsupported(version, layout: layout).isEmpty)
        let statements = DerivedAttributeTriggers.statements(for: version, layout: layout)
        let names = statements.compactMap { $0.split(separator: " ").dropFirst(5).first.map(String.init) }
        let join = try #require(layout.joinTables.first?.name)
        let expected: [String] = [
            "Z_DA_ZTRIP_Trip_lowerName_INSERT", "Z_DA_ZTRIP_Trip_lowerName_UPDATE",
            "Z_DA_ZSTOP_Trip_stopCount_PARAMETER_INSERT", "Z_DA_ZSTOP_Trip_stopCount_PARAMETER_UPDATE_INCREMENT",
            "Z_DA_ZSTOP_Trip_stopCount_PARAMETER_UPDATE_DECREMENT", "Z_DA_ZSTOP_Trip_stopCount_PARAMETER_DELETE",
            "Z_DA_ZTRIP_Trip_stopCount_SOURCE_INSERT",
            "Z_DA_\(join)_Trip_tagCount_PARAMETER_INSERT", "Z_DA_\(join)_Trip_tagCount_PARAMETER_DELETE",
            "Z_DA_ZTRIP_Trip_tagCount_SOURCE_INSERT",
            "Z_DA_ZSTOP_Trip_total_PARAMETER_INSERT", "Z_DA_ZSTOP_Trip_total_PARAMETER_UPDATE_INCREMENT",
            "Z_DA_ZSTOP_Trip_total_PARAMETER_UPDATE_DECREMENT", "Z_DA_ZSTOP_Trip_total_PARAMETER_DELETE",
            "Z_DA_ZTRIP_Trip_total_SOURCE_INSERT",
            "Z_DA_ZTRIP_Trip_touched_INSERT", "Z_DA_ZTRIP_Trip_touched_UPDATE",
            "Z_DA_ZSTOP_Stop_tripName_SOURCE_INSERT", "Z_DA_ZSTOP_Stop_tripName_SOURCE_UPDATE",
            "Z_DA_ZTRIP_Stop_tripName_PARAMETER_INSERT", "Z_DA_ZTRIP_Stop_tripName_PARAMETER_UPDATE",
        ]
        #expect(names == expected)
        let firstStatement = [
            "CREATE TRIGGER IF NOT EXISTS Z_DA_ZTRIP_Trip_lowerName_INSERT AFTER INSERT ON ZTRIP FOR EACH ROW WHEN (NEW.ZNAME NOT NULL)",
            " BEGIN UPDATE ZTRIP SET ZLOWERNAME = NSCoreDataToLower(NEW.ZNAME) WHERE Z_PK = NEW.Z_PK;",
            " SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZTRIP', Z_ENT, Z_PK, 'lowerName', ZLOWERNAME)",
            " FROM ZTRIP WHERE Z_PK = NEW.Z_PK; END",
        ].joined()
        #expect(statements.first == firstStatement)
        let nowUpdate = "AFTER UPDATE OF Z_OPT ON ZTRIP FOR EACH ROW BEGIN UPDATE ZTRIP SET ZTOUCHED = NSCoreDataNow()"
        #expect(statements.first { $0.contains("Trip_touched_UPDATE") }?.contains(nowUpdate) == true)

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = try StoreSchema.create(at: folder.appendingPathComponent("s.sqlite").path, version: version, layout: layout)
        let stored = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid").compactMap {
            $0[0].textValue
        }
        #expect(stored == names)
    }

    @Test func aSaveGivesObjectsTheValuesTheStoreComputed() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, context) = try Self.stack(folder)
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Paris Days"])
            let first = EngineTestModel.insert("Stop", into: context, ["cost": 1.5, "trip": trip])
            _ = EngineTestModel.insert("Stop", into: context, ["cost": 2.5, "trip": trip])
            let tag = EngineTestModel.insert("Tag", into: context, ["label": "city"])
            trip.mutableSetValue(forKey: "tags").add(tag)
            try context.save()
            #expect(trip.value(forKey: "lowerName") as? String == "paris days")
            #expect(trip.value(forKey: "stopCount") as? Int64 == 2)
            #expect(trip.value(forKey: "tagCount") as? Int64 == 1)
            #expect(trip.value(forKey: "total") as? Double == 4.0)
            let touched = try #require(trip.value(forKey: "touched") as? Date)
            #expect(abs(touched.timeIntervalSinceNow) < 60)
            #expect(!trip.hasChanges && !context.hasChanges)
            #expect(first.value(forKey: "tripName") as? String == "Paris Days")

            context.delete(first)
            trip.setValue("Rome", forKey: "name")
            try context.save()
            #expect(trip.value(forKey: "stopCount") as? Int64 == 1)
            #expect(trip.value(forKey: "total") as? Double == 2.5)
            #expect(trip.value(forKey: "lowerName") as? String == "rome")
            #expect((trip.value(forKey: "touched") as? Date ?? .distantPast) >= touched)
            let remaining = trip.value(forKey: "stops") as? Set<NSManagedObject> ?? []
            #expect(remaining.map { $0.value(forKey: "tripName") as? String } == ["Rome"])
        }

        // A new stack reads the stored values.
        let (_, reader) = try Self.stack(folder)
        try reader.performAndWait {
            let trip = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            #expect(trip.value(forKey: "stopCount") as? Int64 == 1)
            #expect(trip.value(forKey: "tagCount") as? Int64 == 1)
            #expect(trip.value(forKey: "total") as? Double == 2.5)
            #expect(trip.value(forKey: "lowerName") as? String == "rome")
        }
    }

    @Test func movingAStopBetweenTripsUpdatesBothCounts() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, context) = try Self.stack(folder)
        try context.performAndWait {
            let one = EngineTestModel.insert("Trip", into: context, ["name": "One"])
            let two = EngineTestModel.insert("Trip", into: context, ["name": "Two"])
            let stop = EngineTestModel.insert("Stop", into: context, ["cost": 3.0, "trip": one])
            try context.save()
            #expect(one.value(forKey: "stopCount") as? Int64 == 1)
            #expect(two.value(forKey: "stopCount") as? Int64 == 0)
            stop.setValue(two, forKey: "trip")
            try context.save()
            #expect(one.value(forKey: "stopCount") as? Int64 == 0)
            #expect(one.value(forKey: "total") as? Double == 0)
            #expect(two.value(forKey: "stopCount") as? Int64 == 1)
            #expect(two.value(forKey: "total") as? Double == 3.0)
            #expect(stop.value(forKey: "tripName") as? String == "Two")
        }
    }
}
#endif

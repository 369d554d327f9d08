#if !canImport(CoreData)
import ModelCompiler
import ModelRuntime
import ModelSchema
import ModelStore
import Testing

/// Every store Apple's Core Data wrote in the fixtures, opened with the model version that wrote
/// it: every value reads back as the file holds it, a read-only open changes no byte, and a save
/// into it (inserts, updates and deletes over attributes, to-ones, to-manys, ordered and
/// many-to-many relationships) leaves rows that read back equal, with `Z_OPT`, `Z_MAX` and the
/// `Z_FOK_` order columns as Core Data keeps them.
struct AppleStoreRoundTripTests {
    typealias Case = FixtureStoreTests.Case

    /// The store copied into a fresh folder, and the version and model that wrote it.
    struct Opened {
        let folder: EngineTestModel.Folder
        let url: URL
        let version: ModelVersion
        let model: NSManagedObjectModel
    }

    static func open(_ fixture: Case) throws -> Opened {
        let folder = EngineTestModel.Folder()
        let url = try FixtureStoreTests.copy(Fixtures.coredata.appendingPathComponent(fixture.store), into: folder.url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let stored = try #require(StoreModelMatch.entityHashes(inMetadata: metadata))
        let model = try #require(Pipeline.load(Fixtures.coredata.appendingPathComponent(fixture.model).path).model)
        let version = try #require(model.versions.first { VersionHashes($0).entityHashes == stored }, "no version wrote \(fixture)")
        let momURL = folder.url.appendingPathComponent("\(version.name).mom")
        try Data(CompiledModel.mom(for: version)).write(to: momURL)
        let managedObjectModel = try #require(NSManagedObjectModel(contentsOf: momURL))
        return Opened(folder: folder, url: url, version: version, model: managedObjectModel)
    }

    /// The value a column holds, as Core Data gives it for the attribute's type.
    static func decoded(_ value: SQLiteValue, _ type: NSAttributeType) -> String {
        if case .null = value { return "nil" }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return "\(value.integerValue ?? 0)"
        case .booleanAttributeType: return "\((value.integerValue ?? 0) != 0)"
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            return "\(value.real ?? value.integerValue.map(Double.init) ?? .nan)"
        case .dateAttributeType: return "\(Date(timeIntervalSinceReferenceDate: value.real ?? 0).timeIntervalSinceReferenceDate)"
        case .stringAttributeType, .URIAttributeType: return value.textValue ?? "?"
        case .UUIDAttributeType:
            guard let bytes = value.blobValue, bytes.count == 16 else { return "?" }
            return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString
        default: return "\(value.blobValue ?? [])"
        }
    }

    /// An attribute's value as the runtime gives it, in the form of ``decoded(_:_:)``.
    static func described(_ value: Any?, _ type: NSAttributeType) -> String {
        guard let value else { return "nil" }
        switch value {
        case let number as Bool where type == .booleanAttributeType: return "\(number)"
        case let number as Int16: return "\(number)"
        case let number as Int32: return "\(number)"
        case let number as Int64: return "\(number)"
        case let number as Double: return "\(number)"
        case let number as Float: return "\(Double(number))"
        case let number as Decimal: return "\(NSDecimalNumber(decimal: number).doubleValue)"
        case let date as Date: return "\(date.timeIntervalSinceReferenceDate)"
        case let string as String: return string
        case let url as URL: return url.absoluteString
        case let uuid as UUID: return uuid.uuidString
        case let data as Data: return "\([UInt8](data))"
        default: return "\(value)"
        }
    }

    @Test(arguments: FixtureStoreTests.cases)
    func everyValueReadsBackAsTheFileHoldsIt(_ fixture: Case) throws {
        let opened = try Self.open(fixture)
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
        let layout = try StoreSchema.existingLayout(of: raw, version: opened.version).layout
        var compared = 0
        try context.performAndWait { () throws in
            for entityLayout in layout.entities {
                let entity = try #require(opened.model.entitiesByName[entityLayout.name])
                let table = layout.table(of: entityLayout)
                let request = NSFetchRequest<NSManagedObject>(entityName: entityLayout.name)
                request.includesSubentities = false
                let objects = Dictionary(
                    uniqueKeysWithValues: try context.fetch(request).map { (Self.primaryKey(of: $0), $0) })
                let rows = try raw.rows(
                    "SELECT Z_PK, \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name) WHERE Z_ENT = \(entityLayout.entityNumber)"
                )
                #expect(rows.count == objects.count, "\(entityLayout.name)")
                for row in rows {
                    let object = try #require(objects[row[0].integerValue ?? 0], "\(entityLayout.name) \(row[0])")
                    for property in entityLayout.properties {
                        switch property.storage {
                        case .column(let index):
                            let attribute = try #require(entity.attributesByName[property.name])
                            guard attribute.attributeType != .transformableAttributeType else { continue }
                            #expect(
                                Self.described(object.value(forKey: property.name), attribute.attributeType)
                                    == Self.decoded(row[index + 1], attribute.attributeType), "\(entityLayout.name).\(property.name)")
                            compared += 1
                        case .toOne(let key, _, _):
                            let related = object.value(forKey: property.name) as? NSManagedObject
                            #expect(related.map(Self.primaryKey) == row[key + 1].integerValue, "\(entityLayout.name).\(property.name)")
                            compared += 1
                        default: continue
                        }
                    }
                }
            }
        }
        #expect(compared > 0)
    }

    @Test(arguments: FixtureStoreTests.cases)
    func aReadOnlyOpenChangesNoByte(_ fixture: Case) throws {
        let opened = try Self.open(fixture)
        let before = try StoreFiles(opened.url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: opened.model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: opened.url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var count = 0
        try context.performAndWait { () throws in
            for entity in opened.model.entities where entity.superentity == nil {
                count += try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.name ?? ""))
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")) {
                    _ = object.committedValues(forKeys: nil)
                }
            }
        }
        #expect(count > 0)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        #expect(try StoreFiles(opened.url).database == before.database)
        #expect(try StoreFiles(opened.url).log == before.log)
    }

    @Test(arguments: FixtureStoreTests.cases)
    func aSaveIntoAnAppleStoreReadsBackEqual(_ fixture: Case) throws {
        let opened = try Self.open(fixture)
        var expected: [String: [String: String]] = [:]
        var updatedKeys: [(table: String, key: Int64, opt: Int64)] = []
        do {
            let (coordinator, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
            let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
            let layout = try StoreSchema.existingLayout(of: raw, version: opened.version).layout
            try context.performAndWait { () throws in
                let updated = try StoreChanges.apply(to: context, model: opened.model)
                for object in updated {
                    let entity = try #require(layout.entity(named: object.entity.name ?? ""))
                    let table = layout.table(of: entity).name
                    let key = Self.primaryKey(of: object)
                    let opt = try #require(try raw.rows("SELECT Z_OPT FROM \(table) WHERE Z_PK = \(key)").first?.first?.integerValue)
                    updatedKeys.append((table, key, opt))
                }
                try context.save()
                expected = try Self.snapshot(context, opened.model)
            }
            #expect(!updatedKeys.isEmpty)
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        let reread = try context.performAndWait { try Self.snapshot(context, opened.model) }
        #expect(reread.count == expected.count)
        for (uri, values) in expected { #expect(reread[uri] == values, "\(uri)") }
        try Self.expectBookkeeping(at: opened, updated: updatedKeys)
    }

    /// `Z_OPT` one more for each updated row, 1 for inserted ones; every root's `Z_MAX` at least its
    /// largest key; every ordered relationship's order column increasing along its order.
    static func expectBookkeeping(at opened: Opened, updated: [(table: String, key: Int64, opt: Int64)]) throws {
        let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
        let layout = try StoreSchema.existingLayout(of: raw, version: opened.version).layout
        for row in updated {
            let opt = try raw.rows("SELECT Z_OPT FROM \(row.table) WHERE Z_PK = \(row.key)").first?.first?.integerValue
            #expect(opt == row.opt + 1, "\(row.table) \(row.key)")
        }
        for table in layout.tables {
            let largest = try raw.rows("SELECT MAX(Z_PK) FROM \(table.name)").first?.first?.integerValue ?? 0
            let maximum = try raw.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(table.rootEntityNumber)").first?.first?.integerValue
            #expect((maximum ?? 0) >= largest, "\(table.name)")
            for column in table.columns {
                guard case .order(_, let property) = column.role,
                    let key = table.columns.first(where: { $0.role == .foreignKey(entity: column.roleEntity, property: property) })
                else { continue }
                let rows = try raw.rows("SELECT \(key.name), \(column.name) FROM \(table.name) WHERE \(key.name) IS NOT NULL")
                let byOwner = Dictionary(grouping: rows, by: { $0[0].integerValue ?? 0 }).mapValues { $0.map { $0[1].integerValue } }
                for (owner, orders) in byOwner {
                    #expect(!orders.contains(nil), "\(table.name).\(column.name) of \(owner)")
                    #expect(Set(orders).count == orders.count, "\(table.name).\(column.name) of \(owner)")
                }
            }
        }
        for joinTable in layout.joinTables {
            for order in joinTable.orderColumns {
                #expect(try raw.rows("SELECT COUNT(*) FROM \(joinTable.name) WHERE \(order) IS NULL").first?.first?.integerValue == 0)
            }
        }
    }

    static func primaryKey(of object: NSManagedObject) -> Int64 {
        Int64(object.objectID.uriRepresentation().lastPathComponent.dropFirst()) ?? 0
    }

    /// Every object of the store by URI, with each stored property's value as text (related
    /// objects by URI; a to-many's in its order when ordered, sorted otherwise).
    static func snapshot(_ context: NSManagedObjectContext, _ model: NSManagedObjectModel) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for entity in model.entities where entity.superentity == nil {
            for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")) {
                var values: [String: String] = [:]
                for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
                    values[name] = described(object.value(forKey: name), attribute.attributeType)
                }
                for (name, relationship) in object.entity.relationshipsByName where !relationship.isTransient {
                    let value = object.value(forKey: name)
                    let related: [String]
                    if let ordered = value as? NSOrderedSet {
                        related = ordered.array.compactMap { ($0 as? NSManagedObject)?.objectID.uriRepresentation().absoluteString }
                    } else if let set = value as? NSSet {
                        related = set.allObjects.compactMap { ($0 as? NSManagedObject)?.objectID.uriRepresentation().absoluteString }
                            .sorted()
                    } else {
                        related = [(value as? NSManagedObject)?.objectID.uriRepresentation().absoluteString ?? "nil"]
                    }
                    values[name] = related.joined(separator: ",")
                }
                result[object.objectID.uriRepresentation().absoluteString] = values
            }
        }
        return result
    }
}

/// The bytes of a store's database file and write-ahead log.
struct StoreFiles: Equatable {
    let database: Data
    let log: Data?

    init(_ url: URL) throws {
        database = try Data(contentsOf: url)
        log = FileManager.default.contents(atPath: url.path + "-wal")
    }
}

extension SQLiteValue {
    var real: Double? { if case .real(let value) = self { value } else { nil } }
}

extension StoreLayout.Column {
    /// The entity a column's role names.
    var roleEntity: String {
        switch role {
        case .attribute(let entity, _, _), .foreignKey(let entity, _), .foreignEntity(let entity, _), .order(let entity, _): entity
        default: ""
        }
    }
}
#endif

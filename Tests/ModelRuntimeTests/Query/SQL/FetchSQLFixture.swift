#if !canImport(CoreData)
import ModelRuntime
import ModelSchema
import ModelStore

/// A stored object loaded for in-memory evaluation: its values by property name (to-ones as
/// objects, to-manys as arrays), comparing by its row as managed objects do.
final class StoredObject: KeyValueReadable, StoreRowReferencing, PredicateComparableValue, CustomStringConvertible {
    let row: StoreRow
    let entityName: String
    var values: [String: Any] = [:]

    init(row: StoreRow, entityName: String) {
        self.row = row
        self.entityName = entityName
    }

    func value(forKey key: String) -> Any? { values[key] }
    var storeRow: StoreRow? { row }
    var predicateComparisonValue: Any { row }
    var predicateFormatDescription: String { "\(entityName)#\(row.primaryKey)" }
    var description: String { predicateFormatDescription }
}

/// A store of the test model (inheritance, to-one, one-to-many ordered, many-to-many, a
/// composite attribute, every scalar attribute type, an indexed attribute) filled with
/// pseudo-random rows by plain SQL, and the same objects in memory.
final class FetchSQLFixture {
    static let version = ModelVersion(
        name: "Fetch",
        entities: [
            Entity(
                name: "Item",
                attributes: [
                    optional("name", .string), optional("count", .integer32), optional("score", .double), optional("weight", .float),
                    optional("price", .decimal), optional("flag", .boolean), optional("born", .date), optional("ident", .uuid),
                    optional("blob", .binaryData), optional("link", .uri),
                    Attribute(name: "serial", type: .integer64, isIndexed: true),
                    Attribute(name: "note", type: .string, isOptional: true, isTransient: true),
                ],
                relationships: [
                    Relationship(name: "owner", destinationName: "Person", inverseName: "items"),
                    Relationship(name: "tags", destinationName: "Tag", isToMany: true, inverseName: "items"),
                    Relationship(name: "parts", destinationName: "Part", isToMany: true, isOrdered: true, inverseName: "item"),
                ]),
            Entity(name: "Special", parentName: "Item", attributes: [optional("level", .integer16)]),
            Entity(
                name: "Person",
                attributes: [optional("name", .string), optional("age", .integer16), optional("location", .composite("Point"))],
                relationships: [Relationship(name: "items", destinationName: "Item", isToMany: true, inverseName: "owner")]),
            Entity(
                name: "Tag", attributes: [optional("label", .string)],
                relationships: [Relationship(name: "items", destinationName: "Item", isToMany: true, inverseName: "tags")]),
            Entity(
                name: "Part", attributes: [optional("amount", .integer32)],
                relationships: [Relationship(name: "item", destinationName: "Item", inverseName: "parts")]),
        ],
        composites: [CompositeType(name: "Point", attributes: [optional("latitude", .double), optional("longitude", .double)])])

    static func optional(_ name: String, _ type: AttributeType) -> Attribute {
        Attribute(name: name, type: type, isOptional: true)
    }

    static let strings = ["alpha", "Alpha", "ALPHA", "beta", "Béta", "gamma", "delta", "éclair", "zeta", "", "a*b", "theta"]
    static let dates = (0..<6).map { Date(timeIntervalSinceReferenceDate: Double(700_000_000 + $0 * 86_400)) }
    static let uuids = (0..<4).map { UUID(uuidString: "0000000\($0)-1111-2222-3333-44445555666\($0)")! }
    static let blobs = [Data([1, 2]), Data([1, 2, 3]), Data([9]), Data()]
    static let links = ["https://example.com/a", "https://example.com/b", "file:///tmp/c"].map { URL(string: $0)! }

    let layout: StoreLayout
    let connection: StoreConnection
    let path: String
    /// Objects of each entity (exactly that entity), in primary key order.
    private(set) var objects: [String: [StoredObject]] = [:]

    init(seed: UInt64 = 2026) throws {
        layout = StoreLayout(Self.version)
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fetchsql-\(UUID().uuidString).sqlite").path
        connection = try StoreSchema.create(at: path, version: Self.version, layout: layout)
        var random = SeededGenerator(seed: seed)
        try fill(&random)
    }

    deinit {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func entity(_ name: String) -> StoreLayout.EntityLayout { layout.entity(named: name)! }

    /// Every object of `entity` (and its sub-entities when asked), in primary key order.
    func objects(of entity: String, includingSubentities: Bool) -> [StoredObject] {
        let numbers =
            includingSubentities ? self.entity(entity).entityNumbers : self.entity(entity).entityNumber...self.entity(entity).entityNumber
        return numbers.flatMap { objects[layout.entity(number: $0)!.name] ?? [] }.sorted { $0.row.primaryKey < $1.row.primaryKey }
    }

    // MARK: Filling

    /// nil one time in five, else a value made from the generator.
    private func maybe<T>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> T? {
        Int.random(in: 0..<5, using: &random) == 0 ? nil : make(&random)
    }

    private func stored(_ value: Any?) -> SQLiteValue {
        switch value {
        case nil: return .null
        case let v as String: return .text(v)
        case let v as Int: return .integer(Int64(v))
        case let v as Bool: return .integer(v ? 1 : 0)
        case let v as Double: return .real(v)
        case let v as Decimal: return .real(NSDecimalNumber(decimal: v).doubleValue)
        case let v as Date: return .real(v.timeIntervalSinceReferenceDate)
        case let v as UUID: return .blob(withUnsafeBytes(of: v.uuid) { Array($0) })
        case let v as Data: return .blob(Array(v))
        case let v as URL: return .text(v.absoluteString)
        default: fatalError("unexpected value \(String(describing: value))")
        }
    }

    /// Inserts a row: `values` by property name (attributes, composite leaves as
    /// `attribute.leaf`, to-ones as the destination object).
    private func insert(_ object: StoredObject, _ values: [String: Any?]) throws {
        let entity = entity(object.entityName)
        let table = layout.table(of: entity)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var bindings: [SQLiteValue] = [.integer(object.row.primaryKey), .integer(Int64(object.row.entityNumber)), .integer(1)]
        for property in entity.properties {
            switch property.storage {
            case .column(let index):
                columns.append(table.columns[index].name)
                bindings.append(stored(values[property.name] ?? nil))
            case .composite(let indexes):
                for index in indexes {
                    guard case .attribute(_, _, let leaf) = table.columns[index].role else { continue }
                    columns.append(table.columns[index].name)
                    bindings.append(stored(values[property.name + "." + leaf.joined(separator: ".")] ?? nil))
                }
            case .toOne(let key, let entityColumn, let order):
                let destination = (values[property.name] ?? nil) as? StoredObject
                columns.append(table.columns[key].name)
                bindings.append(destination.map { .integer($0.row.primaryKey) } ?? .null)
                if let entityColumn {
                    columns.append(table.columns[entityColumn].name)
                    bindings.append(destination.map { .integer(Int64($0.row.entityNumber)) } ?? .null)
                }
                if let order {
                    columns.append(table.columns[order].name)
                    bindings.append(stored(values[property.name + ".order"] ?? nil))
                }
            default: break
            }
        }
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        _ = try connection.rows("INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(marks))", bindings)
        for (key, value) in values where !key.contains(".") {
            if let value { object.values[key] = value }
        }
        for (key, value) in values where key.contains(".") && !key.hasSuffix(".order") {
            let parts = key.split(separator: ".").map(String.init)
            var composite = object.values[parts[0]] as? [String: Any] ?? [:]
            if let value { composite[parts[1]] = value }
            object.values[parts[0]] = composite
        }
        objects[object.entityName, default: []].append(object)
    }

    private func fill(_ random: inout SeededGenerator) throws {
        func make(_ entity: String, _ primaryKey: Int) -> StoredObject {
            StoredObject(row: StoreRow(entityNumber: self.entity(entity).entityNumber, primaryKey: Int64(primaryKey)), entityName: entity)
        }
        var people: [StoredObject] = []
        for key in 1...12 {
            let person = make("Person", key)
            try insert(
                person,
                [
                    "name": maybe(&random) { Self.strings.randomElement(using: &$0)! },
                    "age": maybe(&random) { Int.random(in: 10...60, using: &$0) },
                    "location.latitude": maybe(&random) { Double(Int.random(in: -8...8, using: &$0)) / 2 },
                    "location.longitude": maybe(&random) { Double(Int.random(in: 0...10, using: &$0)) },
                ])
            people.append(person)
        }
        var tags: [StoredObject] = []
        for key in 1...8 {
            let tag = make("Tag", key)
            try insert(tag, ["label": maybe(&random) { Self.strings.randomElement(using: &$0)! }])
            tags.append(tag)
        }
        var items: [StoredObject] = []
        for key in 1...85 {
            let item = make(key % 3 == 0 ? "Special" : "Item", key)
            var values: [String: Any?] = [
                "name": maybe(&random) { Self.strings.randomElement(using: &$0)! },
                "count": maybe(&random) { Int.random(in: 0...20, using: &$0) },
                "score": maybe(&random) { Double(Int.random(in: -20...20, using: &$0)) / 4 },
                "weight": maybe(&random) { Double(Int.random(in: 0...10, using: &$0)) / 2 },
                "price": maybe(&random) { Decimal(Int.random(in: 0...40, using: &$0)) / 4 },
                "flag": maybe(&random) { Bool.random(using: &$0) },
                "born": maybe(&random) { Self.dates.randomElement(using: &$0)! },
                "ident": maybe(&random) { Self.uuids.randomElement(using: &$0)! },
                "blob": maybe(&random) { Self.blobs.randomElement(using: &$0)! },
                "link": maybe(&random) { Self.links.randomElement(using: &$0)! },
                "serial": 1000 + (key * 37) % 85,
                "owner": maybe(&random) { people.randomElement(using: &$0)! },
            ]
            if item.entityName == "Special" { values["level"] = maybe(&random) { Int.random(in: 1...5, using: &$0) } }
            try insert(item, values)
            item.values["tags"] = [StoredObject]()
            item.values["parts"] = [StoredObject]()
            items.append(item)
        }
        for person in people {
            person.values["items"] = items.filter { ($0.values["owner"] as? StoredObject) === person }
        }
        // Many-to-many through the join table.
        let itemLayout = entity("Item")
        guard case .joinTable(let joinIndex) = itemLayout.properties[itemLayout.slot(of: "tags")!].storage else { fatalError("tags") }
        let joinTable = layout.joinTables[joinIndex]
        let (itemSide, tagSide) =
            joinTable.first.entityName == "Item" ? (joinTable.first, joinTable.second) : (joinTable.second, joinTable.first)
        for tag in tags { tag.values["items"] = [StoredObject]() }
        for item in items {
            for tag in tags where Int.random(in: 0..<4, using: &random) == 0 {
                _ = try connection.rows(
                    "INSERT INTO \(joinTable.name) (\(itemSide.column), \(tagSide.column)) VALUES (?, ?)",
                    [.integer(item.row.primaryKey), .integer(tag.row.primaryKey)])
                item.values["tags"] = (item.values["tags"] as! [StoredObject]) + [tag]
                tag.values["items"] = (tag.values["items"] as! [StoredObject]) + [item]
            }
        }
        // Ordered one-to-many: parts point at their item.
        for key in 1...150 {
            let part = make("Part", key)
            let item = maybe(&random) { items.randomElement(using: &$0)! }
            let position = item.map { ($0.values["parts"] as! [StoredObject]).count + 1 }
            try insert(part, ["amount": maybe(&random) { Int.random(in: 0...12, using: &$0) }, "item": item, "item.order": position])
            if let item { item.values["parts"] = (item.values["parts"] as! [StoredObject]) + [part] }
        }
    }

    // MARK: Running

    /// Runs a translated statement and returns the first column of every row as an integer
    /// (the primary key for `.objectIDs` selects its second column).
    func primaryKeys(_ statement: FetchSQL) throws -> [Int64] {
        let rows = try connection.rows(statement.sql, statement.bindings)
        let column = statement.resultColumns.firstIndex(of: .primaryKey) ?? 0
        return rows.map { $0[column].integerValue ?? -1 }
    }
}
#endif

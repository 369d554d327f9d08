import ModelSchema
import ModelStore

/// The stored values of a store read through a version's layout: for every entity its rows by
/// primary key, each with its attributes' and to-one keys' values by property name, and its
/// many-to-many pairs.
struct StoreSnapshot {
    /// Entity → primary key → property → value.
    var rows: [String: [Int64: [String: SQLiteValue]]] = [:]
    /// Entity → relationship → "owner key → related key" pairs.
    var pairs: [String: [String: Set<[Int64]>]] = [:]
    var storeUUID: String?

    static func read(_ connection: StoreConnection, _ version: ModelVersion) throws -> StoreSnapshot {
        // Through the store's own names (its join tables, its entity numbers).
        let layout = try StoreSchema.existingLayout(of: connection, version: version).layout
        let lookup = VersionLookup(version)
        var snapshot = StoreSnapshot()
        snapshot.storeUUID = try StoreMetadataTable.read(connection)?.storeUUID
        for entity in layout.entities {
            let table = layout.table(of: entity)
            var columns: [(property: String, column: String)] = []
            for property in entity.properties {
                switch property.storage {
                case .column(let index): columns.append((property.name, table.columns[index].name))
                case .composite(let indexes):
                    for index in indexes { columns.append((property.name + "." + table.columns[index].name, table.columns[index].name)) }
                case .toOne(let key, _, _): columns.append((property.name, table.columns[key].name))
                case .joinTable(let index):
                    let joinTable = layout.joinTables[index]
                    let declaring =
                        lookup.entity(named: entity.name).map { start in
                            ([start] + lookup.ancestors(of: start)).first { $0.relationships.contains { $0.name == property.name } }?.name
                        } ?? nil
                    let ownerFirst = joinTable.second.relationshipName == property.name && joinTable.first.entityName == declaring
                    let (owner, other) =
                        ownerFirst ? (joinTable.first.column, joinTable.second.column) : (joinTable.second.column, joinTable.first.column)
                    let found = try connection.rows(
                        "SELECT \(owner), \(other) FROM \(joinTable.name) WHERE \(owner) IN (SELECT Z_PK FROM \(table.name) WHERE Z_ENT = \(entity.entityNumber))"
                    )
                    snapshot.pairs[entity.name, default: [:]][property.name] = Set(
                        found.map { [$0[0].integerValue ?? 0, $0[1].integerValue ?? 0] })
                default: break
                }
            }
            let select = (["Z_PK"] + columns.map(\.column)).joined(separator: ", ")
            var byKey: [Int64: [String: SQLiteValue]] = [:]
            for row in try connection.rows("SELECT \(select) FROM \(table.name) WHERE Z_ENT = \(entity.entityNumber)") {
                var values: [String: SQLiteValue] = [:]
                for (offset, column) in columns.enumerated() { values[column.property] = row[offset + 1] }
                byKey[row[0].integerValue ?? 0] = values
            }
            snapshot.rows[entity.name] = byKey
        }
        return snapshot
    }
}

/// The mapping from the last of `versions` back to the first, composed step by step as staged
/// migration applies it: final entity → original entity, and final property → original property.
struct ComposedMapping {
    var entities: [String: String] = [:]
    var properties: [String: [String: String]] = [:]

    init(_ versions: [ModelVersion]) {
        guard let first = versions.first else { return }
        let lookup = VersionLookup(first)
        for entity in first.entities {
            entities[entity.name] = entity.name
            let all = lookup.allProperties(of: entity)
            properties[entity.name] = Dictionary(
                (all.attributes.map(\.name) + all.relationships.map(\.name)).map { ($0, $0) }, uniquingKeysWith: { a, _ in a })
        }
        for (source, destination) in zip(versions, versions.dropFirst()) {
            let mapping = VersionMapping(from: source, to: destination)
            var nextEntities: [String: String] = [:]
            var nextProperties: [String: [String: String]] = [:]
            for entity in destination.entities {
                guard let previous = mapping.sourceEntity(of: entity.name), let original = entities[previous] else { continue }
                nextEntities[entity.name] = original
                for (property, sourceProperty) in mapping.sourceProperties[entity.name] ?? [:] {
                    if let originalProperty = properties[previous]?[sourceProperty] {
                        nextProperties[entity.name, default: [:]][property] = originalProperty
                    }
                }
            }
            entities = nextEntities
            properties = nextProperties
        }
    }
}

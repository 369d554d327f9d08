#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Runs one batch delete in one `BEGIN IMMEDIATE` transaction of one store, applying the delete
/// rules in SQL as a context's delete would: cascade deletes the destinations (and theirs, to
/// any depth), nullify clears a destination's to-one key pointing at a deleted row (`Z_OPT` + 1;
/// a required to-one fails the request), deny fails the request while a destination outside
/// the deleted set remains (1600), no action leaves the destinations as they are. Join-table
/// rows of deleted rows always go. Nothing is written when the request fails.
struct BatchDeleteWriter {
    let model: EngineModel
    let store: NSPersistentStore
    /// The executing context, for a tracked store's history (nil records none).
    var history: HistoryOrigin? = nil
    var connection: StoreConnection { store.engine.connection }

    /// A row: its entity number and key.
    struct Row: Hashable {
        let entity: Int
        let key: Int64
    }

    /// Deletes the rows `select` gives (inside the transaction) and what cascades from them;
    /// returns every deleted row, the requested ones first, in order. A requested row that is
    /// not stored is skipped.
    func run(_ select: () throws -> [Row]) throws -> [Row] {
        guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
        return try store.engine.wrap {
            try connection.transaction(.immediate) {
                var deleted: [Row] = []
                var seen: Set<Row> = []
                var queue = try select().filter(exists)[...]
                var denied: [(source: Row, slot: Int, destination: Row)] = []
                var nullified: [(source: Row, slot: Int, destination: Row)] = []
                // The closure over cascade rules.
                while let row = queue.popFirst() {
                    guard seen.insert(row).inserted, let entity = model.entity(number: row.entity) else { continue }
                    deleted.append(row)
                    for slot in entity.relationshipSlots {
                        guard let relationship = entity.properties[slot] as? NSRelationshipDescription else { continue }
                        if case .transientRelationship = entity.slotKinds[slot] { continue }
                        let rule = relationship.deleteRule
                        if rule == .noActionDeleteRule { continue }
                        for destination in try destinations(of: row, slot: slot, in: entity) {
                            switch rule {
                            case .cascadeDeleteRule: queue.append(destination)
                            case .denyDeleteRule: denied.append((row, slot, destination))
                            default: nullified.append((row, slot, destination))
                            }
                        }
                    }
                }
                for (source, slot, destination) in denied where !seen.contains(destination) {
                    let entity = model.entity(number: source.entity)!
                    let key = entity.properties[slot].name
                    throw CoreDataError.make(
                        NSValidationRelationshipDeniedDeleteError,
                        "The batch delete would leave \(key) of \(entity.name) p\(source.key) with destinations that deny its deletion.",
                        [NSValidationKeyErrorKey: key])
                }
                // Rows a nullify rule changes, with the inverse relationships that lose a member.
                var updated: [Row: Set<String>] = [:]
                for (source, slot, destination) in nullified where !seen.contains(destination) {
                    let entity = model.entity(number: source.entity)!
                    try nullify(inverseOf: slot, in: entity, pointingAt: source, from: destination)
                    if let destinationEntity = model.entity(number: destination.entity),
                        let inverse = entity.inverseSlot(slot, on: destinationEntity)
                    {
                        updated[destination, default: []].insert(destinationEntity.properties[inverse].name)
                    }
                }
                try HistoryBatchRecorder(store: store, origin: history)?.recordDelete(
                    model: model, deleted: deleted.map { ($0.entity, $0.key) },
                    updated: updated.map { (row: ($0.key.entity, $0.key.key), names: $0.value) })
                for row in deleted { try delete(row) }
                return deleted
            }
        }
    }

    /// The rows `slot` of `row` leads to.
    private func destinations(of row: Row, slot: Int, in entity: EngineEntity) throws -> [Row] {
        var result: [Row] = []
        switch entity.slotKinds[slot] {
        case .toOne(let key?, let entityColumn):
            let keyName = entity.table.columns[Int(key)].name
            let entityName = entityColumn.map { entity.table.columns[Int($0)].name } ?? "NULL"
            let statement = try connection.cachedStatement(
                "SELECT \(keyName), \(entityName) FROM \(entity.table.name) WHERE Z_PK = ? AND \(keyName) IS NOT NULL")
            defer { statement.reset() }
            statement.bind(row.key, at: 1)
            if try statement.step() {
                let number = statement.isNull(at: 1) ? (entity.destinations[slot]?.number ?? 0) : Int(statement.int64(at: 1))
                result.append(Row(entity: number, key: statement.int64(at: 0)))
            }
        case .toManyByInverseKey, .toManyByJoinTable:
            guard let sql = entity.toManySQL[slot] else { return [] }
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            statement.bind(row.key, at: 1)
            while try statement.step() { result.append(Row(entity: Int(statement.int64(at: 1)), key: statement.int64(at: 0))) }
        default:
            break
        }
        return result
    }

    /// Clears the inverse of `slot` in `destination` where it holds a to-one key to `source`.
    /// An inverse kept in a join table goes with the source's join rows; a to-many inverse kept
    /// by this side's key needs no write.
    private func nullify(inverseOf slot: Int, in entity: EngineEntity, pointingAt source: Row, from destination: Row) throws {
        guard let destinationEntity = model.entity(number: destination.entity),
            let inverseSlot = entity.inverseSlot(slot, on: destinationEntity),
            case .toOne(let key?, let entityColumn) = destinationEntity.slotKinds[inverseSlot]
        else { return }
        let inverse = destinationEntity.properties[inverseSlot]
        if !inverse.isOptional {
            throw CoreDataError.make(
                NSValidationMissingMandatoryPropertyError,
                "Batch delete failed due to mandatory OTO nullify inverse on \(destinationEntity.name)/\(inverse.name)",
                [NSValidationKeyErrorKey: inverse.name])
        }
        let keyName = destinationEntity.table.columns[Int(key)].name
        var assignments = "\(keyName) = NULL"
        if let entityColumn { assignments += ", \(destinationEntity.table.columns[Int(entityColumn)].name) = NULL" }
        let statement = try connection.cachedStatement(
            "UPDATE \(destinationEntity.table.name) SET Z_OPT = Z_OPT + 1, \(assignments) WHERE Z_PK = ? AND \(keyName) = ?")
        defer { statement.reset() }
        statement.bind(destination.key, at: 1)
        statement.bind(source.key, at: 2)
        try statement.step()
    }

    private func exists(_ row: Row) throws -> Bool {
        guard let entity = model.entity(number: row.entity) else { return false }
        let statement = try connection.cachedStatement("SELECT 1 FROM \(entity.table.name) WHERE Z_PK = ? AND Z_ENT = ?")
        defer { statement.reset() }
        statement.bind(row.key, at: 1)
        statement.bind(Int64(row.entity), at: 2)
        return try statement.step()
    }

    private func delete(_ row: Row) throws {
        guard let entity = model.entity(number: row.entity) else { return }
        let statement = try connection.cachedStatement("DELETE FROM \(entity.table.name) WHERE Z_PK = ?")
        statement.bind(row.key, at: 1)
        try statement.step()
        statement.reset()
        for (_, columns) in entity.joinColumns {
            let join = try connection.cachedStatement("DELETE FROM \(columns.table) WHERE \(columns.mine) = ?")
            join.bind(row.key, at: 1)
            try join.step()
            join.reset()
        }
    }
}
#endif

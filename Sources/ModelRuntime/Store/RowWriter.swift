#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Writes one save's rows into one store as Core Data writes them: inserts with `Z_OPT` 1,
/// updates and deletes guarded by the `Z_OPT` the object was read with, join-table rows for
/// many-to-many relationships, and uniqueness constraints checked first. It only finds
/// conflicts and writes: the save (`StoreSave.write(_:)`) runs it inside the store's
/// transaction, and hands the conflicts it reports to the context's merge policy.
struct RowWriter {
    let store: NSPersistentStore
    var connection: StoreConnection { store.engine.connection }

    /// Writes the deletes, inserts and updates and checks the marked objects' rows; returns the
    /// optimistic-locking conflicts: an update, delete or marked object whose row's `Z_OPT` moved
    /// since the object read it, or whose row is gone (a deleted object's gone row is none).
    func writeRows(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject], checked: [NSManagedObject])
        throws -> [NSMergeConflict]
    {
        try store.engine.wrap {
            var conflicts: [NSMergeConflict] = []
            for object in deleted { try delete(object, conflicts: &conflicts) }
            try insert(inserted)
            for object in updated { try update(object, conflicts: &conflicts) }
            for object in checked { try check(object, conflicts: &conflicts) }
            return conflicts
        }
    }

    /// The optimistic-locking conflicts ``writeRows(inserted:updated:deleted:checked:)`` would
    /// find, without writing: a round that already has uniqueness conflicts to resolve writes
    /// nothing, and its merge policy gets both kinds at once.
    func versionConflicts(updated: [NSManagedObject], deleted: [NSManagedObject], checked: [NSManagedObject]) throws -> [NSMergeConflict] {
        try store.engine.wrap {
            var conflicts: [NSMergeConflict] = []
            for object in deleted {
                if let current = try currentVersion(of: object), current != object.version {
                    conflicts.append(try conflict(object, storeVersion: current))
                }
            }
            for object in updated + checked {
                let current = try currentVersion(of: object)
                if current != object.version { conflicts.append(try conflict(object, storeVersion: current)) }
            }
            return conflicts
        }
    }

    /// Writes what follows the rows of a round without conflicts: join-table rows, order
    /// values, the history of the save and metadata set through the store.
    func finish(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject], history: HistoryRecorder.Names) throws
    {
        try store.engine.wrap {
            // Only entities with many-to-many or ordered relationships have more rows to write.
            let related = { (object: NSManagedObject) in !object.engine.joinColumns.isEmpty || !object.engine.orderSQL.isEmpty }
            let relating = inserted.filter(related) + updated.filter(related)
            for object in relating { try writeJoinRows(of: object) }
            for object in relating { try writeOrder(of: object) }
            try HistoryRecorder.record(history, store: store, inserted: inserted, updated: updated, deleted: deleted)
            // Metadata set through the store is saved with the store's next save.
            if store.engine.metadataChanged { try store.engine.writeMetadata() }
        }
    }

    // MARK: Rows

    /// Inserts the objects' rows, table by table in increasing key order (SQLite appends rows
    /// with increasing keys to the end of the table's B-tree instead of searching for each one's
    /// place). Objects given in insertion order already are (keys are allocated in that order),
    /// so they are only sorted when they are not. The statement is looked up once per run of
    /// objects of one entity.
    private func insert(_ objects: [NSManagedObject]) throws {
        var rows: [(root: Int, key: Int64, object: NSManagedObject)] = []
        rows.reserveCapacity(objects.count)
        var ordered = true
        for object in objects {
            guard let key = object.rowKey else { continue }
            let root = object.engine.rootNumber
            if ordered, let last = rows.last, last.root > root || (last.root == root && last.key > key) { ordered = false }
            rows.append((root, key, object))
        }
        if !ordered { rows.sort { $0.root != $1.root ? $0.root < $1.root : $0.key < $1.key } }
        var entity: EngineEntity?
        var statement: Statement?
        defer { statement?.reset() }
        for row in rows {
            let object = row.object
            if object.engine !== entity {
                statement?.reset()
                statement = try connection.cachedStatement(object.engine.insertSQL)
                entity = object.engine
            }
            guard let statement else { continue }
            statement.bind(row.key, at: 1)
            statement.bind(Int64(object.engine.number), at: 2)
            statement.bind(Int64(1), at: 3)
            bindColumns(of: object, to: statement, from: 4)
            try statement.step()
            // Every parameter is bound again for the next row.
            statement.resetKeepingBindings()
        }
    }

    /// An unchanged object marked by `detectConflicts(for:)`: its row must still have the `Z_OPT`
    /// the object read.
    private func check(_ object: NSManagedObject, conflicts: inout [NSMergeConflict]) throws {
        let current = try currentVersion(of: object)
        if current != object.version { conflicts.append(try conflict(object, storeVersion: current)) }
    }

    /// The optimistic-locking conflict of `object` with its row, now at `storeVersion` (nil:
    /// gone): the object's values as it read them, and the row as it is now.
    func conflict(_ object: NSManagedObject, storeVersion: Int64?) throws -> NSMergeConflict {
        let persisted = try storeVersion.flatMap { _ in
            try object.rowKey.flatMap { try RowSnapshot.read(key: $0, of: object.engine, store: store, connection: connection) }
        }
        let conflict = NSMergeConflict(
            source: object, newVersion: Int(persisted.map(\.version) ?? 0), oldVersion: Int(object.version),
            objectSnapshot: RowSnapshot.original(of: object), persistedSnapshot: persisted?.values)
        conflict.changedKeys = object.changedValues().keys.sorted()
        return conflict
    }

    func currentVersion(of object: NSManagedObject) throws -> Int64? {
        let statement = try connection.cachedStatement("SELECT Z_OPT FROM \(object.engine.table.name) WHERE Z_PK = ?")
        defer { statement.reset() }
        statement.bind(object.rowKey ?? 0, at: 1)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    private func delete(_ object: NSManagedObject, conflicts: inout [NSMergeConflict]) throws {
        let entity = object.engine
        guard let key = object.rowKey else { return }
        let statement = try connection.cachedStatement(entity.deleteSQL)
        statement.bind(key, at: 1)
        statement.bind(object.version, at: 2)
        try statement.step()
        statement.reset()
        // No row deleted: it changed since the object read it, or it is gone already (no conflict).
        if connection.changes == 0, let current = try currentVersion(of: object) {
            conflicts.append(try conflict(object, storeVersion: current))
        }
        for (_, columns) in entity.joinColumns {
            let statement = try connection.cachedStatement("DELETE FROM \(columns.table) WHERE \(columns.mine) = ?")
            statement.bind(key, at: 1)
            try statement.step()
            statement.reset()
        }
    }

    /// Binds the entity's written columns, in ``EngineEntity/writtenColumns`` order: all of
    /// them, or those whose bit (by position) is set in `included`.
    func bindColumns(of object: NSManagedObject, to statement: Statement, from first: Int32, included: UInt64? = nil) {
        let entity = object.engine
        let transformed = entity.writeChecks.transformedSlots
        guard transformed.isEmpty else {
            // Transformable attributes with a registered transformer are written as its `Data`.
            var values = object.valuesCopy
            for (slot, name) in transformed {
                if let value = values[slot], let transformer = ValueTransformer.registered(name) {
                    values[slot] = transformer.transformedValue(value)
                }
            }
            return values.withUnsafeBufferPointer {
                if let columns = entity.writeChecks.attributeColumns {
                    return RowBinding.bind($0, columns: columns, to: statement, from: first, included: included)
                }
                bindColumns(of: entity, values: { $0[$1] }, from: $0, to: statement, from: first, included: included)
            }
        }
        guard let cells = object.cellsIfAny() else {
            return bindColumns(of: entity, values: { _, _ in nil }, from: (), to: statement, from: first, included: included)
        }
        if let columns = entity.writeChecks.attributeColumns {
            return RowBinding.bind(cells, columns: columns, to: statement, from: first, included: included)
        }
        bindColumns(of: entity, values: { $0.value(at: $1) }, from: cells, to: statement, from: first, included: included)
    }

    /// Binds the entity's written columns, the value of each slot read by `value` from `source`.
    private func bindColumns<Source>(
        of entity: EngineEntity, values value: (Source, Int) -> Any?, from source: Source, to statement: Statement, from first: Int32,
        included: UInt64?
    ) {
        var index = first - 1
        for (offset, written) in entity.writtenColumns.enumerated() {
            if let included, included & (1 << UInt64(offset)) == 0 { continue }
            index += 1
            let value = value(source, written.slot)
            switch entity.slotKinds[written.slot] {
            case .attribute(let type, _):
                StoreValueCodec.bind(value, as: type, to: statement, at: index)
            case .composite(let leaves, _):
                let leaf = leaves[written.leaf ?? 0]
                StoreValueCodec.bind(Self.leafValue(value, path: leaf.path), as: leaf.type, to: statement, at: index)
            case .toOne:
                guard let destination = value as? NSManagedObject, let key = destination.rowKey, !destination.deletedFlag else {
                    statement.bindNull(at: index)
                    continue
                }
                statement.bind(written.leaf == -1 ? Int64(destination.engine.number) : key, at: index)
            default:
                statement.bindNull(at: index)
            }
        }
    }

    static func leafValue(_ value: Any?, path: [String]) -> Any? {
        var current: Any? = value
        for name in path {
            guard let dictionary = current as? [String: Any] else { return nil }
            current = dictionary[name]
        }
        return current
    }

    /// Writes the order values of the object's ordered to-many relationships whose order or
    /// members changed: the member at position `i` (from 0) gets Core Data's
    /// `StoreLayout.orderValue(at: i)`.
    private func writeOrder(of object: NSManagedObject) throws {
        let entity = object.engine
        guard let key = object.rowKey else { return }
        for (slot, order) in entity.orderSQL {
            guard let current = object.values[slot] as? ToMany else { continue }
            if !object.insertedFlag, let before = object.committedValue(at: slot) as? ToMany,
                before.objects.elementsEqual(current.objects, by: ===)
            {
                continue
            }
            let statement = try connection.cachedStatement(order.sql)
            var position = 0
            for destination in current.objects where !destination.deletedFlag {
                guard let other = destination.rowKey else { continue }
                statement.bind(StoreLayout.orderValue(at: position), at: 1)
                position += 1
                if order.join {
                    statement.bind(key, at: 2)
                    statement.bind(other, at: 3)
                } else {
                    statement.bind(other, at: 2)
                }
                try statement.step()
                statement.reset()
            }
        }
    }

    /// Adds and removes the join-table rows of the object's many-to-many relationships.
    private func writeJoinRows(of object: NSManagedObject) throws {
        let entity = object.engine
        guard let key = object.rowKey else { return }
        for (slot, columns) in entity.joinColumns where entity.writesJoinRows[slot] == true {
            guard let current = object.values[slot] as? ToMany else { continue }
            let before = object.insertedFlag ? ToMany() : (object.committedValue(at: slot) as? ToMany ?? ToMany())
            for destination in current.objects where !before.contains(destination) {
                guard let other = destination.rowKey, !destination.deletedFlag else { continue }
                let statement = try connection.cachedStatement(
                    "INSERT OR IGNORE INTO \(columns.table) (\(columns.mine), \(columns.other)) VALUES (?, ?)")
                statement.bind(key, at: 1)
                statement.bind(other, at: 2)
                try statement.step()
                statement.reset()
            }
            for destination in before.objects where !current.contains(destination) {
                guard let other = destination.rowKey else { continue }
                let statement = try connection.cachedStatement(
                    "DELETE FROM \(columns.table) WHERE \(columns.mine) = ? AND \(columns.other) = ?")
                statement.bind(key, at: 1)
                statement.bind(other, at: 2)
                try statement.step()
                statement.reset()
            }
        }
    }
}
#endif

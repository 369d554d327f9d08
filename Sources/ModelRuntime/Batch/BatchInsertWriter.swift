#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// A to-one relationship's destination in a batch insert, beyond Core Data (whose batch insert
/// cannot set relationships): the object with an ID, or the one row of the destination entity
/// whose uniqueness-constrained attributes have the given values. Used as the value of a
/// to-one relationship's name in a row; resolved in the insert's own SQL transaction.
public enum BatchInsertReference: @unchecked Sendable {
    case objectID(NSManagedObjectID)
    /// Attribute names of a uniqueness constraint of the destination entity and their values.
    case uniqueKey([String: Any])
}

/// Rows for a batch insert given by position: `keys` names the properties, and `fill(i, &row)`
/// sets row `i`'s values in `keys` order (nil for none). Typed helpers use it so that no
/// dictionary is made per row.
struct BatchInsertRowSource {
    let keys: [String]
    let count: Int
    let fill: (Int, inout ContiguousArray<Any?>) -> Void
}

extension NSBatchInsertRequest {
    /// A batch insert of `count` rows given by position (see `BatchInsertReference` for to-one
    /// relationships). A Linux extension used by generated typed helpers.
    public convenience init(
        entity: NSEntityDescription, keys: [String], count: Int, rows fill: @escaping (Int, inout ContiguousArray<Any?>) -> Void
    ) {
        self.init(entityName: entity.name ?? "", entity: entity, rowSource: BatchInsertRowSource(keys: keys, count: count, fill: fill))
    }

    /// The same, naming the entity.
    public convenience init(
        entityName: String, keys: [String], count: Int, rows fill: @escaping (Int, inout ContiguousArray<Any?>) -> Void
    ) {
        self.init(entityName: entityName, entity: nil, rowSource: BatchInsertRowSource(keys: keys, count: count, fill: fill))
    }
}

/// Runs one batch insert in one `BEGIN IMMEDIATE` transaction of one store: every row gets the
/// attributes' defaults for missing values, a missing value of a required attribute fails the
/// whole request (1570, nothing written), rows matching a stored row on a uniqueness constraint
/// update that row (`Z_OPT` + 1) instead of inserting (an upsert), new rows get `Z_OPT` 1 and
/// keys from `Z_PRIMARYKEY`, raised once for the batch inside the same transaction.
struct BatchInsertWriter {
    let entity: EngineEntity
    let store: NSPersistentStore
    let mergeType: NSMergePolicyType
    /// The executing context, for a tracked store's history (nil records none).
    var history: HistoryOrigin? = nil
    var connection: StoreConnection { store.engine.connection }

    /// The IDs of the rows written (when `collectIDs`) and their number.
    func run(_ request: NSBatchInsertRequest, collectIDs: Bool) throws -> (ids: [NSManagedObjectID], count: Int) {
        guard !entity.description.isAbstract else {
            throw CoreDataError.make(NSCoreDataError, "Cannot batch insert objects of the abstract entity \(entity.name)")
        }
        guard !store.isReadOnly else { throw NSPersistentStore.readOnlyError(store) }
        return try store.engine.wrap {
            try connection.transaction(.immediate) {
                let recorder = HistoryBatchRecorder(store: store, origin: history)
                var state = try State(writer: self, collectIDs: collectIDs)
                state.collectsUpserts = recorder != nil
                try forEachRow(of: request) { values in try state.write(&values) }
                try state.finish()
                try recorder?.recordInsert(
                    entity: entity, keys: state.nextKey > state.firstKey ? state.firstKey...(state.nextKey - 1) : nil,
                    upserted: state.upserted.filter { $0.key < state.firstKey },
                    written: Set(entity.writtenColumns.map { entity.properties[$0.slot].name }))
                return (state.ids, state.count)
            }
        }
    }

    /// Calls `body` with each row's values by slot.
    private func forEachRow(of request: NSBatchInsertRequest, _ body: (inout ContiguousArray<Any?>) throws -> Void) throws {
        var values = ContiguousArray<Any?>(repeating: nil, count: entity.slotCount)
        let named =
            entity.attributeSlots.map { (slot: $0, name: entity.properties[$0].name) }
            + entity.relationshipSlots.map { (slot: $0, name: entity.properties[$0].name) }
        func fill(from dictionary: (String) -> Any?) {
            for index in values.indices { values[index] = nil }
            for (slot, name) in named { values[slot] = dictionary(name) }
        }
        if let source = request.rowSource {
            let slots = try source.keys.map { key in
                guard let slot = entity.slotsByName[key] else {
                    throw CoreDataError.make(NSCoreDataError, "The entity \(entity.name) has no property named '\(key)'")
                }
                return slot
            }
            var row = ContiguousArray<Any?>(repeating: nil, count: slots.count)
            for index in 0..<source.count {
                for position in row.indices { row[position] = nil }
                source.fill(index, &row)
                for position in values.indices { values[position] = nil }
                for (position, slot) in slots.enumerated() { values[slot] = row[position] }
                try body(&values)
            }
        } else if let objects = request.objectsToInsert {
            for object in objects {
                fill { object[$0] }
                try body(&values)
            }
        } else if let handler = request.dictionaryHandler {
            // Values by slot (see BatchInsertRow). A row the handler let go of is emptied and
            // handed out again, its values taken over by swapping arrays; one it kept is left
            // as it is, and the next call gets a new one.
            let layout = BatchInsertRow.Layout(entity: entity)
            var row = BatchInsertRow(layout: layout)
            while true {
                if handler(row) { break }
                if isKnownUniquelyReferenced(&row) {
                    swap(&values, &row.values)
                    try body(&values)
                    row.reset()
                } else {
                    values = row.values
                    try body(&values)
                    row = BatchInsertRow(layout: layout)
                }
            }
        } else if let handler = request.managedObjectHandler {
            while true {
                let object = NSManagedObject.make(entity: entity.description)
                if handler(object) { break }
                for index in values.indices { values[index] = object.values[index] }
                for slot in entity.relationshipSlots where values[slot] is ToMany { values[slot] = nil }
                try body(&values)
            }
        }
    }

    /// One run's statements and progress.
    private struct State {
        let writer: BatchInsertWriter
        let collectIDs: Bool
        let insert: Statement
        let update: Statement
        let firstKey: Int64
        var nextKey: Int64
        var ids: [NSManagedObjectID] = []
        var count = 0
        /// Stored rows an upsert updated (collected for history only).
        var collectsUpserts = false
        var upserted: [(key: Int64, entity: Int)] = []
        /// Per written column: its attribute's default, and whether a value is required.
        let defaults: [(slot: Int, value: Any)]
        let required: [Int]
        /// Per written column: how an attribute column's value is bound (nil for other columns).
        let attributeColumns: [AttributeColumn?]

        init(writer: BatchInsertWriter, collectIDs: Bool) throws {
            self.writer = writer
            self.collectIDs = collectIDs
            let entity = writer.entity
            insert = try writer.connection.cachedStatement(entity.insertSQL)
            let assignments = entity.writtenColumns.map { "\(entity.table.columns[Int($0.column)].name) = ?" }
            update = try writer.connection.cachedStatement(
                "UPDATE \(entity.table.name) SET Z_OPT = Z_OPT + 1, \(assignments.joined(separator: ", ")) WHERE Z_PK = ?")
            let select = try writer.connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
            defer { select.reset() }
            select.bind(Int64(entity.rootNumber), at: 1)
            guard try select.step() else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "Z_PRIMARYKEY has no row for entity \(entity.rootNumber)")
            }
            firstKey = select.int64(at: 0) + 1
            nextKey = firstKey
            var defaults: [(slot: Int, value: Any)] = []
            var required: [Int] = []
            for slot in entity.attributeSlots {
                guard let attribute = entity.properties[slot] as? NSAttributeDescription, !attribute.isTransient else { continue }
                if attribute is NSDerivedAttributeDescription { continue }
                if let value = attribute.defaultValue { defaults.append((slot, value)) }
                if !attribute.isOptional { required.append(slot) }
            }
            self.defaults = defaults
            self.required = required
            attributeColumns = entity.writtenColumns.map { written in
                if case .attribute(let type, _) = entity.slotKinds[written.slot] { return AttributeColumn(slot: written.slot, type: type) }
                return nil
            }
        }

        mutating func write(_ values: inout ContiguousArray<Any?>) throws {
            let entity = writer.entity
            for (slot, value) in defaults where KeyPathReader.unwrapped(values[slot]) == nil { values[slot] = value }
            for slot in required where KeyPathReader.unwrapped(values[slot]) == nil {
                let key = entity.properties[slot].name
                throw CoreDataError.make(
                    NSValidationMissingMandatoryPropertyError, "\(key) is a required value.",
                    [NSValidationKeyErrorKey: key, "NSValidationErrorEntity": entity.name])
            }
            var keys: [Int: (key: Int64, entity: Int)] = [:]
            for slot in entity.relationshipSlots {
                guard case .toOne = entity.slotKinds[slot], let value = KeyPathReader.unwrapped(values[slot]) else { continue }
                keys[slot] = try writer.resolve(value, slot: slot)
            }
            if let existing = try writer.storedRow(matching: values) {
                if writer.mergeType == .mergeByPropertyStoreTrumpMergePolicyType || writer.mergeType == .rollbackMergePolicyType {
                    // The stored row wins.
                } else {
                    bind(values, keys: keys, to: update, from: 1)
                    update.bind(existing.key, at: Int32(entity.writtenColumns.count + 1))
                    defer { update.reset() }
                    try update.step()
                    if collectsUpserts { upserted.append(existing) }
                }
                count += 1
                if collectIDs { ids.append(writer.objectID(key: existing.key, entityNumber: existing.entity)) }
                return
            }
            let key = nextKey
            nextKey += 1
            insert.bind(key, at: 1)
            insert.bind(Int64(entity.number), at: 2)
            insert.bind(Int64(1), at: 3)
            bind(values, keys: keys, to: insert, from: 4)
            defer { insert.reset() }
            try insert.step()
            count += 1
            if collectIDs { ids.append(writer.objectID(key: key, entityNumber: entity.number)) }
        }

        private func bind(
            _ values: ContiguousArray<Any?>, keys: [Int: (key: Int64, entity: Int)], to statement: Statement, from first: Int32
        ) {
            let entity = writer.entity
            let fast = StoredValueCast.layoutHolds
            for (offset, written) in entity.writtenColumns.enumerated() {
                let index = first + Int32(offset)
                switch entity.slotKinds[written.slot] {
                case .attribute(let type, _):
                    // A value of the attribute's stored type (what typed rows and the dictionary
                    // handler's row give) is bound from the array in place, without a cast.
                    if fast, let column = attributeColumns[offset] {
                        values.withUnsafeBufferPointer {
                            RowBinding.bind($0.baseAddress! + written.slot, column: column, to: statement, at: index)
                        }
                    } else {
                        StoreValueCodec.bind(values[written.slot], as: type, to: statement, at: index)
                    }
                case .composite(let leaves, _):
                    let leaf = leaves[written.leaf ?? 0]
                    StoreValueCodec.bind(
                        RowWriter.leafValue(values[written.slot], path: leaf.path), as: leaf.type, to: statement, at: index)
                case .toOne:
                    if let destination = keys[written.slot] {
                        statement.bind(written.leaf == -1 ? Int64(destination.entity) : destination.key, at: index)
                    } else {
                        statement.bindNull(at: index)
                    }
                default:
                    statement.bindNull(at: index)
                }
            }
        }

        /// Raises `Z_MAX` of the root once, to the last key used.
        func finish() throws {
            guard nextKey > firstKey else { return }
            let statement = try writer.connection.cachedStatement(
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
            defer { statement.reset() }
            statement.bind(nextKey - 1, at: 1)
            statement.bind(Int64(writer.entity.rootNumber), at: 2)
            statement.bind(firstKey - 1, at: 3)
            try statement.step()
            guard writer.connection.changes == 1 else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "Z_PRIMARYKEY changed during the batch insert")
            }
        }
    }

    func objectID(key: Int64, entityNumber: Int) -> NSManagedObjectID {
        let described = entity.model?.entity(number: entityNumber)?.description ?? entity.description
        return NSManagedObjectID(entity: described, rootEntityNumber: entity.rootNumber, key: .permanent(key), store: store)
    }

    /// The stored row (of the constraint's entities) that has the row's values for one of the
    /// entity's uniqueness constraints, when any.
    func storedRow(matching values: ContiguousArray<Any?>) throws -> (key: Int64, entity: Int)? {
        for constraint in entity.uniquenessConstraints {
            let constrained = constraint.slots.map { values[$0] }
            if constrained.contains(where: { KeyPathReader.unwrapped($0) == nil }) { continue }
            let conditions = constraint.columns.map { "\($0) = ?" }.joined(separator: " AND ")
            let statement = try connection.cachedStatement(
                "SELECT Z_PK, Z_ENT FROM \(entity.table.name) WHERE \(conditions) AND Z_ENT >= \(constraint.entityNumbers.lowerBound) "
                    + "AND Z_ENT <= \(constraint.entityNumbers.upperBound) LIMIT 1")
            defer { statement.reset() }
            for (offset, slot) in constraint.slots.enumerated() {
                let index = Int32(offset + 1)
                switch entity.slotKinds[slot] {
                case .attribute(let type, _): StoreValueCodec.bind(constrained[offset], as: type, to: statement, at: index)
                default: statement.bind((try? resolve(constrained[offset] as Any, slot: slot))?.key ?? -1, at: index)
                }
            }
            if try statement.step() { return (statement.int64(at: 0), Int(statement.int64(at: 1))) }
        }
        return nil
    }

    /// The destination row of a to-one value: an object ID, a managed object with a permanent
    /// ID, or a ``BatchInsertReference``.
    func resolve(_ value: Any, slot: Int) throws -> (key: Int64, entity: Int) {
        guard let destination = entity.destinations[slot], let model = entity.model else {
            throw CoreDataError.make(NSCoreDataError, "The relationship \(entity.properties[slot].name) has no destination entity")
        }
        let name = entity.properties[slot].name
        func check(_ id: NSManagedObjectID) throws -> (key: Int64, entity: Int) {
            guard let key = id.primaryKey, let found = model.entity(for: id.entity), destination.entityNumbers.contains(found.number),
                id.persistentStore == nil || id.persistentStore === store
            else {
                throw CoreDataError.make(
                    NSManagedObjectReferentialIntegrityError,
                    "The value of \(name) is not a saved object of \(destination.name) in this store: \(id.uriRepresentation())")
            }
            return (key, found.number)
        }
        switch value {
        case let id as NSManagedObjectID:
            return try check(id)
        case let object as NSManagedObject:
            return try check(object.objectID)
        case BatchInsertReference.objectID(let id):
            return try check(id)
        case BatchInsertReference.uniqueKey(let key):
            return try row(of: destination, uniqueKey: key, relationship: name)
        default:
            throw CoreDataError.make(
                NSManagedObjectReferentialIntegrityError,
                "The value of the to-one relationship \(name) must be an NSManagedObjectID or a BatchInsertReference, not \(type(of: value))"
            )
        }
    }

    private func row(of destination: EngineEntity, uniqueKey: [String: Any], relationship: String) throws -> (key: Int64, entity: Int) {
        let names = Set(uniqueKey.keys)
        guard let constraint = destination.uniquenessConstraints.first(where: { Set($0.names) == names }) else {
            throw CoreDataError.make(
                NSCoreDataError,
                "\(destination.name) has no uniqueness constraint on \(names.sorted().joined(separator: ", ")) to find the destination of \(relationship)"
            )
        }
        let conditions = constraint.columns.map { "\($0) = ?" }.joined(separator: " AND ")
        let statement = try connection.cachedStatement(
            "SELECT Z_PK, Z_ENT FROM \(destination.table.name) WHERE \(conditions) AND Z_ENT >= \(constraint.entityNumbers.lowerBound) "
                + "AND Z_ENT <= \(constraint.entityNumbers.upperBound) LIMIT 1")
        defer { statement.reset() }
        for (offset, slot) in constraint.slots.enumerated() {
            let value = uniqueKey[constraint.names[offset]]
            switch destination.slotKinds[slot] {
            case .attribute(let type, _): StoreValueCodec.bind(value, as: type, to: statement, at: Int32(offset + 1))
            default: statement.bind((value as? NSManagedObjectID)?.primaryKey ?? -1, at: Int32(offset + 1))
            }
        }
        guard try statement.step() else {
            let described = constraint.names.map { "\($0) = \(uniqueKey[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
            throw CoreDataError.make(
                NSManagedObjectReferentialIntegrityError, "No \(destination.name) with \(described) for the relationship \(relationship)")
        }
        return (statement.int64(at: 0), Int(statement.int64(at: 1)))
    }
}

extension NSManagedObject {
    /// An object of `entity` in no context, of the entity's class, for handlers to fill.
    static func make(entity: NSEntityDescription) -> NSManagedObject {
        let type = ClassRegistry.objectClass(for: entity)
        return type.init(entity: entity, insertInto: nil)
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// Rows and objects as the snapshot dictionaries of save conflicts give them
/// (``NSMergeConflict/persistedSnapshot``, ``NSConstraintConflict/databaseSnapshot``, …). As the
/// SDK's `NSMergePolicy.h` says: "Snapshot dictionaries include values for all attributes and
/// to-one relationships, but not to-many relationships. Relationship values are
/// NSManagedObjectID references." A missing value is `NSNull`, numbers are boxed as key-value
/// coding gives them; transient properties, which no row holds, are left out.
enum RowSnapshot {
    /// A stored row: the entity its `Z_ENT` names, its `Z_OPT` and its values.
    struct Row {
        let entity: EngineEntity
        let version: Int64
        let values: [String: Any]
    }

    /// The row `key` of `entity`'s table as it is now on `connection` — the save's own
    /// connection, inside its transaction (a context pinned to a query generation reads an older
    /// snapshot through its own) — read as the entity its `Z_ENT` names; nil when there is none.
    static func read(key: Int64, of entity: EngineEntity, store: NSPersistentStore, connection: StoreConnection) throws -> Row? {
        let statement = try connection.cachedStatement(entity.selectByKeySQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        let shape = entity.tableShape
        let rowEntity = entity.model?.entity(number: Int(statement.int64(at: shape.entityNumber))) ?? entity
        // Every entity of a table reads it with the same shape (the table's columns in order).
        let map = rowEntity.tableShape.columns
        var values: [String: Any] = [:]
        for slot in 0..<rowEntity.slotCount {
            let value: Any?
            switch rowEntity.slotKinds[slot] {
            case .attribute(let type, let column?):
                let index = map[Int(column)]
                value = index >= 0 ? StoreValueCodec.read(statement, index, as: type) : nil
            case .composite(let leaves, let columns):
                var dictionary: [String: Any] = [:]
                for (leaf, column) in zip(leaves, columns) where map[Int(column)] >= 0 {
                    if let leafValue = StoreValueCodec.read(statement, map[Int(column)], as: leaf.type) {
                        set(leafValue, at: leaf.path[...], in: &dictionary)
                    }
                }
                value = dictionary.isEmpty ? nil : dictionary
            case .toOne(let keyColumn?, let entityColumn):
                let index = map[Int(keyColumn)]
                guard index >= 0, !statement.isNull(at: index), let destination = rowEntity.destinations[slot] else {
                    value = nil
                    break
                }
                let destinationEntity =
                    entityColumn.flatMap { column in
                        map[Int(column)] >= 0 ? rowEntity.model?.entity(number: Int(statement.int64(at: map[Int(column)]))) : nil
                    } ?? destination
                value = NSManagedObjectID(
                    entity: destinationEntity.description, rootEntityNumber: destinationEntity.rootNumber,
                    key: .permanent(statement.int64(at: index)), store: store)
            case .attribute(_, nil), .transientRelationship, .toOne(nil, _), .toManyByInverseKey, .toManyByJoinTable:
                continue
            }
            values[rowEntity.properties[slot].name] = KeyValueBoxing.boxed(value) ?? NSNull()
        }
        // Transformable attributes with a registered transformer hold its objects, not `Data`.
        for (slot, name) in rowEntity.writeChecks.transformedSlots {
            let key = rowEntity.properties[slot].name
            if let data = values[key] as? Data, let transformer = ValueTransformer.registered(name) {
                values[key] = transformer.reverseTransformedValue(data) ?? NSNull()
            }
        }
        let version = shape.optimisticLock >= 0 ? statement.int64(at: shape.optimisticLock) : 0
        return Row(entity: rowEntity, version: version, values: values)
    }

    /// `values`, one per slot of `entity` (an object's values or committed values), as a
    /// snapshot dictionary.
    static func dictionary(_ values: ContiguousArray<Any?>, of entity: EngineEntity) -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in 0..<min(entity.slotCount, values.count) {
            let value: Any?
            switch entity.slotKinds[slot] {
            case .attribute(_, _?), .composite:
                value = KeyValueBoxing.boxed(values[slot])
            case .toOne(_?, _):
                value = (values[slot] as? NSManagedObject)?.objectID
            case .attribute(_, nil), .transientRelationship, .toOne(nil, _), .toManyByInverseKey, .toManyByJoinTable:
                continue
            }
            result[entity.properties[slot].name] = value ?? NSNull()
        }
        return result
    }

    /// What an object's snapshot in a conflict holds: its committed values (as it was read or
    /// last saved), or for an object never saved its values now.
    static func original(of object: NSManagedObject) -> [String: Any] {
        dictionary(object.committedCopy ?? object.valuesCopy, of: object.engine)
    }

    /// Sets `value` at `path` of a composite attribute's dictionary, making the nested
    /// dictionaries the path goes through.
    static func set(_ value: Any, at path: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            dictionary[first] = value
        } else {
            var nested = dictionary[first] as? [String: Any] ?? [:]
            set(value, at: path.dropFirst(), in: &nested)
            dictionary[first] = nested
        }
    }
}
#endif

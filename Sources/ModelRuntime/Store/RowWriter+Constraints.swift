#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension RowWriter {
    /// A uniqueness constraint as the engine checks it: property names and their slots.
    struct Constraint {
        let names: [String]
        let slots: [Int]
        let columns: [String]
        /// `Z_ENT` range of the entity that declares it.
        let entityNumbers: ClosedRange<Int>
    }

    static func constraints(of entity: EngineEntity) -> [Constraint] {
        var result: [Constraint] = []
        var current: NSEntityDescription? = entity.description
        var steps = 0
        while let declaring = current, steps < 1_000 {
            steps += 1
            let declaringNumbers = entity.model?.entity(for: declaring)?.entityNumbers ?? entity.entityNumbers
            for constraint in declaring.uniquenessConstraints {
                let names = constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
                var slots: [Int] = []
                var columns: [String] = []
                for name in names {
                    guard let slot = entity.slotsByName[name] else { break }
                    switch entity.slotKinds[slot] {
                    case .attribute(_, let column?):
                        columns.append(entity.table.columns[Int(column)].name)
                    case .toOne(let key?, _):
                        columns.append(entity.table.columns[Int(key)].name)
                    default:
                        break
                    }
                    slots.append(slot)
                }
                if !names.isEmpty, slots.count == names.count, columns.count == names.count {
                    result.append(Constraint(names: names, slots: slots, columns: columns, entityNumbers: declaringNumbers))
                }
            }
            current = declaring.superentity
        }
        return result
    }

    /// Finds the uniqueness-constraint conflicts of the save's objects (reading only): objects
    /// of the save with the same values for a constraint (one conflict per constraint and values,
    /// listing them in the order given, inserted then updated objects; no stored object), and an
    /// inserted object, or an updated one that changed the constraint's properties, whose values
    /// a stored row has (one conflict per object and constraint, with the row's object and its
    /// values now). Rows of objects the save deletes count as gone.
    func constraintConflicts(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) throws
        -> [NSConstraintConflict]
    {
        let constrained = { (object: NSManagedObject) in !object.engine.uniquenessConstraints.isEmpty }
        guard inserted.contains(where: constrained) || updated.contains(where: constrained) else { return [] }
        return try store.engine.wrap {
            var conflicts: [NSConstraintConflict] = []
            // Duplicates among the objects of this save.
            var groups: [String: (constraint: Constraint, objects: [NSManagedObject])] = [:]
            var order: [String] = []
            for object in inserted + updated {
                for constraint in object.engine.uniquenessConstraints {
                    let values = constraint.slots.map { object.values[$0] }
                    guard !values.contains(where: { KeyPathReader.unwrapped($0) == nil }) else { continue }
                    let key =
                        constraint.names.joined(separator: ",") + "|\(constraint.entityNumbers)|"
                        + values.map { SlotValues.describe($0) }.joined(separator: "|")
                    if groups[key] == nil {
                        order.append(key)
                        groups[key] = (constraint, [])
                    }
                    groups[key]?.objects.append(object)
                }
            }
            for key in order {
                guard let group = groups[key], group.objects.count > 1 else { continue }
                conflicts.append(
                    NSConstraintConflict(
                        constraint: group.constraint.names, database: nil, databaseSnapshot: nil, conflicting: group.objects,
                        conflictingSnapshots: group.objects.map { RowSnapshot.original(of: $0) }))
            }
            // Conflicts with stored rows.
            let deletedKeys = Set(deleted.compactMap(\.registryKey))
            for object in inserted + updated {
                for constraint in object.engine.uniquenessConstraints {
                    if !object.insertedFlag && !constraint.slots.contains(where: { object.isChanged($0) }) { continue }
                    let values = constraint.slots.map { object.values[$0] }
                    guard !values.contains(where: { KeyPathReader.unwrapped($0) == nil }),
                        let row = try storedRow(matching: constraint, values: values, of: object),
                        !deletedKeys.contains(ObjectKey(store: store, root: object.engine.rootNumber, primaryKey: row.key))
                    else { continue }
                    let entity = object.engine.model?.entity(number: row.entity) ?? object.engine
                    let snapshot = try RowSnapshot.read(key: row.key, of: entity, store: store, connection: connection)
                    conflicts.append(
                        NSConstraintConflict(
                            constraint: constraint.names, databaseRow: (entity, row.key, store), version: row.version,
                            snapshot: snapshot?.values, conflicting: object, conflictingSnapshot: RowSnapshot.original(of: object)))
                }
            }
            return conflicts
        }
    }

    private func storedRow(matching constraint: Constraint, values: [Any?], of object: NSManagedObject) throws
        -> (key: Int64, entity: Int, version: Int64)?
    {
        let entity = object.engine
        let conditions = constraint.columns.map { "t.\($0) = ?" }.joined(separator: " AND ")
        let sql =
            "SELECT t.Z_PK, t.Z_ENT, t.Z_OPT FROM \(entity.table.name) t WHERE \(conditions) AND t.Z_PK <> ? "
            + "AND t.Z_ENT >= \(constraint.entityNumbers.lowerBound) AND t.Z_ENT <= \(constraint.entityNumbers.upperBound) LIMIT 1"
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        for (offset, slot) in constraint.slots.enumerated() {
            let index = Int32(offset + 1)
            switch entity.slotKinds[slot] {
            case .attribute(let type, _): StoreValueCodec.bind(values[offset], as: type, to: statement, at: index)
            default: statement.bind((values[offset] as? NSManagedObject)?.id.primaryKey ?? -1, at: index)
            }
        }
        statement.bind(object.rowKey ?? -1, at: Int32(constraint.slots.count + 1))
        guard try statement.step() else { return nil }
        return (statement.int64(at: 0), Int(statement.int64(at: 1)), statement.int64(at: 2))
    }
}
#endif

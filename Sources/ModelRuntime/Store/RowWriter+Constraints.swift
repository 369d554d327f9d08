#if !canImport(CoreData)
import Foundation
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

    /// Finds uniqueness-constraint conflicts of the save's objects with stored rows and with
    /// each other, and resolves them by the merge policy: object-trump and overwrite turn a
    /// conflicting insert into an update of the stored row (upsert); store-trump and rollback
    /// keep the stored row and give the object its values; the error policy fails the save with
    /// `NSManagedObjectConstraintMergeError` listing the conflicts.
    func resolveConstraints(inserted: inout [NSManagedObject], updated: inout [NSManagedObject]) throws {
        let constrained = { (object: NSManagedObject) in !object.engine.uniquenessConstraints.isEmpty }
        guard inserted.contains(where: constrained) || updated.contains(where: constrained) else { return }
        var conflicts: [NSConstraintConflict] = []
        let policy = context.mergeType
        let deletedKeys = Set(context.deleted.values.compactMap { $0.id.primaryKey })
        // Duplicates among the objects of this save.
        var seen: [String: NSManagedObject] = [:]
        var dropped: Set<ObjectIdentifier> = []
        for object in inserted + updated {
            for constraint in object.engine.uniquenessConstraints {
                let values = constraint.slots.map { object.values[$0] }
                guard !values.contains(where: { KeyPathReader.unwrapped($0) == nil }) else { continue }
                let key =
                    constraint.names.joined(separator: ",") + "|\(constraint.entityNumbers)|"
                    + values.map { SlotValues.describe($0) }.joined(separator: "|")
                guard let earlier = seen[key] else {
                    seen[key] = object
                    continue
                }
                switch policy {
                case .errorMergePolicyType:
                    conflicts.append(
                        NSConstraintConflict(
                            constraint: constraint.names, database: nil, databaseSnapshot: nil, conflicting: [earlier, object],
                            conflictingSnapshots: []))
                case .mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType:
                    if earlier.insertedFlag { dropped.insert(ObjectIdentifier(earlier)) }
                    seen[key] = object
                case .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType:
                    if object.insertedFlag { dropped.insert(ObjectIdentifier(object)) }
                }
            }
        }
        if !dropped.isEmpty {
            for object in inserted where dropped.contains(ObjectIdentifier(object)) {
                context.inserted.removeValue(forKey: ObjectIdentifier(object))
                context.registry.removeValue(forKey: ObjectKey(object.id))
                object.insertedFlag = false
                object.context = nil
            }
            inserted.removeAll { dropped.contains(ObjectIdentifier($0)) }
        }
        // Conflicts with stored rows.
        var becameUpdates: [NSManagedObject] = []
        var tookStoreValues: Set<ObjectIdentifier> = []
        for object in inserted + updated {
            for constraint in object.engine.uniquenessConstraints {
                if !object.insertedFlag && !constraint.slots.contains(where: { object.isChanged($0) }) { continue }
                let values = constraint.slots.map { object.values[$0] }
                guard !values.contains(where: { KeyPathReader.unwrapped($0) == nil }) else { continue }
                guard let row = try storedRow(matching: constraint, values: values, of: object), !deletedKeys.contains(row.key) else {
                    continue
                }
                guard object.insertedFlag, policy != .errorMergePolicyType else {
                    let entity = object.engine.model?.entity(number: row.entity) ?? object.engine
                    conflicts.append(
                        NSConstraintConflict(
                            constraint: constraint.names, database: context.object(entity: entity, primaryKey: row.key, store: store),
                            databaseSnapshot: nil, conflicting: [object], conflictingSnapshots: []))
                    continue
                }
                try adopt(row: row, by: object)
                if policy == .mergeByPropertyObjectTrumpMergePolicyType || policy == .overwriteMergePolicyType {
                    becameUpdates.append(object)
                } else {
                    tookStoreValues.insert(ObjectIdentifier(object))
                }
                break
            }
        }
        if !conflicts.isEmpty {
            throw CoreDataError.make(
                NSManagedObjectConstraintMergeError, ConflictText.constraintFailure(conflicts),
                [NSPersistentStoreSaveConflictsErrorKey: conflicts])
        }
        let adopted = Set(becameUpdates.map(ObjectIdentifier.init)).union(tookStoreValues)
        inserted.removeAll { adopted.contains(ObjectIdentifier($0)) }
        updated += becameUpdates
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
        statement.bind(object.id.primaryKey ?? -1, at: Int32(constraint.slots.count + 1))
        guard try statement.step() else { return nil }
        return (statement.int64(at: 0), Int(statement.int64(at: 1)), statement.int64(at: 2))
    }

    /// The inserted object becomes the stored row's object: its ID and version are the row's.
    /// Under object-trump its values are then written over the row; otherwise it takes the
    /// row's values. An object registered for the row before leaves the context.
    private func adopt(row: (key: Int64, entity: Int, version: Int64), by object: NSManagedObject) throws {
        let id = NSManagedObjectID(
            entity: object.entity, rootEntityNumber: object.engine.rootNumber, key: .permanent(row.key), store: store)
        if let previous = context.registry[ObjectKey(id)], previous !== object {
            previous.context = nil
            context.changed.removeValue(forKey: ObjectIdentifier(previous))
        }
        context.registry.removeValue(forKey: ObjectKey(object.id))
        context.inserted.removeValue(forKey: ObjectIdentifier(object))
        object.id = id
        context.register(object)
        object.insertedFlag = false
        if object.changedFlag { context.noteChanged(object) }
        let local = object.valuesCopy
        let statement = try connection.cachedStatement(object.engine.selectByKeySQL)
        defer { statement.reset() }
        statement.bind(row.key, at: 1)
        guard try statement.step() else { return }
        context.fill(object, from: statement, store: store)
        if context.mergeType == .mergeByPropertyObjectTrumpMergePolicyType || context.mergeType == .overwriteMergePolicyType {
            for slot in 0..<object.engine.slotCount where !(local[slot] is ToManyUnloaded) {
                if local[slot] != nil || context.mergeType == .overwriteMergePolicyType,
                    !(object.engine.isRelationshipToMany(slot) && (local[slot] as? ToMany)?.objects.isEmpty == true)
                {
                    object.values[slot] = local[slot]
                }
            }
            object.writtenSlots.insertAll()
            object.changedFlag = true
            context.noteChanged(object)
        }
    }
}
#endif

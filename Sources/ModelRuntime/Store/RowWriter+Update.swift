#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension RowWriter {
    /// Writes an updated object's row, guarded by the `Z_OPT` it read; a row that changed (or
    /// went away) since is an optimistic-locking conflict.
    ///
    /// As Core Data does, the `UPDATE` sets `Z_OPT` and only the columns the object may have
    /// changed: those of the slots it wrote (``NSManagedObject/candidateChangedSlots``, the
    /// slots every change report and `hasChanges` look at), and every to-one column, so a
    /// destination deleted by the same save is written as NULL as before. The row's other
    /// columns hold the object's committed values already: the guard on `Z_OPT` fails when the
    /// row changed since they were read. Writing an unchanged indexed column costs SQLite an
    /// index entry removed and put back, and the commit a page; an object without committed
    /// values, or an entity of more than 64 written columns, writes every column.
    func update(_ object: NSManagedObject, conflicts: inout [NSMergeConflict]) throws {
        let entity = object.engine
        guard let key = object.rowKey else { return }
        let included = Self.changedColumns(of: object)
        let sql = included.map { updateSQL(of: entity, columns: $0) } ?? entity.updateSQL
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        let count = Int32(included?.nonzeroBitCount ?? entity.writtenColumns.count)
        statement.bind(object.version + 1, at: 1)
        bindColumns(of: object, to: statement, from: 2, included: included)
        statement.bind(key, at: count + 2)
        statement.bind(object.version, at: count + 3)
        try statement.step()
        guard connection.changes == 0 else { return }
        conflicts.append(try conflict(object, storeVersion: try currentVersion(of: object)))
    }

    /// The bits (by position in ``EngineEntity/writtenColumns``) of the columns an update of
    /// `object` sets, or nil for all of them.
    private static func changedColumns(of object: NSManagedObject) -> UInt64? {
        let entity = object.engine
        let columns = entity.writtenColumns
        guard object.hasCommitted, columns.count <= 64 else { return nil }
        let written = object.writtenSlots
        var included: UInt64 = 0
        for (offset, column) in columns.enumerated() {
            let toOne: Bool
            if case .toOne = entity.slotKinds[column.slot] { toOne = true } else { toOne = false }
            if toOne || written.contains(column.slot) { included |= 1 << UInt64(offset) }
        }
        return included.nonzeroBitCount == columns.count ? nil : included
    }

    /// The `UPDATE` setting `Z_OPT` and the written columns whose bits are set in `columns`.
    func updateSQL(of entity: EngineEntity, columns: UInt64) -> String {
        if let known = entity.partialUpdateSQL.withLock({ $0[columns] }) { return known }
        var assignments = ["Z_OPT = ?"]
        for (offset, written) in entity.writtenColumns.enumerated() where columns & (1 << UInt64(offset)) != 0 {
            assignments.append("\(entity.table.columns[Int(written.column)].name) = ?")
        }
        let sql = "UPDATE \(entity.table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
        entity.partialUpdateSQL.withLock { known in
            // Programs write a few sets of columns per entity; any more are made again.
            if known.count >= 256 { known.removeAll(keepingCapacity: true) }
            known[columns] = sql
        }
        return sql
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// One round of a save: its objects split by store, then the stores' conflicts found or the rows
/// written.
extension StoreSave {
    /// The objects of one store a round writes.
    struct StorePart {
        let store: NSPersistentStore
        let inserted: [NSManagedObject]
        let updated: [NSManagedObject]
        let deleted: [NSManagedObject]
        let checked: [NSManagedObject]
    }

    /// The save's objects by store, the stores in the order their transactions begin.
    func storeParts(of sets: SaveSets, unwritten: [ObjectIdentifier: NSManagedObject]) -> [StorePart] {
        // The usual save: one store, every object of it, nothing marked or left unwritten.
        let stores = coordinator.persistentStores
        if unwritten.isEmpty, graph.conflictChecked.isEmpty, stores.count == 1 {
            let store = stores[0]
            let number = store.registryNumber
            let ofStore = { (objects: [NSManagedObject]) in number != 0 && objects.allSatisfy { $0.storeNumber == number } }
            if ofStore(sets.inserted), ofStore(sets.updated), ofStore(sets.deleted) {
                if sets.inserted.isEmpty, sets.updated.isEmpty, sets.deleted.isEmpty { return [] }
                return [StorePart(store: store, inserted: sets.inserted, updated: sets.updated, deleted: sets.deleted, checked: [])]
            }
        }
        let updated = unwritten.isEmpty ? sets.updated : sets.updated.filter { unwritten[ObjectIdentifier($0)] == nil }
        // Unchanged objects marked by `detectConflicts(for:)` whose rows are checked too: those
        // still the graph's (holding its anchor: their `managedObjectContext` is the graph's
        // context).
        let written = Set((sets.inserted + sets.updated + sets.deleted).map(ObjectIdentifier.init))
        let anchor = graph.anchor
        let checked = graph.conflictChecked.values.filter {
            !written.contains(ObjectIdentifier($0)) && unwritten[ObjectIdentifier($0)] == nil && !$0.insertedFlag && !$0.deletedFlag
                && $0.hasCommitted && $0.anchor === anchor
        }
        // The objects of each store, by the store's registry number (no weak reference loaded,
        // nor ID made, per object).
        var numbers: Set<UInt32> = []
        for objects in [sets.inserted, updated, sets.deleted, checked] {
            for object in objects {
                let number = object.storeNumber
                if number != 0 { numbers.insert(number) }
            }
        }
        let writing = stores.filter { numbers.contains($0.registryNumber) }
        return writing.sorted(by: { $0.engine.storeUUID < $1.engine.storeUUID }).map { store in
            let number = store.registryNumber
            let mine = { (objects: [NSManagedObject]) in objects.filter { $0.storeNumber == number } }
            return StorePart(
                store: store, inserted: mine(sets.inserted), updated: mine(updated), deleted: mine(sets.deleted), checked: mine(checked))
        }
    }

    /// One round: the uniqueness check of every store, then, when it found no conflict, the
    /// rows written (optimistic-locking conflicts found as they are), else only the rows'
    /// versions compared, so the merge policy gets both kinds of conflicts at once.
    func findConflictsOrWrite(_ parts: [StorePart]) throws -> SaveConflicts {
        var conflicts = SaveConflicts()
        for part in parts {
            let writer = RowWriter(store: part.store)
            writer.discardDerivedValueChanges()
            conflicts.constraint += try writer.constraintConflicts(inserted: part.inserted, updated: part.updated, deleted: part.deleted)
        }
        // The store reports the stored rows it found; their objects are the graph's.
        for conflict in conflicts.constraint {
            if let row = conflict.databaseRow {
                conflict.settleDatabaseObject(graph.object(entity: row.entity, primaryKey: row.key, store: row.store))
            }
        }
        for part in parts {
            let writer = RowWriter(store: part.store)
            conflicts.optimistic +=
                conflicts.constraint.isEmpty
                ? try writer.writeRows(inserted: part.inserted, updated: part.updated, deleted: part.deleted, checked: part.checked)
                : try writer.versionConflicts(updated: part.updated, deleted: part.deleted, checked: part.checked)
        }
        return conflicts
    }
}
#endif

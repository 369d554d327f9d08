#if !canImport(CoreData)
import ModelQuery
import ModelStore

extension NSManagedObjectContext {
    /// Saves the changes: into the parent context for a child context, else into the stores in
    /// one SQLite transaction per store. Objects are validated first; a failed save changes
    /// nothing in the store and leaves the context's changes in place.
    public func save() throws {
        checkQueue()
        processPendingChanges()
        guard hasChanges else { return graph.settleUnchanged() }
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        let insertedNow = graph.insertedInOrder()
        // The set of inserted objects the change report just posted, while it is still the set
        // of `insertedNow` (the inserted table not changed since).
        let reportedInserted =
            ProcessedChanges.sameStorage(graph.processedChanges.insertedObjects, graph.inserted) ? graph.processedChanges.allInserted : nil
        let deletedNow = Array(graph.deleted.values)
        let updatedNow = graph.updatedToSave()
        var sets = SaveSets(inserted: insertedNow, updated: updatedNow, deleted: deletedNow)
        try sets.prepare()
        var reported = reportedInserted
        if let parent {
            try saveIntoParent(parent, inserted: insertedNow, updated: updatedNow, deleted: deletedNow)
        } else {
            guard let coordinator = persistentStoreCoordinator else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator")
            }
            // Objects inserted before the coordinator's first store was added are written with
            // the engine model of its stores.
            let model = coordinator.engineModel
            for object in insertedNow { object.rebind(to: model) }
            try KeyAllocation(graph: graph, coordinator: coordinator).givePermanentIDs(
                to: insertedNow.filter { !$0.hasID || $0.id.isTemporaryID })
            let written = try StoreSave(
                graph: graph, coordinator: coordinator, mergePolicy: mergePolicy,
                history: HistoryRecorder.Names(author: transactionAuthor, contextName: name)
            ).write(&sets)
            graph.applyDerivedValues(written.derived)
            if written.resolved {
                // The merge policy changed the context (see Save/StoreSave): the save reports
                // those changes as changes, then finishes with the objects it wrote.
                processPendingChanges()
                reported = nil
            }
        }
        finishSave(inserted: sets.inserted, updated: sets.updated, deleted: sets.deleted, reportedInserted: reported)
        graph.forgetConflictChecks()
        advanceQueryGeneration()
    }

    /// Marks the saved objects saved and posts the did-save notification. `reportedInserted` is
    /// the set of `insertedNow` when one was built already.
    private func finishSave(
        inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject], deleted deletedNow: [NSManagedObject],
        reportedInserted: Set<NSManagedObject>?
    ) {
        let savedInserted = graph.settleSaved(inserted: insertedNow, updated: updatedNow, deleted: deletedNow, intoStore: parent == nil)
        for objects in [insertedNow, updatedNow, deletedNow] { for object in objects { object.didSave() } }
        NotificationCenter.default.post(
            name: .NSManagedObjectContextDidSave, object: self,
            userInfo: ChangeInfo.saved(
                inserted: savedInserted.count == insertedNow.count && reportedInserted?.count == insertedNow.count
                    ? reportedInserted! : Set(savedInserted),
                updated: Set(updatedNow), deleted: Set(deletedNow)))
        // The same save by object ID (`NSManagedObjectContextDidSaveObjectIDsNotification`).
        NotificationCenter.default.post(
            name: .NSManagedObjectContextDidSaveObjectIDs, object: self,
            userInfo: ChangeInfo.savedIDs(
                inserted: Set(savedInserted.map(Self.savedID)), updated: Set(updatedNow.map(Self.savedID)),
                deleted: Set(deletedNow.map(Self.savedID))))
    }

    /// A saved object's ID for the object-ID notification, without keeping it in the object:
    /// objects saved for the first time stay without an ID object unless someone asks for theirs.
    private static func savedID(_ object: NSManagedObject) -> NSManagedObjectID {
        if let id = object.idStorage { return id }
        if let batches = object.batches { return batches.objectID(at: Int(object.batchPosition), entity: object.engine) }
        return object.objectID
    }

    // MARK: Child contexts

    /// Pushes the changes into the parent context, as unsaved changes there.
    private func saveIntoParent(
        _ parent: NSManagedObjectContext, inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject],
        deleted deletedNow: [NSManagedObject]
    ) throws {
        let inserts = insertedNow.map { (id: $0.id, entity: $0.entity, values: Snapshot.take($0, slots: nil)) }
        let updates = updatedNow.map { object in
            (id: object.id, values: Snapshot.take(object, slots: object.candidateChangedSlots.filter { object.isChanged($0) }))
        }
        let deletes = deletedNow.map(\.id)
        let box = UncheckedBox((inserts, updates, deletes))
        parent.performAndWait {
            let (inserts, updates, deletes) = box.value
            var made: [NSManagedObject] = []
            for insert in inserts {
                let type = ClassRegistry.objectClass(for: insert.entity)
                let object = type.init(entity: insert.entity, insertInto: nil)
                object.id = insert.id
                parent.graph.insertSaved(object)
                made.append(object)
            }
            for (object, insert) in zip(made, inserts) { Snapshot.apply(insert.values, to: object, in: parent) }
            for update in updates {
                let object = parent.object(with: update.id)
                if object.faultState != .materialized { object.fireFault() }
                Snapshot.apply(update.values, to: object, in: parent)
                parent.graph.noteSaved(object, slots: update.values.map(\.slot))
            }
            for id in deletes { parent.delete(parent.object(with: id)) }
            parent.processPendingChanges()
        }
    }
}

/// An object's values with related objects replaced by their IDs, to move between contexts.
enum Snapshot {
    enum Value {
        case value(Any?)
        case toOne(NSManagedObjectID?)
        case toMany([NSManagedObjectID])
        case unloaded
    }

    static func take(_ object: NSManagedObject, slots: [Int]?) -> [(slot: Int, value: Value)] {
        (slots ?? Array(0..<object.engine.slotCount)).map { slot in
            let value = object.values[slot]
            if value is ToManyUnloaded { return (slot, .unloaded) }
            if let toMany = value as? ToMany { return (slot, .toMany(toMany.objects.map(\.id))) }
            if object.engine.properties[slot] is NSRelationshipDescription {
                return (slot, .toOne((value as? NSManagedObject)?.id))
            }
            return (slot, .value(value))
        }
    }

    static func apply(_ values: [(slot: Int, value: Value)], to object: NSManagedObject, in context: NSManagedObjectContext) {
        for (slot, value) in values {
            switch value {
            case .value(let value): object.values[slot] = value
            case .toOne(let id): object.values[slot] = id.map { context.object(with: $0) }
            case .toMany(let ids): object.values[slot] = ToMany(ids.map { context.object(with: $0) })
            case .unloaded: if object.values[slot] == nil { object.values[slot] = ToManyUnloaded.marker }
            }
        }
    }
}
#endif

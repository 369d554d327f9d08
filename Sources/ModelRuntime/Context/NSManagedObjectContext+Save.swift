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
            saveIntoParent(parent, inserted: insertedNow, updated: updatedNow, deleted: deletedNow)
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

    /// Pushes the changes into the parent context, as unsaved changes there: taken here, on the
    /// child's queue, and received by the parent's graph on the parent's queue, which then
    /// processes them (its `NSManagedObjectContextObjectsDidChange`).
    private func saveIntoParent(
        _ parent: NSManagedObjectContext, inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject],
        deleted deletedNow: [NSManagedObject]
    ) {
        let box = UncheckedBox(ChildSave(inserted: insertedNow, updated: updatedNow, deleted: deletedNow))
        parent.performAndWait {
            parent.graph.receiveChildSave(box.value)
            parent.processPendingChanges()
        }
    }
}
#endif

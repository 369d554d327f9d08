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
        guard hasChanges else { return settleUnchangedObjects() }
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        let insertedNow = insertedInOrder()
        // The set of inserted objects the change report just posted, while it is still the set
        // of `insertedNow` (the inserted table not changed since).
        let reportedInserted =
            ProcessedChanges.sameStorage(processedChanges.insertedObjects, inserted) ? processedChanges.allInserted : nil
        let deletedNow = Array(deleted.values)
        let updatedNow = changed.values.filter { !$0.insertedFlag && !$0.deletedFlag && $0.hasPersistentChangedValues }
        for objects in [insertedNow, updatedNow, deletedNow] { for object in objects { object.willSave() } }
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError { errors.append(error) }
        }
        for object in insertedNow { collect { try object.validateForInsert() } }
        for object in updatedNow { collect { try object.validateForUpdate() } }
        for object in deletedNow { collect { try object.validateForDelete() } }
        try Validator.throwing(errors)
        var sets = SaveSets(inserted: insertedNow, updated: updatedNow, deleted: deletedNow)
        var reported = reportedInserted
        if let parent {
            try saveIntoParent(parent, inserted: insertedNow, updated: updatedNow, deleted: deletedNow)
        } else {
            // Objects inserted before the coordinator's first store was added are written with
            // the engine model of its stores.
            if let model = persistentStoreCoordinator?.engineModel { for object in insertedNow { object.rebind(to: model) } }
            try assignPermanentIDs(insertedNow.filter { !$0.hasID || $0.id.isTemporaryID })
            let written = try writeToStores(&sets)
            applyDerivedValues(written.derived)
            if written.resolved {
                // The merge policy changed the context (see +SaveConflicts): the save reports
                // those changes as changes, then finishes with the objects it wrote.
                processPendingChanges()
                reported = nil
            }
        }
        finishSave(inserted: sets.inserted, updated: sets.updated, deleted: sets.deleted, reportedInserted: reported)
        conflictChecked.removeAll()
        advanceQueryGeneration()
    }

    /// The inserted objects in insertion order: keys are given, and rows written, in that order,
    /// so neither has to sort them again. Insertion numbers are usually dense (one context
    /// inserting), so each object is placed by its number; other numbers are sorted.
    func insertedInOrder() -> [NSManagedObject] {
        let objects = Array(inserted.values)
        guard objects.count > 1 else { return objects }
        let numbers = objects.map(\.insertionOrder)
        let low = numbers.min()!
        let span = numbers.max()! - low
        if low > 0, span < UInt64(objects.count) * 4 {
            var places = [Int32](repeating: -1, count: Int(span) + 1)
            var unique = true
            for (index, number) in numbers.enumerated() {
                let place = Int(number - low)
                if places[place] >= 0 { unique = false }
                places[place] = Int32(index)
            }
            if unique { return places.compactMap { $0 >= 0 ? objects[Int($0)] : nil } }
        }
        // Objects without a number were given their permanent IDs earlier (a save that failed,
        // `obtainPermanentIDs(for:)`): their keys were allocated in insertion order.
        let keys = numbers.contains(0) ? objects.map { $0.rowKey ?? 0 } : []
        return numbers.indices.sorted {
            numbers[$0] != numbers[$1] ? numbers[$0] < numbers[$1] : !keys.isEmpty && keys[$0] < keys[$1]
        }.map { objects[$0] }
    }

    /// Marks the saved objects saved and posts the did-save notification. `reportedInserted` is
    /// the set of `insertedNow` when one was built already.
    private func finishSave(
        inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject], deleted deletedNow: [NSManagedObject],
        reportedInserted: Set<NSManagedObject>?
    ) {
        let writesStore = parent == nil
        var savedInserted: [NSManagedObject] = []
        savedInserted.reserveCapacity(insertedNow.count)
        // The anchor tells the object's context without loading the weak reference.
        for object in insertedNow where object.anchor === anchor {
            savedInserted.append(object)
            object.insertedFlag = false
            object.settleValues()
            if writesStore { object.version = 1 }
        }
        for object in updatedNow {
            object.settleValues()
            if writesStore { object.version += 1 }
        }
        for object in deletedNow {
            registry.removeValue(forKey: ObjectKey(object.id))
            object.context = nil
        }
        // Objects touched only as inverses (changed, not persistently) are clean now too.
        for object in changed.values where !object.deletedFlag { object.settleValues() }
        inserted.removeAll()
        deleted.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        // The save started by processing pending changes; what it reported is settled now, and
        // holding the saved objects for the next report would keep them alive (the registry
        // holds unchanged objects weakly).
        processedChanges = ProcessedChanges()
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
                object.context = parent
                object.insertedFlag = true
                parent.inserted[ObjectIdentifier(object)] = object
                parent.register(object)
                made.append(object)
            }
            for (object, insert) in zip(made, inserts) { Snapshot.apply(insert.values, to: object, in: parent) }
            for update in updates {
                let object = parent.object(with: update.id)
                if object.faultState != .materialized { object.fireFault() }
                Snapshot.apply(update.values, to: object, in: parent)
                for (slot, _) in update.values { object.writtenSlots.insert(slot) }
                parent.noteChanged(object)
                object.changedFlag = true
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

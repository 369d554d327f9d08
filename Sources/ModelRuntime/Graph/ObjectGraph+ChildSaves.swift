#if !canImport(CoreData)
import ModelQuery

/// What a child context's save pushes into its parent: its inserted, updated and deleted objects
/// by ID, with the values to save (related objects by ID), taken in the child's graph on the
/// child's queue and received by the parent's graph on the parent's queue, where they become
/// unsaved changes.
struct ChildSave {
    /// An object the child inserted: its ID, its entity and all its values.
    struct Insert {
        let id: NSManagedObjectID
        let entity: NSEntityDescription
        let values: ObjectSnapshot
    }

    /// A stored object the child changed: its ID and the values of its changed slots.
    struct Update {
        let id: NSManagedObjectID
        let values: ObjectSnapshot
    }

    /// The inserted objects, in the order the save gives them.
    let inserts: [Insert]
    /// The updated objects, in the order the save gives them.
    let updates: [Update]
    /// The IDs of the deleted objects.
    let deletes: [NSManagedObjectID]

    /// The changes of a child's save of `inserted`, `updated` and `deleted` (the objects of the
    /// child's graph the save found): every value of an inserted object, the changed values of
    /// an updated one.
    init(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) {
        inserts = inserted.map { Insert(id: $0.id, entity: $0.entity, values: ObjectSnapshot(of: $0, slots: nil)) }
        updates = updated.map { object in
            Update(id: object.id, values: ObjectSnapshot(of: object, slots: object.candidateChangedSlots.filter { object.isChanged($0) }))
        }
        deletes = deleted.map(\.id)
    }
}

extension ObjectGraph {
    /// Takes a child context's save as unsaved changes of the graph: the child's inserted objects
    /// are made and inserted (all of them first, so their values can name one another), then
    /// given their values; each updated object is materialized, given the saved values and
    /// marked changed in their slots; each deleted object is deleted with the relationships'
    /// delete rules (``delete(_:)``).
    func receiveChildSave(_ save: ChildSave) {
        var made: [NSManagedObject] = []
        for insert in save.inserts {
            let type = ClassRegistry.objectClass(for: insert.entity)
            let object = type.init(entity: insert.entity, insertInto: nil)
            object.id = insert.id
            insertSaved(object)
            made.append(object)
        }
        for (object, insert) in zip(made, save.inserts) { insert.values.apply(to: object, in: self) }
        for update in save.updates {
            let object = self.object(with: update.id)
            if object.faultState != .materialized { object.fireFault() }
            update.values.apply(to: object, in: self)
            noteSaved(object, slots: update.values.slots)
        }
        for id in save.deletes { delete(object(with: id)) }
    }

    /// Takes `object`, made with the ID of an object a child context saved inserted, as an
    /// inserted object of the graph.
    private func insertSaved(_ object: NSManagedObject) {
        object.anchor = anchor
        object.insertedFlag = true
        inserted[ObjectIdentifier(object)] = object
        register(object)
    }

    /// Marks `object` changed in `slots`, which a child context's save wrote.
    private func noteSaved(_ object: NSManagedObject, slots: [Int]) {
        for slot in slots { object.writtenSlots.insert(slot) }
        noteChanged(object)
        object.changedFlag = true
    }
}
#endif

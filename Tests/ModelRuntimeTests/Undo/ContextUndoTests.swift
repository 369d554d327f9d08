#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// A context with an undo manager records each `processPendingChanges()` as one undo step:
/// values, insertions and deletions (with what their delete rules changed) come back on undo and
/// go again on redo.
struct ContextUndoTests {
    /// A context with an undo manager over a store holding a trip with two stops.
    private func tripWithStops() throws -> (folder: EngineTestModel.Folder, context: NSManagedObjectContext) {
        let folder = EngineTestModel.Folder()
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        try context.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: context, ["name": "Alps"])
            for name in ["Bern", "Chur"] { _ = EngineTestModel.insert("Stop", into: context, ["name": name, "trip": trip]) }
            try context.save()
            context.reset()
            context.undoManager = UndoManager()
        }
        return (folder, context)
    }

    private func fetchOne(_ entity: String, _ context: NSManagedObjectContext, name: String? = nil) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        if let name { request.predicate = NSPredicate(format: "name == %@", name) }
        return try #require(try context.fetch(request).first)
    }

    private func stopNames(_ trip: NSManagedObject) -> [String] {
        ((trip.value(forKey: "stops") as? NSOrderedSet)?.array ?? []).compactMap {
            ($0 as? NSManagedObject)?.value(forKey: "name") as? String
        }
    }

    @Test func aChangedValueComesBackOnUndoAndGoesAgainOnRedo() throws {
        let (folder, context) = try tripWithStops()
        _ = folder
        try context.performAndWait {
            let trip = try fetchOne("Trip", context)
            trip.setValue("Jura", forKey: "name")
            context.processPendingChanges()
            trip.setValue("Vosges", forKey: "name")
            context.undo()
            #expect(trip.value(forKey: "name") as? String == "Jura")
            context.undo()
            #expect(trip.value(forKey: "name") as? String == "Alps")
            context.undo()  // nothing left to undo
            #expect(trip.value(forKey: "name") as? String == "Alps")
            context.redo()
            #expect(trip.value(forKey: "name") as? String == "Jura")
            context.redo()
            #expect(trip.value(forKey: "name") as? String == "Vosges")
        }
    }

    @Test func eachPerformBlockIsOneUndoStep() throws {
        let (folder, context) = try tripWithStops()
        _ = folder
        let trip = try context.performAndWait { try fetchOne("Trip", context) }
        // `perform` blocks are user events (processed at their end); `performAndWait` ones are
        // not, as in Core Data. The queue is serial, so the last block runs after both.
        let box = UncheckedSendable(trip)
        context.perform { box.value.setValue(1.5, forKey: "distance") }
        context.perform { box.value.setValue(2.5, forKey: "distance") }
        context.performAndWait {
            context.undo()
            #expect(trip.value(forKey: "distance") as? Double == 1.5)
            context.undo()
            #expect(trip.value(forKey: "distance") as? Double == 0)
        }
    }

    @Test func undoingAnInsertionTakesTheObjectOutAndRedoPutsItBack() throws {
        let (folder, context) = try tripWithStops()
        _ = folder
        try context.performAndWait {
            let trip = try fetchOne("Trip", context)
            let stop = EngineTestModel.insert("Stop", into: context, ["name": "Davos", "trip": trip])
            context.processPendingChanges()
            #expect(stopNames(trip) == ["Bern", "Chur", "Davos"])
            context.undo()
            #expect(!context.insertedObjects.contains(stop))
            #expect(stopNames(trip) == ["Bern", "Chur"])
            context.redo()
            #expect(context.insertedObjects.contains(stop))
            #expect(stopNames(trip) == ["Bern", "Chur", "Davos"])
            #expect(stop.value(forKey: "trip") as? NSManagedObject === trip)
            try context.save()
        }
        let (_, other) = try EngineTestModel.stack(url: folder.store)
        let stops = try other.performAndWait { try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Stop")) }
        #expect(stops == 3)
    }

    @Test func undoingADeletionBringsBackWhatItsRulesChanged() throws {
        let (folder, context) = try tripWithStops()
        _ = folder
        try context.performAndWait {
            let trip = try fetchOne("Trip", context)
            let bern = try fetchOne("Stop", context, name: "Bern")
            // Nullify: the trip loses the stop.
            context.delete(bern)
            context.processPendingChanges()
            #expect(stopNames(trip) == ["Chur"])
            final class Reported: @unchecked Sendable { var inserted: Set<NSManagedObject> = [] }
            let reported = Reported()
            let token = NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
            ) {
                reported.inserted.formUnion($0.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> ?? [])
            }
            context.undo()
            NotificationCenter.default.removeObserver(token)
            // Reported as inserted, so observers (a fetched-results controller) show it again.
            #expect(reported.inserted == [bern])
            #expect(!bern.isDeleted && context.deletedObjects.isEmpty)
            #expect(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Stop")).count == 2)
            #expect(stopNames(trip) == ["Bern", "Chur"])
            #expect(bern.value(forKey: "trip") as? NSManagedObject === trip)
            // Cascade: the trip takes its stops with it.
            context.delete(trip)
            context.processPendingChanges()
            #expect(context.deletedObjects.count == 3)
            context.undo()
            #expect(context.deletedObjects.isEmpty)
            #expect(stopNames(trip) == ["Bern", "Chur"])
            try context.save()
        }
        let (_, other) = try EngineTestModel.stack(url: folder.store)
        let counts = try other.performAndWait {
            (
                try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Stop")),
                try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Trip"))
            )
        }
        #expect(counts == (2, 1))
    }

    /// A main-queue context with an undo manager over a store holding a trip with two stops, for
    /// tests that use the (main-actor) undo manager directly.
    @MainActor
    private func mainContext(_ folder: EngineTestModel.Folder) throws -> (NSManagedObjectContext, UndoManager) {
        let (coordinator, setup) = try EngineTestModel.stack(url: folder.store)
        try setup.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: setup, ["name": "Alps"])
            for name in ["Bern", "Chur"] { _ = EngineTestModel.insert("Stop", into: setup, ["name": name, "trip": trip]) }
            try setup.save()
        }
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let manager = UndoManager()
        context.undoManager = manager
        return (context, manager)
    }

    @MainActor @Test func explicitGroupsJoinSeveralStepsIntoOne() throws {
        let folder = EngineTestModel.Folder()
        let (context, manager) = try mainContext(folder)
        let trip = try fetchOne("Trip", context)
        manager.beginUndoGrouping()
        trip.setValue("One", forKey: "name")
        context.processPendingChanges()
        trip.setValue(9.0, forKey: "distance")
        context.processPendingChanges()
        manager.endUndoGrouping()
        manager.setActionName("Edit Trip")
        #expect(manager.undoMenuItemTitle == "Undo Edit Trip")
        context.undo()
        #expect(trip.value(forKey: "name") as? String == "Alps")
        #expect(trip.value(forKey: "distance") as? Double == 0)
        #expect(!manager.canUndo && manager.canRedo)
    }

    @MainActor @Test func changesMadeWithRegistrationDisabledAreWhatAnUndoGoesBackTo() throws {
        let folder = EngineTestModel.Folder()
        let (context, manager) = try mainContext(folder)
        let trip = try fetchOne("Trip", context)
        trip.setValue("One", forKey: "name")
        context.processPendingChanges()
        manager.disableUndoRegistration()
        trip.setValue("Two", forKey: "name")
        context.processPendingChanges()
        manager.enableUndoRegistration()
        trip.setValue("Three", forKey: "name")
        context.undo()
        #expect(trip.value(forKey: "name") as? String == "Two")
        context.undo()
        #expect(trip.value(forKey: "name") as? String == "Alps")
    }

    @MainActor @Test func rollbackEmptiesTheUndoStackAndResetDropsTheContextsSteps() throws {
        let folder = EngineTestModel.Folder()
        let (context, manager) = try mainContext(folder)
        let trip = try fetchOne("Trip", context)
        trip.setValue("X", forKey: "name")
        context.processPendingChanges()
        #expect(manager.canUndo)
        context.rollback()
        #expect(!manager.canUndo)
        trip.setValue("Y", forKey: "name")
        context.processPendingChanges()
        #expect(manager.canUndo)
        context.reset()
        #expect(!manager.canUndo)
    }

    @Test func anUndoAfterASaveMakesTheOldValueAChangeToSave() throws {
        let (folder, context) = try tripWithStops()
        try context.performAndWait {
            let trip = try fetchOne("Trip", context)
            trip.setValue("Saved", forKey: "name")
            try context.save()
            #expect(!context.hasChanges)
            context.undo()
            #expect(context.hasChanges && trip.value(forKey: "name") as? String == "Alps")
            try context.save()
        }
        let (_, other) = try EngineTestModel.stack(url: folder.store)
        let name = try other.performAndWait { try fetchOne("Trip", other).value(forKey: "name") as? String }
        #expect(name == "Alps")
    }

    @Test func objectsAwakeFromTheSnapshotEventsThatPutTheirValuesBack() throws {
        let folder = EngineTestModel.Folder()
        let model = EngineTestModel.make()
        model.entitiesByName["Trip"]!.managedObjectClassName = "SnapshotTrip"
        let (_, context) = try EngineTestModel.stack(model: model, url: folder.store)
        try context.performAndWait {
            context.undoManager = UndoManager()
            let trip = SnapshotTrip(context: context)
            trip.setValue("Alps", forKey: "name")
            try context.save()
            trip.setValue("Jura", forKey: "name")
            context.undo()
            #expect(trip.events == [.undoUpdate])
            context.delete(trip)
            context.undo()
            #expect(trip.events.last == .undoDeletion)
            let added = SnapshotTrip(context: context)
            added.setValue("New", forKey: "name")
            context.undo()
            #expect(added.events == [.undoInsertion])
            trip.setValue("Vosges", forKey: "name")
            context.rollback()
            #expect(trip.events.last == .rollback)
            #expect(NSSnapshotEventType.undoInsertion.rawValue == 2 && NSSnapshotEventType.mergePolicy.rawValue == 64)
        }
    }

    @Test func withoutAnUndoManagerNothingIsRecorded() throws {
        let (folder, context) = try tripWithStops()
        _ = folder
        try context.performAndWait {
            context.undoManager = nil
            let trip = try fetchOne("Trip", context)
            trip.setValue("Z", forKey: "name")
            context.processPendingChanges()
            context.undo()
            #expect(trip.value(forKey: "name") as? String == "Z")
        }
    }

    @MainActor @Test func theManagersOwnUndoProcessesAMainQueueContextsPendingChangesFirst() throws {
        let folder = EngineTestModel.Folder()
        let (context, manager) = try mainContext(folder)
        let trip = try fetchOne("Trip", context)
        trip.setValue("Jura", forKey: "name")
        // Not processed yet: the manager's checkpoint makes the context process it.
        #expect(manager.canUndo == false)
        manager.undo()
        #expect(trip.value(forKey: "name") as? String == "Alps")
        #expect(manager.canRedo)
    }
}
/// A trip that lists the snapshot events it awoke from.
final class SnapshotTrip: NSManagedObject {
    var events: [NSSnapshotEventType] = []
    override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
        events.append(flags)
    }
}

/// Hands a non-`Sendable` object to a block of its context's queue.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// How a save hands its conflicts to the merge policy and what it does with the outcome: the
/// snapshots the conflicts carry, a failed save putting the context back after a resolution
/// changed it, rounds that never settle, objects a policy inserts, and the versions of objects
/// that took a stored row's place.
struct MergePolicyResolutionTests {
    /// Calls `super`, records that it did, then refuses the save.
    final class ResolveThenThrowPolicy: NSMergePolicy {
        var resolved = 0
        /// The context's inserted objects once `super` resolved the conflicts.
        var insertedAfterSuper: Int?

        init(after type: NSMergePolicyType) { super.init(merge: type) }

        override func resolve(mergeConflicts list: [Any]) throws {
            try super.resolve(mergeConflicts: list)
            resolved += 1
            let context = list.compactMap { ($0 as? NSConstraintConflict)?.conflictingObjects.first?.managedObjectContext }.first
            insertedAfterSuper = context?.insertedObjects.count
            throw NSError(domain: "MergePolicyResolutionTests", code: 1)
        }
    }

    /// Records the conflicts it gets, then resolves them as its merge type does.
    final class RecordingPolicy: NSMergePolicy {
        var conflicts: [Any] = []
        var calls = 0

        init(recording type: NSMergePolicyType) { super.init(merge: type) }

        override func resolve(mergeConflicts list: [Any]) throws {
            calls += 1
            conflicts += list
            try super.resolve(mergeConflicts: list)
        }
    }

    /// Resolves nothing.
    final class IdlePolicy: NSMergePolicy {
        var calls = 0

        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(mergeConflicts list: [Any]) throws { calls += 1 }
    }

    /// Inserts a person named after each constraint conflict, resolves as object-trump, and
    /// with `refuses` then fails the save.
    final class InsertingPolicy: NSMergePolicy {
        let refuses: Bool
        var inserted: [NSManagedObject] = []

        init(refuses: Bool) {
            self.refuses = refuses
            super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            for conflict in list {
                guard let context = conflict.conflictingObjects.first?.managedObjectContext else { continue }
                inserted.append(EngineTestModel.insert("Person", into: context, ["name": "resolved \(conflict.constraint)"]))
            }
            try super.resolve(constraintConflicts: list)
            if refuses { throw NSError(domain: "MergePolicyResolutionTests", code: 2) }
        }
    }

    /// Inserts a person at each call, and resolves as object-trump only from its second call, so
    /// the save takes three rounds.
    final class LateResolvingPolicy: NSMergePolicy {
        var calls = 0

        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(mergeConflicts list: [Any]) throws {
            calls += 1
            guard let context = (list.first as? NSMergeConflict)?.sourceObject.managedObjectContext else { return }
            _ = EngineTestModel.insert("Person", into: context, ["name": "resolution \(calls)"])
            if calls > 1 { try super.resolve(mergeConflicts: list) }
        }
    }

    static func context(_ folder: EngineTestModel.Folder, policy: Any = NSMergePolicy.error) throws -> NSManagedObjectContext {
        let (_, context) = try EngineTestModel.stack(url: folder.store)
        context.mergePolicy = policy
        return context
    }

    static func fetch(_ entity: String, _ format: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: format)
        return try #require(try context.fetch(request).first)
    }

    /// Tags x (uses 1) and y (uses 2), trip T (note "original", legs 1, tagged y, one stop S) and
    /// trip U.
    static func store(_ folder: EngineTestModel.Folder) throws {
        let setup = try context(folder)
        try setup.performAndWait { () throws in
            _ = EngineTestModel.insert("Tag", into: setup, ["name": "x", "uses": Int32(1)])
            let y = EngineTestModel.insert("Tag", into: setup, ["name": "y", "uses": Int32(2)])
            let trip = EngineTestModel.insert("Trip", into: setup, ["name": "T", "note": "original", "legs": Int64(1)])
            trip.mutableSetValue(forKey: "tags").add(y)
            let stop = EngineTestModel.insert("Stop", into: setup, ["name": "S"])
            stop.setValue(trip, forKey: "trip")
            _ = EngineTestModel.insert("Trip", into: setup, ["name": "U"])
            try setup.save()
        }
    }

    /// Another coordinator changes trip T's legs (and with `stop`, stop S's name) or deletes it.
    static func theyChangeTrip(_ folder: EngineTestModel.Folder, delete: Bool = false, stop: Bool = false) throws {
        let theirs = try context(folder)
        try theirs.performAndWait { () throws in
            let trip = try fetch("Trip", "name == 'T'", in: theirs)
            if delete {
                theirs.delete(trip)
            } else {
                trip.setValue(Int64(99), forKey: "legs")
            }
            if stop { try fetch("Stop", "name == 'S'", in: theirs).setValue("S2", forKey: "name") }
            try theirs.save()
        }
    }

    /// The stored rows, read through a coordinator of their own.
    static func storedRows(_ folder: EngineTestModel.Folder) throws -> [String] {
        let reader = try context(folder)
        return try reader.performAndWait { () throws in
            var rows: [String] = []
            for entity in ["Tag", "Trip", "Person"] {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
                for object in try reader.fetch(request) {
                    let keys = object.entity.attributesByName.keys.sorted()
                    rows.append("\(entity) " + keys.map { "\($0)=\(object.value(forKey: $0) ?? "nil")" }.joined(separator: " "))
                }
            }
            return rows
        }
    }

    /// Everything an app can see of an object: its ID, state, context, values, committed values
    /// and changed keys.
    static func describe(_ object: NSManagedObject, in context: NSManagedObjectContext) -> String {
        let keys = object.entity.attributesByName.keys.sorted()
        let values = keys.map { "\($0)=\(object.value(forKey: $0) ?? "nil")" }
        let committed = object.committedValues(forKeys: keys)
        return [
            object.objectID.uriRepresentation().absoluteString, "inserted \(object.isInserted)", "updated \(object.isUpdated)",
            "deleted \(object.isDeleted)", "in context \(object.managedObjectContext === context)",
            "values \(values)", "committed \(keys.map { "\($0)=\(committed[$0] ?? "-")" })",
            "changed \(object.changedValues().keys.sorted())",
        ].joined(separator: "; ")
    }

    @Test func aSaveThatFailsAfterAResolutionLeavesTheContextAsItWas() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let policy = ResolveThenThrowPolicy(after: .mergeByPropertyObjectTrumpMergePolicyType)
        let mine = try Self.context(folder, policy: policy)
        let objects: [NSManagedObject] = try mine.performAndWait { () throws in
            let trip = try Self.fetch("Trip", "name == 'T'", in: mine)
            _ = trip.value(forKey: "note")
            let storedX = try Self.fetch("Tag", "name == 'x'", in: mine)
            let y = try Self.fetch("Tag", "name == 'y'", in: mine)
            let u = try Self.fetch("Trip", "name == 'U'", in: mine)
            return [trip, storedX, y, u]
        }
        let (trip, storedX, y, u) = (objects[0], objects[1], objects[2], objects[3])
        try Self.theyChangeTrip(folder)
        let rowsBefore = try Self.storedRows(folder)
        try mine.performAndWait { () throws in
            trip.setValue("mine", forKey: "note")
            y.setValue(Int32(7), forKey: "uses")
            mine.delete(u)
            let upsert = EngineTestModel.insert("Tag", into: mine, ["name": "x", "uses": Int32(5)])
            let first = EngineTestModel.insert("Tag", into: mine, ["name": "n", "uses": Int32(1)])
            let second = EngineTestModel.insert("Tag", into: mine, ["name": "n", "uses": Int32(2)])
            // A save gives inserted objects permanent IDs first, kept when it fails (as before
            // merge policies ran in the context): compare with the objects as they are then.
            try mine.obtainPermanentIDs(for: [upsert, first, second])
            let all = [trip, storedX, y, u, upsert, first, second]
            let storedXID = storedX.objectID
            let before = all.map { Self.describe($0, in: mine) }
            let sets = { (mine.insertedObjects, mine.updatedObjects, mine.deletedObjects) }
            let setsBefore = sets()
            do {
                try mine.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.domain == "MergePolicyResolutionTests" && error.code == 1)
            }
            #expect(policy.resolved == 1)
            // Super took the stored row for the new x and dropped the first n: undone since.
            #expect(policy.insertedAfterSuper == 1)
            #expect(all.map { Self.describe($0, in: mine) } == before)
            let setsAfter = sets()
            #expect(setsAfter.0 == setsBefore.0 && setsAfter.1 == setsBefore.1 && setsAfter.2 == setsBefore.2)
            #expect(mine.registeredObject(for: storedXID) === storedX)
            #expect(mine.registeredObject(for: upsert.objectID) === upsert)
        }
        #expect(try Self.storedRows(folder) == rowsBefore)
        // The context, as it was, saves under a policy that lets it.
        let resolving = RecordingPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        try mine.performAndWait { () throws in
            mine.mergePolicy = resolving
            try mine.save()
            #expect(!mine.hasChanges)
        }
        let rows = try Self.storedRows(folder)
        #expect(rows.contains { $0.hasPrefix("Tag name=n uses=2") } && !rows.contains { $0.hasPrefix("Tag name=n uses=1") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("Tag name=x uses=5") } && rows.contains { $0.hasPrefix("Tag name=y uses=7") })
        #expect(rows.contains { $0.contains("legs=99") && $0.contains("note=mine") })
        #expect(!rows.contains { $0.contains("name=U") })
        #expect(rows.filter { $0.hasPrefix("Tag") }.count == 3)
    }

    @Test func mergeConflictsCarryTheValuesReadAndTheRowNowStored() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let policy = RecordingPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        let mine = try Self.context(folder, policy: policy)
        let (trip, stop) = try mine.performAndWait { () throws in
            (try Self.fetch("Trip", "name == 'T'", in: mine), try Self.fetch("Stop", "name == 'S'", in: mine))
        }
        try Self.theyChangeTrip(folder, stop: true)
        try mine.performAndWait { () throws in
            trip.setValue("mine", forKey: "note")
            stop.setValue(Int16(3), forKey: "order")
            try mine.save()
        }
        let conflicts = policy.conflicts.compactMap { $0 as? NSMergeConflict }
        #expect(policy.calls == 1 && conflicts.count == 2)
        let tripConflict = try #require(conflicts.first { $0.sourceObject === trip })
        #expect(tripConflict.oldVersionNumber == 1 && tripConflict.newVersionNumber == 2)
        // What the context read (inferred: see docs/runtime/Conflicts.md).
        #expect(tripConflict.objectSnapshot?["legs"] as? Int64 == 1 && tripConflict.objectSnapshot?["note"] as? String == "original")
        #expect(tripConflict.cachedSnapshot?["legs"] as? Int64 == 1)
        // The row now stored; attributes and to-ones only (the header).
        #expect(tripConflict.persistedSnapshot?["legs"] as? Int64 == 99 && tripConflict.persistedSnapshot?["note"] as? String == "original")
        #expect(tripConflict.persistedSnapshot?["tags"] == nil && tripConflict.objectSnapshot?["stops"] == nil)
        #expect(tripConflict.persistedSnapshot?["start"] is NSNull)
        let stopConflict = try #require(conflicts.first { $0.sourceObject === stop })
        #expect(stopConflict.persistedSnapshot?["trip"] as? NSManagedObjectID == trip.objectID)
        #expect(stopConflict.objectSnapshot?["trip"] as? NSManagedObjectID == trip.objectID)
        #expect(stopConflict.persistedSnapshot?["name"] as? String == "S2")
    }

    @Test func aRowDeletedSinceItWasReadIsVersionZeroWithoutASnapshot() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let mine = try Self.context(folder)
        let trip = try mine.performAndWait { try Self.fetch("Trip", "name == 'T'", in: mine) }
        try Self.theyChangeTrip(folder, delete: true)
        let error: NSError? = mine.performAndWait {
            trip.setValue("mine", forKey: "note")
            do {
                try mine.save()
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = try #require((error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        #expect(conflict.newVersionNumber == 0 && conflict.oldVersionNumber == 1 && conflict.persistedSnapshot == nil)
    }

    @Test func aPolicyThatResolvesNothingFailsTheSaveAfterFiveRounds() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let policy = IdlePolicy()
        let mine = try Self.context(folder, policy: policy)
        let trip = try mine.performAndWait { try Self.fetch("Trip", "name == 'T'", in: mine) }
        try Self.theyChangeTrip(folder)
        let error: NSError? = mine.performAndWait {
            trip.setValue("mine", forKey: "note")
            do {
                try mine.save()
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(policy.calls == 5)
        #expect(error?.code == NSManagedObjectMergeError)
        #expect((error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.count == 1)
        mine.performAndWait { #expect(trip.changedValues().keys.sorted() == ["note"]) }
    }

    @Test func objectsAPolicyInsertsAreSavedOrLeaveWithAFailedSave() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let refusing = InsertingPolicy(refuses: true)
        let mine = try Self.context(folder, policy: refusing)
        try mine.performAndWait { () throws in
            _ = EngineTestModel.insert("Tag", into: mine, ["name": "x", "uses": Int32(5)])
            #expect(throws: (any Error).self) { try mine.save() }
            let person = try #require(refusing.inserted.first)
            #expect(person.managedObjectContext == nil && !mine.insertedObjects.contains(person))
            #expect(mine.insertedObjects.count == 1)
        }
        #expect(try !Self.storedRows(folder).contains { $0.hasPrefix("Person") })
        let saving = InsertingPolicy(refuses: false)
        try mine.performAndWait { () throws in
            mine.mergePolicy = saving
            try mine.save()
            let person = try #require(saving.inserted.first)
            #expect(!person.objectID.isTemporaryID && !person.isInserted)
        }
        #expect(try Self.storedRows(folder).contains { $0.hasPrefix("Person name=resolved [\"name\"]") })
        // Keys taken inside the save's transaction are not handed out again.
        let other = try Self.context(folder)
        try other.performAndWait { () throws in
            let person = EngineTestModel.insert("Person", into: other, ["name": "later"])
            try other.save()
            let people = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            #expect(people.count == 2 && Set(people.map(\.objectID)).contains(person.objectID))
        }
    }

    /// The first round is undone by restarting the transaction, later ones by a savepoint: the
    /// keys allocated for the objects a resolution inserted survive the next round's undoing, so
    /// no two rows get one key.
    @Test func objectsInsertedOverSeveralRoundsGetKeysOfTheirOwn() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let policy = LateResolvingPolicy()
        let mine = try Self.context(folder, policy: policy)
        let trip = try mine.performAndWait { () throws in try Self.fetch("Trip", "name == 'T'", in: mine) }
        try Self.theyChangeTrip(folder)
        try mine.performAndWait { () throws in
            trip.setValue("mine", forKey: "note")
            try mine.save()
            #expect(policy.calls == 2)
            let later = EngineTestModel.insert("Person", into: mine, ["name": "later"])
            try mine.save()
            let people = try mine.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            let keys = Set(people.map { $0.objectID.uriRepresentation() })
            #expect(people.count == 3)
            #expect(keys.count == 3)
            #expect(people.contains(later))
        }
        let rows = try Self.storedRows(folder)
        #expect(rows.filter { $0.hasPrefix("Person ") }.count == 3, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("Trip ") && $0.contains("legs=99") && $0.contains("note=mine") })
    }

    @Test func aMarkedObjectTheOverwritePolicyWroteSavesAgainWithoutAConflict() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let mine = try Self.context(folder, policy: NSMergePolicy.overwrite)
        let (trip, other) = try mine.performAndWait { () throws in
            let trip = try Self.fetch("Trip", "name == 'T'", in: mine)
            _ = trip.value(forKey: "legs")
            mine.detectConflicts(for: trip)
            return (trip, try Self.fetch("Trip", "name == 'U'", in: mine))
        }
        try Self.theyChangeTrip(folder)
        try mine.performAndWait { () throws in
            other.setValue("u", forKey: "note")
            try mine.save()
            mine.mergePolicy = NSMergePolicy.error
            trip.setValue("again", forKey: "note")
            try mine.save()
        }
        #expect(try Self.storedRows(folder).contains { $0.contains("legs=1 name=T note=again") })
    }

    @Test func anObjectThatTookAStoredRowsPlaceSavesAgainWithoutAConflict() throws {
        let folder = EngineTestModel.Folder()
        try Self.store(folder)
        let mine = try Self.context(folder, policy: NSMergePolicy.mergeByPropertyObjectTrump)
        try mine.performAndWait { () throws in
            let upsert = EngineTestModel.insert("Tag", into: mine, ["name": "x", "uses": Int32(5)])
            final class Saved: @unchecked Sendable { var notification: Notification? }
            let saved = Saved()
            let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: mine, queue: nil) {
                saved.notification = $0
            }
            try mine.save()
            NotificationCenter.default.removeObserver(token)
            // It was written as an update of the stored row.
            let info = saved.notification?.userInfo
            #expect((info?[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.contains(upsert) == true)
            #expect((info?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.contains(upsert) != true)
            mine.mergePolicy = NSMergePolicy.error
            upsert.setValue(Int32(6), forKey: "uses")
            try mine.save()
        }
        #expect(try Self.storedRows(folder).contains { $0.hasPrefix("Tag name=x uses=6") })
    }
}
#endif

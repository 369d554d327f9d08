#if !canImport(CoreData)
import ModelRuntime
import Testing

/// Uniqueness constraints and optimistic locking, resolved by the merge policies.
struct ConflictTests {
    static func context(sharing coordinator: NSPersistentStoreCoordinator, policy: Any = NSErrorMergePolicy) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.mergePolicy = policy
        return context
    }

    static func tags(_ context: NSManagedObjectContext) throws -> [(String, Int32)] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.includesPendingChanges = false
        return try context.fetch(request).map { ($0.value(forKey: "name") as? String ?? "", $0.value(forKey: "uses") as? Int32 ?? -1) }
    }

    @Test func aDuplicateUniqueValueFailsUnderTheErrorPolicy() throws {
        let (_, context) = try EngineTestModel.stack()
        try context.performAndWait {
            _ = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 1])
            try context.save()
            let duplicate = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 2])
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                #expect(error.code == NSManagedObjectConstraintMergeError)
                let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict] ?? []
                #expect(conflicts.count == 1 && conflicts.first?.constraint == ["name"])
                #expect(conflicts.first?.conflictingObjects.first === duplicate)
                #expect(conflicts.first?.databaseObject != nil)
            }
            #expect(duplicate.isInserted)
            #expect(try Self.tags(context).map(\.1) == [1])
        }
    }

    @Test func objectTrumpUpdatesTheExistingRow() throws {
        let (coordinator, setup) = try EngineTestModel.stack()
        try setup.performAndWait {
            _ = EngineTestModel.insert("Tag", into: setup, ["name": "x", "uses": 1])
            _ = EngineTestModel.insert("Tag", into: setup, ["name": "y", "uses": 1])
            try setup.save()
        }
        let context = Self.context(sharing: coordinator, policy: NSMergeByPropertyObjectTrumpMergePolicy)
        try context.performAndWait {
            let upsert = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 5])
            try context.save()
            #expect(!upsert.objectID.isTemporaryID && !upsert.isInserted)
            #expect(try Self.tags(context).map(\.0) == ["x", "y"])
            #expect(try Self.tags(context).map(\.1) == [5, 1])
        }
    }

    @Test func storeTrumpKeepsTheExistingRow() throws {
        let (coordinator, setup) = try EngineTestModel.stack()
        try setup.performAndWait {
            _ = EngineTestModel.insert("Tag", into: setup, ["name": "x", "uses": 1])
            try setup.save()
        }
        let context = Self.context(sharing: coordinator, policy: NSMergeByPropertyStoreTrumpMergePolicy)
        try context.performAndWait {
            let kept = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 5])
            try context.save()
            #expect(kept.value(forKey: "uses") as? Int32 == 1)
            #expect(try Self.tags(context).map(\.1) == [1])
        }
    }

    static func conflictingEdit(policy: Any) throws -> (
        mine: NSManagedObjectContext, trip: NSManagedObject, error: NSError?, store: [String]
    ) {
        let (coordinator, setup) = try EngineTestModel.stack()
        let id: NSManagedObjectID = try setup.performAndWait {
            let trip = EngineTestModel.insert("Trip", into: setup, ["name": "T", "note": "original"])
            try setup.save()
            return trip.objectID
        }
        let mine = Self.context(sharing: coordinator, policy: policy)
        let theirs = Self.context(sharing: coordinator)
        let trip = try mine.performAndWait { try mine.existingObject(with: id) }
        try theirs.performAndWait {
            let object = try theirs.existingObject(with: id)
            object.setValue("theirs", forKey: "note")
            object.setValue(99, forKey: "legs")
            try theirs.save()
        }
        var failure: NSError?
        mine.performAndWait {
            trip.setValue("mine", forKey: "note")
            do { try mine.save() } catch let error as NSError { failure = error }
        }
        let reader = Self.context(sharing: coordinator)
        let stored: [String] = try reader.performAndWait {
            let object = try reader.existingObject(with: id)
            return ["\(object.value(forKey: "note") ?? "nil")", "\(object.value(forKey: "legs") ?? "nil")"]
        }
        return (mine, trip, failure, stored)
    }

    @Test func aRowChangedSinceItWasReadFailsTheSaveUnderTheErrorPolicy() throws {
        let result = try Self.conflictingEdit(policy: NSErrorMergePolicy)
        #expect(result.error?.code == NSManagedObjectMergeError)
        let conflicts = result.error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
        #expect(conflicts.first?.sourceObject === result.trip && conflicts.first?.newVersionNumber == 2)
        #expect(result.store == ["theirs", "99"])
        result.mine.performAndWait { #expect(result.trip.hasChanges) }
    }

    @Test func objectTrumpKeepsMyChangesAndTheirOtherChanges() throws {
        let result = try Self.conflictingEdit(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(result.error == nil)
        #expect(result.store == ["mine", "99"])
    }

    @Test func storeTrumpKeepsTheirChanges() throws {
        let result = try Self.conflictingEdit(policy: NSMergeByPropertyStoreTrumpMergePolicy)
        #expect(result.error == nil)
        #expect(result.store == ["theirs", "99"])
    }

    @Test func overwriteWritesTheWholeObject() throws {
        let result = try Self.conflictingEdit(policy: NSOverwriteMergePolicy)
        #expect(result.error == nil)
        #expect(result.store == ["mine", "1"])
    }

    @Test func rollbackDropsMyChanges() throws {
        let result = try Self.conflictingEdit(policy: NSRollbackMergePolicy)
        #expect(result.error == nil)
        #expect(result.store == ["theirs", "99"])
        result.mine.performAndWait { #expect(result.trip.value(forKey: "note") as? String == "theirs") }
    }
}
#endif

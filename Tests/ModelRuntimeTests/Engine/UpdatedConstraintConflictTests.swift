#if !canImport(CoreData)
import ModelRuntime
import Testing

/// An *updated* object that takes a unique value another stored row has is resolved by the
/// merge policy as Core Data's policies resolve it, instead of failing the save.
struct UpdatedConstraintConflictTests {
    struct Outcome {
        var error: NSError?
        /// (name, uses) of the stored tags, by name.
        var stored: [String]
        var renamedIsDeleted: Bool
        var renamedName: String?
        /// Names of the tags of the trip that was tagged with the renamed tag.
        var tripTags: [String]
    }

    /// Tags x (uses 1) and y (uses 2, on a trip) are saved; a context with `policy` renames y to
    /// x with uses 7 and saves.
    static func renameOntoExisting(policy: Any) throws -> Outcome {
        let (coordinator, setup) = try EngineTestModel.stack()
        try setup.performAndWait { () throws in
            _ = EngineTestModel.insert("Tag", into: setup, ["name": "x", "uses": 1])
            let y = EngineTestModel.insert("Tag", into: setup, ["name": "y", "uses": 2])
            let trip = EngineTestModel.insert("Trip", into: setup, ["name": "T"])
            trip.mutableSetValue(forKey: "tags").add(y)
            try setup.save()
        }
        let context = ConflictTests.context(sharing: coordinator, policy: policy)
        return try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
            request.predicate = NSPredicate(format: "name == 'y'")
            let y = try #require(try context.fetch(request).first)
            y.setValue("x", forKey: "name")
            y.setValue(Int32(7), forKey: "uses")
            var error: NSError?
            do { try context.save() } catch let failure as NSError { error = failure }
            let reader = ConflictTests.context(sharing: coordinator)
            let stored = try reader.performAndWait { () throws in try ConflictTests.tags(reader).map { "\($0.0)=\($0.1)" } }
            let trip = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip")).first)
            let tripTags = ((trip.value(forKey: "tags") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "name") as? String }
            return Outcome(
                error: error, stored: stored, renamedIsDeleted: y.isDeleted || y.managedObjectContext == nil,
                renamedName: y.managedObjectContext == nil ? nil : y.value(forKey: "name") as? String, tripTags: tripTags.sorted())
        }
    }

    @Test func theErrorPolicyStillFails() throws {
        let outcome = try Self.renameOntoExisting(policy: NSErrorMergePolicy)
        #expect(outcome.error?.code == NSManagedObjectConstraintMergeError)
        #expect(outcome.stored == ["x=1", "y=2"])
    }

    @Test func objectTrumpMovesTheChangesOntoTheStoredObjectAndDeletesTheUpdatedOne() throws {
        let outcome = try Self.renameOntoExisting(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(outcome.error == nil)
        #expect(outcome.stored == ["x=7"])
        #expect(outcome.renamedIsDeleted)
        #expect(outcome.tripTags == ["x"])
    }

    @Test func storeTrumpKeepsTheStoredValuesAndDeletesTheUpdatedOne() throws {
        let outcome = try Self.renameOntoExisting(policy: NSMergeByPropertyStoreTrumpMergePolicy)
        #expect(outcome.error == nil)
        #expect(outcome.stored == ["x=1"])
        #expect(outcome.renamedIsDeleted)
        #expect(outcome.tripTags == ["x"])
    }

    @Test func overwriteKeepsTheUpdatedObjectAndDeletesTheStoredOne() throws {
        let outcome = try Self.renameOntoExisting(policy: NSOverwriteMergePolicy)
        #expect(outcome.error == nil)
        #expect(outcome.stored == ["x=7"])
        #expect(!outcome.renamedIsDeleted && outcome.renamedName == "x")
        #expect(outcome.tripTags == ["x"])
    }

    @Test func rollbackDropsTheUpdatedObjectsChanges() throws {
        let outcome = try Self.renameOntoExisting(policy: NSRollbackMergePolicy)
        #expect(outcome.error == nil)
        #expect(outcome.stored == ["x=1", "y=2"])
        #expect(!outcome.renamedIsDeleted && outcome.renamedName == "y")
        #expect(outcome.tripTags == ["y"])
    }
}
#endif

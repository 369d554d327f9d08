import Foundation
import Testing

/// Merge policies an app writes: subclasses of `NSMergePolicy` overriding
/// `resolve(mergeConflicts:)`, `resolve(optimisticLockingConflicts:)` or
/// `resolve(constraintConflicts:)`, calling `super` or resolving conflicts themselves. Evidence:
/// the SDK's `NSMergePolicy.h` (subclasses init with the closest merge type and customise the
/// results of calling super; `-resolveConflicts:error:` "Calls
/// -resolveOptimisticLockingVersionConflicts:error: and then -resolveConstraintConflicts:error:";
/// the snapshots "include values for all attributes and to-one relationships"; a constraint
/// conflict "between a single object being saved ... and the external store" has "a database
/// object, the current row snapshot for the database object, plus a single conflicting object",
/// one between objects of one context "a nil database object" and "multiple conflicting
/// objects"; `-[NSMergeConflict initWithSource:newVersion:oldVersion:cachedSnapshot:persistedSnapshot:]`:
/// a conflict with the external store has "a cached snapshot and a persisted snapshot") and
/// Apple's documentation of `NSManagedObjectContext.save()` (it throws the error that made it
/// fail).
///
/// Conflicts with another writer come from a second coordinator on the same store file, so the
/// row changed under the first coordinator's feet, as another process would change it.
struct CustomMergePolicyTests {
    /// Tag: `name` (unique), `count`, `note`.
    static func model() -> NSManagedObjectModel {
        let tag = ModelBuilder.entity(
            "Tag",
            [
                ModelBuilder.attribute("name", .stringAttributeType, optional: false),
                ModelBuilder.attribute("count", .integer64AttributeType),
                ModelBuilder.attribute("note", .stringAttributeType),
            ])
        tag.uniquenessConstraints = [["name"]]
        return ModelBuilder.model([tag])
    }

    /// A context of a coordinator of its own on the store in `folder`.
    static func context(_ model: NSManagedObjectModel, in folder: TemporaryFolder, policy: Any = NSMergePolicy.error) throws
        -> NSManagedObjectContext
    {
        let (_, context) = try makeStack(model, in: folder)
        context.mergePolicy = policy
        return context
    }

    static func insertTag(_ name: String, count: Int64, note: String? = nil, into context: NSManagedObjectContext) -> NSManagedObject {
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue(name, forKey: "name")
        tag.setValue(count, forKey: "count")
        tag.setValue(note, forKey: "note")
        return tag
    }

    static func tag(named name: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try context.fetch(request).first
    }

    /// The stored tags as `name=count/note`, by name, read through a coordinator of its own.
    static func storedTags(_ model: NSManagedObjectModel, in folder: TemporaryFolder) throws -> [String] {
        let reader = try context(model, in: folder)
        return try reader.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try reader.fetch(request).map { tag in
                let name = tag.value(forKey: "name") as? String ?? "?"
                let count = (tag.value(forKey: "count") as? Int64).map(String.init) ?? "nil"
                return "\(name)=\(count)/\(tag.value(forKey: "note") as? String ?? "nil")"
            }
        }
    }

    /// A store with tags x (count 1, note "a") and y (count 2).
    static func storeWithTags(_ model: NSManagedObjectModel, in folder: TemporaryFolder) throws {
        let setup = try context(model, in: folder)
        try setup.performAndWait { () throws in
            _ = insertTag("x", count: 1, note: "a", into: setup)
            _ = insertTag("y", count: 2, into: setup)
            try setup.save()
        }
    }

    /// Another writer sets tag x's note to "theirs".
    static func theyChangeTagX(_ model: NSManagedObjectModel, in folder: TemporaryFolder) throws {
        let theirs = try context(model, in: folder)
        try theirs.performAndWait { () throws in
            try #require(try tag(named: "x", in: theirs)).setValue("theirs", forKey: "note")
            try theirs.save()
        }
    }

    // MARK: Policies

    /// Object-trump, recording the constraint conflicts it is given before resolving them.
    final class RecordingConstraintPolicy: NSMergePolicy {
        struct Seen {
            var constraint: [String]
            var conflictingObjects: [NSManagedObject]
            var databaseObject: NSManagedObject?
            var databaseSnapshot: [String: Any]?
        }

        var seen: [Seen] = []

        init(recording type: NSMergePolicyType) { super.init(merge: type) }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            seen += list.map {
                Seen(
                    constraint: $0.constraint, conflictingObjects: $0.conflictingObjects, databaseObject: $0.databaseObject,
                    databaseSnapshot: $0.databaseSnapshot)
            }
            try super.resolve(constraintConflicts: list)
        }
    }

    /// Resolves constraint conflicts itself, without `super`: of the tags with one name, the one
    /// with the largest count stays; a stored tag takes the largest count and the inserted one
    /// is deleted.
    final class LargestCountPolicy: NSMergePolicy {
        init() { super.init(merge: .errorMergePolicyType) }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            var dropped: Set<ObjectIdentifier> = []
            func count(_ object: NSManagedObject) -> Int64 { object.value(forKey: "count") as? Int64 ?? 0 }
            for conflict in list where conflict.databaseObject == nil {
                let objects = conflict.conflictingObjects.filter { !dropped.contains(ObjectIdentifier($0)) }
                guard let kept = objects.max(by: { count($0) < count($1) }) else { continue }
                for object in objects where object !== kept {
                    dropped.insert(ObjectIdentifier(object))
                    object.managedObjectContext?.delete(object)
                }
            }
            for conflict in list {
                guard let stored = conflict.databaseObject, let object = conflict.conflictingObjects.first,
                    !dropped.contains(ObjectIdentifier(object))
                else { continue }
                if count(object) > count(stored) { stored.setValue(count(object), forKey: "count") }
                dropped.insert(ObjectIdentifier(object))
                object.managedObjectContext?.delete(object)
            }
        }
    }

    /// Object-trump, recording what its optimistic-locking conflicts say.
    final class RecordingOptimisticPolicy: NSMergePolicy {
        var seen: [(source: NSManagedObject, old: Int, new: Int, persistedNote: Any?)] = []

        init(recording type: NSMergePolicyType) { super.init(merge: type) }

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            seen += list.map { ($0.sourceObject, $0.oldVersionNumber, $0.newVersionNumber, $0.persistedSnapshot?["note"]) }
            try super.resolve(optimisticLockingConflicts: list)
        }
    }

    /// Object-trump, recording which of its methods run, in order.
    final class CallOrderPolicy: NSMergePolicy {
        var calls: [String] = []

        init(recording type: NSMergePolicyType) { super.init(merge: type) }

        override func resolve(mergeConflicts list: [Any]) throws {
            calls.append("mergeConflicts")
            try super.resolve(mergeConflicts: list)
        }

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            calls.append("optimisticLocking")
            try super.resolve(optimisticLockingConflicts: list)
        }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            calls.append("constraint")
            try super.resolve(constraintConflicts: list)
        }
    }

    /// Refuses every conflict with an error of its own.
    final class RefusingPolicy: NSMergePolicy {
        static let domain = "CustomMergePolicyTests"
        static let code = 7

        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(mergeConflicts list: [Any]) throws {
            throw NSError(domain: Self.domain, code: Self.code, userInfo: [NSLocalizedDescriptionKey: "refused"])
        }
    }

    // MARK: Tests

    @Test func aSubclassCallingSuperSeesTheStoredRowsObjectAndItsValues() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        try Self.storeWithTags(model, in: folder)
        let policy = RecordingConstraintPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        let context = try Self.context(model, in: folder, policy: policy)
        try context.performAndWait { () throws in
            let storedID = try #require(try Self.tag(named: "x", in: context)).objectID
            let duplicate = Self.insertTag("x", count: 5, into: context)
            try context.save()
            let seen = try #require(policy.seen.first)
            #expect(policy.seen.count == 1)
            #expect(seen.constraint == ["name"])
            #expect(seen.conflictingObjects.count == 1 && seen.conflictingObjects.first === duplicate)
            #expect(seen.databaseObject?.objectID == storedID)
            #expect(seen.databaseSnapshot?["name"] as? String == "x")
            #expect(seen.databaseSnapshot?["count"] as? Int64 == 1)
        }
        // Object-trump: the new object's values are written over the stored row (whether the
        // values it left unset keep the row's is not checked here: Core Data's documentation
        // does not say).
        let stored = try Self.storedTags(model, in: folder)
        #expect(stored.count == 2 && stored[0].hasPrefix("x=5/") && stored[1] == "y=2/nil")
    }

    @Test func duplicatesWithinOneSaveAreOneConflictWithoutADatabaseObject() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        let policy = RecordingConstraintPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        let context = try Self.context(model, in: folder, policy: policy)
        try context.performAndWait { () throws in
            let first = Self.insertTag("z", count: 1, into: context)
            let second = Self.insertTag("z", count: 2, into: context)
            try context.save()
            let seen = try #require(policy.seen.first)
            #expect(policy.seen.count == 1)
            #expect(seen.constraint == ["name"])
            #expect(seen.databaseObject == nil && seen.databaseSnapshot == nil)
            #expect(Set(seen.conflictingObjects.map(ObjectIdentifier.init)) == [ObjectIdentifier(first), ObjectIdentifier(second)])
        }
        #expect(try Self.storedTags(model, in: folder).count == 1)
    }

    @Test func aSubclassResolvingDuplicatesItselfSaves() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        try Self.storeWithTags(model, in: folder)
        let context = try Self.context(model, in: folder, policy: LargestCountPolicy())
        try context.performAndWait { () throws in
            _ = Self.insertTag("x", count: 7, into: context)
            _ = Self.insertTag("x", count: 3, into: context)
            _ = Self.insertTag("z", count: 1, into: context)
            _ = Self.insertTag("z", count: 4, into: context)
            _ = Self.insertTag("y", count: 1, into: context)
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(try Self.storedTags(model, in: folder) == ["x=7/a", "y=2/nil", "z=4/nil"])
    }

    @Test func aSubclassSeesTheVersionsAndTheRowAnotherWriterSaved() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        try Self.storeWithTags(model, in: folder)
        let policy = RecordingOptimisticPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        let mine = try Self.context(model, in: folder, policy: policy)
        let tag = try mine.performAndWait { try #require(try Self.tag(named: "x", in: mine)) }
        try Self.theyChangeTagX(model, in: folder)
        try mine.performAndWait { () throws in
            tag.setValue(Int64(9), forKey: "count")
            try mine.save()
        }
        let seen = try #require(policy.seen.first)
        #expect(policy.seen.count == 1)
        #expect(seen.source === tag)
        #expect(seen.old == 1 && seen.new == 2)
        #expect(seen.persistedNote as? String == "theirs")
        // Object-trump: my change and theirs.
        #expect(try Self.storedTags(model, in: folder) == ["x=9/theirs", "y=2/nil"])
    }

    @Test func optimisticLockingConflictsAreResolvedBeforeConstraintConflicts() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        try Self.storeWithTags(model, in: folder)
        let policy = CallOrderPolicy(recording: .mergeByPropertyObjectTrumpMergePolicyType)
        let mine = try Self.context(model, in: folder, policy: policy)
        let tag = try mine.performAndWait { try #require(try Self.tag(named: "x", in: mine)) }
        try Self.theyChangeTagX(model, in: folder)
        try mine.performAndWait { () throws in
            tag.setValue(Int64(9), forKey: "count")
            _ = Self.insertTag("y", count: 6, into: mine)
            try mine.save()
        }
        #expect(policy.calls.first == "mergeConflicts")
        let optimistic = try #require(policy.calls.firstIndex(of: "optimisticLocking"))
        let constraint = try #require(policy.calls.firstIndex(of: "constraint"))
        #expect(optimistic < constraint)
        #expect(try Self.storedTags(model, in: folder) == ["x=9/theirs", "y=6/nil"])
    }

    @Test func aSubclassThatThrowsFailsTheSaveWithItsErrorAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        try Self.storeWithTags(model, in: folder)
        let mine = try Self.context(model, in: folder, policy: RefusingPolicy())
        let (tag, other) = try mine.performAndWait {
            (try #require(try Self.tag(named: "x", in: mine)), try #require(try Self.tag(named: "y", in: mine)))
        }
        try Self.theyChangeTagX(model, in: folder)
        let files = ["Store.sqlite", "Store.sqlite-wal"].map { folder.url.appendingPathComponent($0) }
        let bytesBefore = files.map { try? Data(contentsOf: $0) }
        let error: NSError? = mine.performAndWait {
            tag.setValue(Int64(9), forKey: "count")
            mine.delete(other)
            do {
                try mine.save()
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.domain == RefusingPolicy.domain && error?.code == RefusingPolicy.code)
        #expect(files.map { try? Data(contentsOf: $0) } == bytesBefore)
        mine.performAndWait {
            #expect(tag.isUpdated && !tag.isDeleted && tag.managedObjectContext === mine)
            #expect(tag.changedValues().count == 1 && tag.changedValues()["count"] as? Int64 == 9)
            #expect(tag.committedValues(forKeys: ["count", "note"])["note"] as? String == "a")
            #expect(other.isDeleted && mine.deletedObjects == [other])
            #expect(mine.updatedObjects == [tag] && mine.insertedObjects.isEmpty)
        }
        #expect(try Self.storedTags(model, in: folder) == ["x=1/theirs", "y=2/nil"])
    }
}

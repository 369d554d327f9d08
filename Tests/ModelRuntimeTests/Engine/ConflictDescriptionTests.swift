#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// What a printed save conflict says: the entity, the constraint and the values, or the object
/// and its versions, in words rather than object addresses.
struct ConflictDescriptionTests {
    /// The error of saving a second tag named "x" under the error policy.
    static func duplicateTagFailure() throws -> (error: NSError, duplicate: NSManagedObject, stored: NSManagedObject) {
        let (_, context) = try EngineTestModel.stack()
        let stored = try context.performAndWait { () throws -> NSManagedObject in
            let stored = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 1])
            try context.save()
            return stored
        }
        let (duplicate, error) = context.performAndWait { () -> (NSManagedObject, NSError?) in
            let duplicate = EngineTestModel.insert("Tag", into: context, ["name": "x", "uses": 2])
            do {
                try context.save()
                return (duplicate, nil)
            } catch {
                return (duplicate, error as NSError)
            }
        }
        return (try #require(error), duplicate, stored)
    }

    @Test func aConstraintConflictNamesItsEntityConstraintAndValues() throws {
        let failure = try Self.duplicateTagFailure()
        let conflict = try #require((failure.error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        let description = conflict.description
        #expect(description.hasPrefix("<NSConstraintConflict: entity Tag; constraint (name); values name = \"x\""))
        #expect(description.contains(failure.duplicate.objectID.uriRepresentation().absoluteString))
        #expect(description.contains("stored object \(failure.stored.objectID.uriRepresentation().absoluteString)"))
        #expect(!description.contains("0x"))
    }

    @Test func aConstraintViolationSaysTheEntityAndValuesInWords() throws {
        let failure = try Self.duplicateTagFailure()
        #expect(failure.error.code == NSManagedObjectConstraintMergeError)
        #expect(
            failure.error.localizedDescription
                == "Constraint unique violation: Tag (name): name = \"x\" is in an object being saved and in the stored object "
                + "\(failure.stored.objectID.uriRepresentation().absoluteString).")
    }

    @Test func duplicatesWithinOneSaveAreCountedInTheMessage() throws {
        let (_, context) = try EngineTestModel.stack()
        let message: String = context.performAndWait {
            _ = EngineTestModel.insert("Tag", into: context, ["name": "y", "uses": 1])
            _ = EngineTestModel.insert("Tag", into: context, ["name": "y", "uses": 2])
            do {
                try context.save()
                return "saved"
            } catch {
                return error.localizedDescription
            }
        }
        #expect(message == "Constraint unique violation: Tag (name): name = \"y\" is in 2 objects being saved.")
    }

    @Test func aPrintedConstraintErrorListsTheConflictsInWords() throws {
        let failure = try Self.duplicateTagFailure()
        let printed = "\(failure.error)"
        #expect(printed.contains("<NSConstraintConflict: entity Tag; constraint (name); values name = \"x\""))
        #expect(!printed.contains("<NSConstraintConflict: 0x"))
    }

    @Test func aMergeConflictNamesTheObjectItsVersionsAndChangedKeys() throws {
        let result = try ConflictTests.conflictingEdit(policy: NSErrorMergePolicy)
        let error = try #require(result.error)
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        let uri = result.trip.objectID.uriRepresentation().absoluteString
        #expect(conflict.description == "<NSMergeConflict: object \(uri); entity Trip; old version 1; new version 2; changed keys [note]>")
        #expect(
            error.localizedDescription
                == "Could not merge changes: Trip \(uri) changed in the store since it was read (version 1 read, the store has version 2); changed here: note."
        )
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// The words of save conflicts: what `description` of ``NSConstraintConflict`` and
/// ``NSMergeConflict`` says, and the `localizedDescription` of the save errors that list them
/// (`NSManagedObjectConstraintMergeError`, `NSManagedObjectMergeError`), so a printed error names
/// the entity, the constraint and the values, or the object and its versions.
enum ConflictText {
    // MARK: Constraint conflicts

    /// `Tag (name): name = "x" is in 2 objects being saved`, or `… is in an object being saved
    /// and in the stored object x-coredata://…/Tag/p1`.
    static func sentence(_ conflict: NSConstraintConflict) -> String {
        let count = conflict.conflictingObjects.count
        var text = "\(entityName(conflict)) (\(conflict.constraint.joined(separator: ", "))): \(values(conflict)) is in "
        text += count == 1 ? "an object being saved" : "\(count) objects being saved"
        if let stored = conflict.databaseObject {
            text += " and in the stored object \(stored.objectID.uriRepresentation().absoluteString)"
        }
        return text
    }

    static func description(_ conflict: NSConstraintConflict) -> String {
        var parts = [
            "entity \(entityName(conflict))", "constraint (\(conflict.constraint.joined(separator: ", ")))",
            "values \(values(conflict))",
        ]
        parts.append("conflicting objects [\(conflict.conflictingObjects.map(identity).joined(separator: ", "))]")
        if let stored = conflict.databaseObject { parts.append("stored object \(identity(stored))") }
        return "<NSConstraintConflict: \(parts.joined(separator: "; "))>"
    }

    /// The failure of a save under the error merge policy with uniqueness-constraint conflicts.
    static func constraintFailure(_ conflicts: [NSConstraintConflict]) -> String {
        "Constraint unique violation: " + conflicts.map(sentence).joined(separator: "; ") + "."
    }

    private static func entityName(_ conflict: NSConstraintConflict) -> String {
        (conflict.conflictingObjects.first ?? conflict.databaseObject)?.entity.name ?? "an entity"
    }

    /// `name = "x", trip = x-coredata://…/Trip/p1`, in the constraint's order.
    private static func values(_ conflict: NSConstraintConflict) -> String {
        conflict.constraint.map { "\($0) = \(value(conflict.constraintValues[$0]))" }.joined(separator: ", ")
    }

    // MARK: Merge conflicts

    /// `Trip x-coredata://…/Trip/p1 changed in the store since it was read (version 1 read, the
    /// store has version 2); changed here: name, note`.
    static func sentence(_ conflict: NSMergeConflict) -> String {
        let object = conflict.sourceObject
        var text = "\(object.entity.name ?? "an object") \(object.objectID.uriRepresentation().absoluteString) "
        if conflict.newVersionNumber == 0 {
            text += "was deleted from the store since it was read (version \(conflict.oldVersionNumber))"
        } else {
            text +=
                "changed in the store since it was read (version \(conflict.oldVersionNumber) read, the store has version \(conflict.newVersionNumber))"
        }
        if !conflict.changedKeys.isEmpty { text += "; changed here: \(conflict.changedKeys.joined(separator: ", "))" }
        return text
    }

    static func description(_ conflict: NSMergeConflict) -> String {
        var parts = [
            "object \(identity(conflict.sourceObject))", "entity \(conflict.sourceObject.entity.name ?? "")",
            "old version \(conflict.oldVersionNumber)", "new version \(conflict.newVersionNumber)",
        ]
        if !conflict.changedKeys.isEmpty { parts.append("changed keys [\(conflict.changedKeys.joined(separator: ", "))]") }
        return "<NSMergeConflict: \(parts.joined(separator: "; "))>"
    }

    /// The failure of a save under the error merge policy with optimistic-locking conflicts.
    static func mergeFailure(_ conflicts: [NSMergeConflict]) -> String {
        "Could not merge changes: " + conflicts.map(sentence).joined(separator: "; ") + "."
    }

    /// The failure of a save whose merge policy left conflicts round after round.
    static func unresolved(_ optimistic: [NSMergeConflict], _ constraint: [NSConstraintConflict], after attempts: Int) -> String {
        let sentences = optimistic.map { sentence($0) } + constraint.map { sentence($0) }
        return "Could not merge changes: conflicts remain after the merge policy resolved them \(attempts) times: "
            + sentences.joined(separator: "; ") + "."
    }

    // MARK: Values

    private static func identity(_ object: NSManagedObject) -> String { object.objectID.uriRepresentation().absoluteString }

    /// A value as a person reads it: text quoted, objects by their URI, a missing value as `nil`.
    static func value(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: "nil"
        case let text as String: "\"\(text)\""
        case let object as NSManagedObject: identity(object)
        case let id as NSManagedObjectID: id.uriRepresentation().absoluteString
        case let uuid as UUID: uuid.uuidString
        case let date as Date: ISO8601DateFormatter().string(from: date)
        case let data as Data: "\(data.count) bytes"
        case let url as URL: url.absoluteString
        case let value?: "\(value)"
        }
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// The userInfo dictionaries of a context's change notifications (`ObjectsDidChange`,
/// `DidSave`, `DidSaveObjectIDs`), made without hashing their keys: each is a copy of a
/// dictionary made once with the same keys, its values replaced by position. A dictionary
/// literal hashes and compares every `String` key through `AnyHashable`, about 2,000
/// instructions a key, three keys a notification, several notifications a save. The result
/// is the dictionary the literal makes: the same keys with the same values.
enum ChangeInfo {
    /// Keys in a fixed order, and where each is in a dictionary holding them.
    private struct Template {
        let dictionary: [AnyHashable: Any]
        let positions: [Dictionary<AnyHashable, Any>.Index]

        init(_ keys: [String]) {
            var dictionary: [AnyHashable: Any] = [:]
            for key in keys { dictionary[key] = () }
            self.dictionary = dictionary
            positions = keys.map { dictionary.index(forKey: $0)! }
        }

        /// The template with its values replaced in key order. Replacing a value by position
        /// copies the shared storage once (keys and all, no hashing) and keeps the positions.
        func filled(_ first: Any, _ second: Any, _ third: Any) -> [AnyHashable: Any] {
            var result = dictionary
            result.values[positions[0]] = first
            result.values[positions[1]] = second
            result.values[positions[2]] = third
            return result
        }
    }

    // Immutable once made; each use copies them (see Safety.md).
    /// `ObjectsDidChange`'s keys, one template for each combination of non-empty sets
    /// (bit 0 inserted, bit 1 updated, bit 2 deleted).
    nonisolated(unsafe) private static let changeTemplates: [Template?] = (0..<8).map { mask in
        let keys = [(1, NSInsertedObjectsKey), (2, NSUpdatedObjectsKey), (4, NSDeletedObjectsKey)].filter { mask & $0.0 != 0 }.map(\.1)
        return keys.isEmpty ? nil : Template(keys)
    }
    nonisolated(unsafe) private static let savedTemplate = Template([NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey])
    nonisolated(unsafe) private static let savedIDsTemplate = Template([
        NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey,
    ])

    /// `ObjectsDidChange`'s userInfo: each non-empty set under its key, nil when all are empty.
    static func changes(inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>)
        -> [AnyHashable: Any]?
    {
        let mask = (inserted.isEmpty ? 0 : 1) | (updated.isEmpty ? 0 : 2) | (deleted.isEmpty ? 0 : 4)
        guard let template = changeTemplates[mask] else { return nil }
        var result = template.dictionary
        var place = 0
        func put(_ objects: Set<NSManagedObject>) {
            guard !objects.isEmpty else { return }
            result.values[template.positions[place]] = objects
            place += 1
        }
        put(inserted)
        put(updated)
        put(deleted)
        return result
    }

    /// `DidSave`'s userInfo: the three sets under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`
    /// and `NSDeletedObjectsKey`.
    static func saved(inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>) -> [AnyHashable: Any] {
        savedTemplate.filled(inserted, updated, deleted)
    }

    /// `DidSaveObjectIDs`'s userInfo: the three sets of IDs under the `…ObjectIDsKey`s.
    static func savedIDs(inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>, deleted: Set<NSManagedObjectID>)
        -> [AnyHashable: Any]
    {
        savedIDsTemplate.filled(inserted, updated, deleted)
    }
}
#endif

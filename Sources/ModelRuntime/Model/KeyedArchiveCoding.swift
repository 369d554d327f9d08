#if !canImport(CoreData)
import ModelQuery

/// Keyed archives for the archiving value transformers, made safe for input from a store:
/// Linux's `NSKeyedUnarchiver` stops the process on a malformed archive, an unknown class or a
/// class outside a secure-coding list, and its archiver on a value that cannot be archived, so
/// both are checked here first and turned into nil.
enum KeyedArchiveCoding {
    /// `value` as a keyed archive (its Swift form bridged to Foundation objects); nil when some
    /// part of it cannot be archived.
    static func archive(_ value: Any, secure: Bool) -> Data? {
        let object = value as AnyObject
        guard isArchivable(object) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: secure)
    }

    /// The root object of a keyed archive; nil for anything else, for an archive naming a class
    /// this process does not have, and, given `allowed`, when any object of it is of another
    /// class (as secure coding refuses).
    static func unarchive(_ data: Data, allowed: [AnyClass]?) -> Any? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
            plist["$archiver"] as? String == "NSKeyedArchiver", let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data)
        else { return nil }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        let object = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        guard unarchiver.error == nil, let object else { return nil }
        if let allowed, !only(object as AnyObject, of: allowed) { return nil }
        return object
    }

    /// Whether `object` and every object it contains are of the `allowed` classes.
    private static func only(_ object: AnyObject, of allowed: [AnyClass]) -> Bool {
        everyObject(in: object) { object in
            guard let instance = object as? NSObject else { return false }
            return allowed.contains { instance.isKind(of: $0) }
        }
    }

    /// Whether the archiver can write `object` and everything in it: Foundation's collections
    /// and any other `NSCoding` object.
    private static func isArchivable(_ object: AnyObject) -> Bool {
        everyObject(in: object) { $0 is NSCoding && $0 is NSObject }
    }

    /// Whether `test` holds for `object` and, through Foundation's collections, every object
    /// it contains (dictionary keys included).
    private static func everyObject(in object: AnyObject, _ test: (AnyObject) -> Bool) -> Bool {
        guard test(object) else { return false }
        let members: [Any]
        if let array = object as? NSArray {
            members = Array(array)
        } else if let set = object as? NSSet {
            members = Array(set)
        } else if let ordered = object as? NSOrderedSet {
            members = ordered.array
        } else if let dictionary = object as? NSDictionary {
            members = dictionary.flatMap { [$0.key, $0.value] }
        } else {
            return true
        }
        return members.allSatisfy { everyObject(in: $0 as AnyObject, test) }
    }
}
#endif

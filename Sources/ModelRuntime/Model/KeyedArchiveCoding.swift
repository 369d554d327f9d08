#if !canImport(CoreData)
import Foundation

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
        guard let instance = object as? NSObject, allowed.contains(where: { instance.isKind(of: $0) }) else { return false }
        if let array = object as? NSArray { return array.allSatisfy { only($0 as AnyObject, of: allowed) } }
        if let set = object as? NSSet { return set.allSatisfy { only($0 as AnyObject, of: allowed) } }
        if let ordered = object as? NSOrderedSet { return ordered.array.allSatisfy { only($0 as AnyObject, of: allowed) } }
        if let dictionary = object as? NSDictionary {
            return dictionary.allSatisfy { only($0.key as AnyObject, of: allowed) && only($0.value as AnyObject, of: allowed) }
        }
        return true
    }

    /// Whether the archiver can write `object`: Foundation's value and collection classes
    /// (with archivable contents) and any other `NSCoding` object.
    private static func isArchivable(_ object: AnyObject) -> Bool {
        if let array = object as? NSArray { return array.allSatisfy { isArchivable($0 as AnyObject) } }
        if let set = object as? NSSet { return set.allSatisfy { isArchivable($0 as AnyObject) } }
        if let ordered = object as? NSOrderedSet { return ordered.array.allSatisfy { isArchivable($0 as AnyObject) } }
        if let dictionary = object as? NSDictionary {
            return dictionary.allSatisfy { isArchivable($0.key as AnyObject) && isArchivable($0.value as AnyObject) }
        }
        return object is NSCoding && object is NSObject
    }
}
#endif

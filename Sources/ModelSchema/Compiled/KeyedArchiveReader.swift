/// Reads an `NSKeyedArchiver` archive (`$objects`, `$top`) without Foundation's unarchiver:
/// objects are looked up by UID with bounds checks, and every accessor fails with a message
/// instead of trapping, so untrusted archives are safe to read. Nothing here recurses; callers
/// that follow references between objects bound their own walks.
struct KeyedArchiveReader {
    struct Failure: Error, Equatable {
        let message: String
    }

    typealias Fields = [(key: String, value: PropertyList)]

    private let objects: [PropertyList]
    let root: UInt64

    init(_ archive: PropertyList) throws(Failure) {
        guard archive["$archiver"]?.stringValue == "NSKeyedArchiver" else { throw Failure(message: "not an NSKeyedArchiver archive") }
        guard case .array(let objects)? = archive["$objects"] else { throw Failure(message: "the archive has no $objects") }
        guard case .uid(let root)? = archive["$top"]?["root"] else { throw Failure(message: "the archive has no root object") }
        self.objects = objects
        self.root = root
        guard root != 0, root < UInt64(objects.count) else { throw Failure(message: "the root object reference is out of range") }
    }

    /// The UID a field refers to; nil for `$null` (UID 0) and for a missing field.
    func reference(_ value: PropertyList?) throws(Failure) -> UInt64? {
        guard let value else { return nil }
        guard case .uid(let uid) = value else { throw Failure(message: "expected an object reference") }
        guard uid < UInt64(objects.count) else { throw Failure(message: "object reference \(uid) is out of range") }
        return uid == 0 ? nil : uid
    }

    /// The raw entry of an object.
    func entry(_ uid: UInt64) -> PropertyList {
        objects[Int(uid)]
    }

    /// The fields and class name of an archived object (a dictionary with `$class`).
    func object(_ uid: UInt64) throws(Failure) -> (className: String, fields: Fields) {
        guard case .dictionary(let fields) = entry(uid) else { throw Failure(message: "object \(uid) is not an archived object") }
        guard let classUID = try reference(fields.first { $0.key == "$class" }?.value),
            let className = entry(classUID)["$classname"]?.stringValue
        else { throw Failure(message: "object \(uid) has no class") }
        return (className, fields)
    }

    /// An object that must be of one of `classNames`.
    func object(_ uid: UInt64, of classNames: Set<String>, what: String) throws(Failure) -> Fields {
        let (className, fields) = try object(uid)
        guard classNames.contains(className) else {
            throw Failure(message: "\(what) is an \(className), expected \(classNames.sorted().joined(separator: " or "))")
        }
        return fields
    }

    /// A string field: an inline string or a reference to a string object; nil for `$null`.
    func string(_ value: PropertyList?, what: String) throws(Failure) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        case .uid?:
            guard let uid = try reference(value) else { return nil }
            switch entry(uid) {
            case .string(let text): return text
            case .dictionary:
                // An NSString archived as an object (NSMutableString) keeps its text in NS.string.
                let fields = try object(uid, of: ["NSString", "NSMutableString"], what: what)
                guard let text = fields.first(where: { $0.key == "NS.string" })?.value.stringValue else {
                    throw Failure(message: "\(what) is not a string")
                }
                return text
            default: throw Failure(message: "\(what) is not a string")
            }
        default: throw Failure(message: "\(what) is not a string")
        }
    }

    /// A scalar field (Boolean or integer) as an integer; `default` when absent.
    func integer(_ value: PropertyList?, default defaultValue: Int64 = 0, what: String) throws(Failure) -> Int64 {
        switch value {
        case nil: return defaultValue
        case .integer(let number)?: return number
        case .boolean(let flag)?: return flag ? 1 : 0
        case .uid?:
            // A reference is followed once: an entry that is itself a reference is not a number
            // (and could loop back).
            guard let uid = try reference(value) else { return defaultValue }
            switch entry(uid) {
            case .integer(let number): return number
            case .boolean(let flag): return flag ? 1 : 0
            default: throw Failure(message: "\(what) is not a number")
            }
        default: throw Failure(message: "\(what) is not a number")
        }
    }

    func bool(_ value: PropertyList?, what: String) throws(Failure) -> Bool {
        try integer(value, what: what) != 0
    }

    /// The members of an archived `NSArray`, `NSSet` or `NSOrderedSet` (or a plain array).
    func array(_ value: PropertyList?, what: String) throws(Failure) -> [PropertyList] {
        guard let uid = try reference(value) else { return [] }
        if case .array(let items) = entry(uid) { return items }
        let fields = try object(
            uid, of: ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"], what: what)
        guard case .array(let items)? = fields.first(where: { $0.key == "NS.objects" })?.value else {
            throw Failure(message: "\(what) has no members")
        }
        return items
    }

    /// The entries of an archived `NSDictionary`, in archive order, with string keys.
    func dictionary(_ value: PropertyList?, what: String) throws(Failure) -> [(key: String, value: PropertyList)] {
        guard let uid = try reference(value) else { return [] }
        let fields = try object(uid, of: ["NSDictionary", "NSMutableDictionary", "NSKnownKeysDictionary1"], what: what)
        if fields.contains(where: { $0.key == "searchMapping" }) { return try knownKeysDictionary(fields, what: what) }
        guard case .array(let keys)? = fields.first(where: { $0.key == "NS.keys" })?.value,
            case .array(let values)? = fields.first(where: { $0.key == "NS.objects" })?.value, keys.count == values.count
        else { throw Failure(message: "\(what) is not a well-formed dictionary") }
        var entries: [(key: String, value: PropertyList)] = []
        entries.reserveCapacity(keys.count)
        for (key, member) in zip(keys, values) {
            guard let name = try string(key, what: "a key of \(what)") else { throw Failure(message: "\(what) has a null key") }
            entries.append((name, member))
        }
        return entries
    }

    /// Core Data's `NSKnownKeysDictionary1` (as in the models stores keep in `Z_MODELCACHE`): the
    /// keys in its search mapping's `keys` array, the values in its `values` array, unused slots
    /// holding its `emptyToken` string.
    private func knownKeysDictionary(_ fields: Fields, what: String) throws(Failure) -> [(key: String, value: PropertyList)] {
        guard let mappingUID = try reference(fields.first(where: { $0.key == "searchMapping" })?.value) else {
            throw Failure(message: "\(what) has no key mapping")
        }
        let mapping = try object(mappingUID, of: ["NSKnownKeysMappingStrategy1"], what: "the key mapping of \(what)")
        let keys = try array(mapping.first(where: { $0.key == "keys" })?.value, what: "the keys of \(what)")
        let values = try array(fields.first(where: { $0.key == "values" })?.value, what: "the values of \(what)")
        guard keys.count <= values.count else { throw Failure(message: "\(what) is not a well-formed dictionary") }
        let empty = try string(fields.first(where: { $0.key == "emptyToken" })?.value, what: "the empty token of \(what)")
        var entries: [(key: String, value: PropertyList)] = []
        for (key, member) in zip(keys, values) {
            guard let name = try string(key, what: "a key of \(what)") else { throw Failure(message: "\(what) has a null key") }
            if let empty, case .uid = member, (try? string(member, what: "")) == empty { continue }
            entries.append((name, member))
        }
        return entries
    }
}

extension [(key: String, value: PropertyList)] {
    subscript(field key: String) -> PropertyList? {
        first { $0.key == key }?.value
    }
}

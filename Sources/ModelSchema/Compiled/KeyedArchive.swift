/// Builds an `NSKeyedArchiver` archive (`$archiver`, `$objects`, `$top`, `$version`) without
/// Foundation's archiver, so the object graph and the bytes are fully under our control and the
/// same on every platform. Objects with an identity may refer to each other in cycles.
struct KeyedArchiveBuilder {
    private(set) var objects: [PropertyList] = [.string("$null")]
    private var identities: [String: UInt64] = [:]
    private var classes: [String: UInt64] = [:]
    private var strings: [String: UInt64] = [:]

    static let null = PropertyList.uid(0)

    /// A string object; equal strings share one entry, as momc's archives do.
    mutating func string(_ text: String) -> PropertyList {
        if let known = strings[text] { return .uid(known) }
        let uid = append(.string(text))
        strings[text] = uid
        return .uid(uid)
    }

    mutating func optionalString(_ text: String?) -> PropertyList {
        text.map { string($0) } ?? Self.null
    }

    /// A plain value (a number or Boolean object).
    mutating func value(_ value: PropertyList) -> PropertyList {
        .uid(append(value))
    }

    /// The UID an identified object has or will have; nil before it is first encoded.
    func reference(to identity: String) -> PropertyList? {
        identities[identity].map(PropertyList.uid)
    }

    /// Reserves the slot of an object. Its fields are encoded next (and may refer back to it
    /// through `reference(to:)`), then `fill` completes it with its class description, which
    /// follows the contents as in Foundation's archives. `isNew` is false for a known identity.
    mutating func reserve(identity: String? = nil) -> (uid: PropertyList, isNew: Bool) {
        if let identity, let known = identities[identity] { return (.uid(known), false) }
        let uid = append(.string("$null"))
        if let identity { identities[identity] = uid }
        return (.uid(uid), true)
    }

    mutating func fill(_ object: PropertyList, classChain: [String], fields: [(String, PropertyList)]) {
        guard case .uid(let uid) = object else { return }
        let members = fields + [("$class", classReference(classChain))]
        objects[Int(uid)] = .dictionary(members.map { (key: $0.0, value: $0.1) })
    }

    /// An object without identity whose fields are already encoded.
    mutating func object(classChain: [String], fields: [(String, PropertyList)]) -> PropertyList {
        let (uid, _) = reserve()
        fill(uid, classChain: classChain, fields: fields)
        return uid
    }

    mutating func dictionary(mutable: Bool, _ entries: [(key: String, value: PropertyList)]) -> PropertyList {
        let keys = entries.map { string($0.key) }
        return object(
            classChain: mutable ? ["NSMutableDictionary", "NSDictionary", "NSObject"] : ["NSDictionary", "NSObject"],
            fields: [("NS.keys", .array(keys)), ("NS.objects", .array(entries.map(\.value)))])
    }

    mutating func array(mutable: Bool, _ items: [PropertyList]) -> PropertyList {
        object(
            classChain: mutable ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"],
            fields: [("NS.objects", .array(items))])
    }

    mutating func set(_ items: [PropertyList]) -> PropertyList {
        object(classChain: ["NSSet", "NSObject"], fields: [("NS.objects", .array(items))])
    }

    private mutating func classReference(_ chain: [String]) -> PropertyList {
        let name = chain[0]
        if let known = classes[name] { return .uid(known) }
        let uid = append(.dictionary([("$classes", .array(chain.map(PropertyList.string))), ("$classname", .string(name))]))
        classes[name] = uid
        return .uid(uid)
    }

    private mutating func append(_ value: PropertyList) -> UInt64 {
        objects.append(value)
        return UInt64(objects.count - 1)
    }

    /// The archive with `root` as its root object.
    func archive(root: PropertyList) -> PropertyList {
        .dictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$objects", .array(objects)), ("$top", .dictionary([("root", root)])),
            ("$version", .integer(100_000)),
        ])
    }
}

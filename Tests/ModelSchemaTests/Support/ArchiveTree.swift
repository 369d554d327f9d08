@testable import ModelSchema

/// A keyed archive with every UID replaced by the object it names, dictionary keys sorted and
/// archived dictionaries (`NS.keys`/`NS.objects`) turned into sorted entries: two archives with
/// the same objects, classes, keys and values have equal trees whatever their UID numbering.
enum ArchiveTree {
    static func tree(_ bytes: [UInt8]) throws -> PropertyList {
        let archive = try BinaryPropertyList.decode(bytes)
        guard case .array(let objects)? = archive["$objects"], case .uid(let root)? = archive["$top"]?["root"] else {
            throw KeyedArchiveReader.Failure(message: "not a keyed archive")
        }
        return resolve(.uid(root), objects, depth: 0)
    }

    static func resolve(_ value: PropertyList, _ objects: [PropertyList], depth: Int) -> PropertyList {
        guard depth < 200 else { return .string("<too deep>") }
        switch value {
        case .uid(let uid):
            guard uid != 0, uid < objects.count else { return .string("$null") }
            return resolve(objects[Int(uid)], objects, depth: depth + 1)
        case .array(let items):
            return .array(items.map { resolve($0, objects, depth: depth + 1) })
        case .dictionary(let fields):
            if case .array(let keys)? = value["NS.keys"], case .array(let values)? = value["NS.objects"] {
                let entries = zip(keys, values).map { key, member in
                    (key: resolve(key, objects, depth: depth + 1).stringValue ?? "?", value: resolve(member, objects, depth: depth + 1))
                }
                let className = value["$class"].map { resolve($0, objects, depth: depth + 1) }
                return .dictionary(entries.sorted { $0.key < $1.key } + [(key: "$class", value: className ?? .string("?"))])
            }
            return .dictionary(
                fields.map { (key: $0.key, value: resolve($0.value, objects, depth: depth + 1)) }.sorted { $0.key < $1.key })
        default:
            return value
        }
    }
}

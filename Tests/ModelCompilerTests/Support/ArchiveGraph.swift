import ModelSchema

/// A keyed archive of a managed object model, flattened for comparison: every model, entity,
/// property and fetch index becomes one entry keyed by what it is ("entity Car",
/// "property Car.owner"), holding its class and fields; references between them become those
/// names, and collections are expanded (dictionaries and sets sorted), so two archives of the
/// same model compare equal whatever their object order or UIDs.
struct ArchiveGraph {
    indirect enum Value: Equatable, CustomStringConvertible {
        case null
        case scalar(String)
        case reference(String)
        case list([Value])
        case map([String: Value])
        case object(String, [String: Value])

        var description: String {
            switch self {
            case .null: "nil"
            case .scalar(let text): text
            case .reference(let name): "<\(name)>"
            case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
            case .map(let members): "{" + members.keys.sorted().map { "\($0): \(members[$0]!)" }.joined(separator: ", ") + "}"
            case .object(let name, let members): "\(name)" + Value.map(members).description
            }
        }
    }

    private(set) var entries: [String: [String: Value]] = [:]
    private let objects: [PropertyList]
    /// Objects being expanded: an archive whose objects contain themselves, or chain deeper
    /// than any model does (only a corrupt one), shows the repeat as a reference instead of
    /// recursing until the stack runs out.
    private var expanding: Set<UInt64> = []

    init(_ archive: PropertyList) {
        guard case .array(let objects)? = archive["$objects"], case .uid(let root)? = archive["$top"]?["root"] else {
            self.objects = []
            return
        }
        self.objects = objects
        _ = value(.uid(root))
    }

    private func className(_ object: PropertyList) -> String? {
        guard case .uid(let index)? = object["$class"], index < objects.count else { return nil }
        return objects[Int(index)]["$classname"]?.stringValue
    }

    private func string(_ value: PropertyList?) -> String? {
        guard case .uid(let index)? = value, index < objects.count else { return value?.stringValue }
        return objects[Int(index)].stringValue
    }

    /// The identity of an object that others point to, or nil for plain values.
    private func identity(of object: PropertyList, className: String) -> String? {
        switch className {
        case "NSManagedObjectModel": return "model"
        case "NSEntityDescription": return "entity \(string(object["NSEntityName"]) ?? "?")"
        case "NSAttributeDescription", "NSRelationshipDescription", "NSCompositeAttributeDescription", "NSFetchedPropertyDescription":
            guard case .uid(let entity)? = object["NSEntity"], entity != 0, entity < objects.count else { return nil }
            return "property \(string(objects[Int(entity)]["NSEntityName"]) ?? "?").\(string(object["NSPropertyName"]) ?? "?")"
        case "NSFetchIndexDescription":
            guard case .uid(let entity)? = object["NSEntity"], entity < objects.count else { return nil }
            return "index \(string(objects[Int(entity)]["NSEntityName"]) ?? "?").\(string(object["NSIndexName"]) ?? "?")"
        default: return nil
        }
    }

    private mutating func value(_ item: PropertyList) -> Value {
        switch item {
        case .uid(let index):
            guard index != 0, index < objects.count else { return .null }
            let object = objects[Int(index)]
            let className = className(object)
            // Entities and properties being expanded are referred to by name, as below.
            if let className, let name = identity(of: object, className: className), entries[name] != nil { return .reference(name) }
            // Real archives nest a few levels deep; a corrupt one may chain thousands of objects.
            guard expanding.count < 200, expanding.insert(index).inserted else { return .reference("object \(index)") }
            defer { expanding.remove(index) }
            guard let className else { return value(object) }
            switch className {
            case "NSMutableDictionary", "NSDictionary":
                guard case .array(let keys)? = object["NS.keys"], case .array(let values)? = object["NS.objects"] else { return .null }
                var members: [String: Value] = [:]
                for (key, member) in zip(keys, values) { members[string(key) ?? "?"] = value(member) }
                return .map(members)
            case "NSMutableArray", "NSArray":
                guard case .array(let items)? = object["NS.objects"] else { return .null }
                return .list(items.map { value($0) })
            case "NSSet", "NSMutableSet":
                guard case .array(let items)? = object["NS.objects"] else { return .null }
                return .list(items.map { value($0) }.sorted { $0.description < $1.description })
            default:
                let name = identity(of: object, className: className)
                if let name, entries[name] != nil { return .reference(name) }
                if let name { entries[name] = [:] }
                var members: [String: Value] = ["$class": .scalar(className)]
                if case .dictionary(let fields) = object {
                    for (key, member) in fields where key != "$class" {
                        // Back references of index elements to their index are implied by nesting.
                        if key == "NSFetchIndexDescription" { continue }
                        members[key] = value(member)
                    }
                }
                guard let name else { return .object(className, members) }
                entries[name] = members
                return .reference(name)
            }
        case .string(let text): return text == "$null" ? .null : .scalar(text)
        case .integer(let number): return .scalar(String(number))
        case .real(let number): return .scalar(Int64(exactly: number).map { String($0) } ?? String(number))
        case .boolean(let flag): return .scalar(flag ? "true" : "false")
        case .data(let bytes): return .scalar(bytes.map { String($0, radix: 16) }.joined())
        case .date(let seconds): return .scalar("date \(seconds)")
        case .array(let items): return .list(items.map { value($0) })
        case .dictionary(let members):
            var result: [String: Value] = [:]
            for (key, member) in members { result[key] = value(member) }
            return .map(result)
        }
    }

    /// Every (entry, key) whose value differs, with both values, as readable lines.
    static func differences(_ ours: ArchiveGraph, _ theirs: ArchiveGraph) -> [String] {
        var lines: [String] = []
        for name in Set(ours.entries.keys).union(theirs.entries.keys).sorted() {
            guard let mine = ours.entries[name] else {
                lines.append("\(name): missing")
                continue
            }
            guard let other = theirs.entries[name] else {
                lines.append("\(name): extra")
                continue
            }
            for key in Set(mine.keys).union(other.keys).sorted() where mine[key] != other[key] {
                lines.append("\(name) \(key): ours \(mine[key]?.description ?? "absent"), momc \(other[key]?.description ?? "absent")")
            }
        }
        return lines
    }
}

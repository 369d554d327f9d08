#if !canImport(CoreData)
import Foundation
import ModelSchema
import Synchronization
import Testing

@testable import ModelRuntime

// Subclasses for the random models' entities, one per name of ``RandomGraphSpec/names``.
final class RGAuthor: NSManagedObject {}
final class RGBook: NSManagedObject {}
final class RGPage: NSManagedObject {}
final class RGCar: NSManagedObject {}
final class RGPerson: NSManagedObject {}
final class RGSportCar: NSManagedObject {}
final class RGShelf: NSManagedObject {}
final class RGTag: NSManagedObject {}

/// A random model: entities named from one pool (so several models share names), inheritance up
/// to four levels deep, attributes of every type under random names (so inherited and own
/// properties interleave in slot order), relationships of every kind between any entities
/// (abstract parents and sub-entities included), a unique `ident` in every root.
struct RandomGraphSpec {
    static let names = ["Author", "Book", "Page", "Car", "Person", "SportCar", "Shelf", "Tag"]
    static let types: [NSAttributeType] = [
        .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType, .doubleAttributeType,
        .floatAttributeType, .stringAttributeType, .booleanAttributeType, .dateAttributeType, .binaryDataAttributeType,
        .UUIDAttributeType, .URIAttributeType, .transformableAttributeType,
    ]

    struct Attribute {
        let name: String
        let type: NSAttributeType
    }

    struct Entity {
        let name: String
        var parent: Int?
        var depth: Int
        var isAbstract = false
        var attributes: [Attribute] = []
        var hasClass: Bool
    }

    /// A relationship and its inverse: `name` on `source` leads to `destination`, `inverseName` back.
    struct Pair {
        let source: Int
        let destination: Int
        let name: String
        let inverseName: String
        let toMany: Bool
        let ordered: Bool
        let inverseToMany: Bool
    }

    var entities: [Entity] = []
    var pairs: [Pair] = []

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var used: Set<String> = ["ident"]
        func name(_ prefix: String) -> String {
            while true {
                let letters = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    "abcdefghijklmnopqrstuvwxyz".randomElement(using: &random)!
                }
                let candidate = prefix + String(letters) + String(Int.random(in: 0...99, using: &random))
                if used.insert(candidate).inserted { return candidate }
            }
        }
        let count = Int.random(in: 5...8, using: &random)
        for (index, entityName) in Self.names.shuffled(using: &random).prefix(count).enumerated() {
            var parent: Int?
            if index > 0, Double.random(in: 0..<1, using: &random) < 0.6 {
                let eligible = entities.indices.filter { entities[$0].depth < 3 }
                // Deep chains are favoured: the entity just made is the parent half the time.
                if let last = eligible.last, Bool.random(using: &random) {
                    parent = last
                } else {
                    parent = eligible.randomElement(using: &random)
                }
            }
            var entity = Entity(
                name: entityName, parent: parent, depth: parent.map { entities[$0].depth + 1 } ?? 0,
                hasClass: Double.random(in: 0..<1, using: &random) < 0.7)
            // The first letter is random, so an attribute sorts anywhere among the inherited ones.
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                entity.attributes.append(Attribute(name: name(""), type: Self.types.randomElement(using: &random)!))
            }
            entities.append(entity)
        }
        // Every type at least once.
        for (offset, type) in Self.types.enumerated() where !entities.contains(where: { $0.attributes.contains { $0.type == type } }) {
            entities[offset % entities.count].attributes.append(Attribute(name: name(""), type: type))
        }
        for index in entities.indices where entities.contains(where: { $0.parent == index }) {
            entities[index].isAbstract = Double.random(in: 0..<1, using: &random) < 0.35
        }
        for _ in 0..<Int.random(in: 6...11, using: &random) {
            let source = entities.indices.randomElement(using: &random)!
            let destination = entities.indices.randomElement(using: &random)!
            let kind = Int.random(in: 0..<5, using: &random)
            pairs.append(
                Pair(
                    source: source, destination: destination, name: name("r"), inverseName: name("v"), toMany: kind != 0,
                    ordered: kind == 3 || kind == 4, inverseToMany: kind == 2 || kind == 4))
        }
    }

    /// The entity and its ancestors, the entity first.
    func lineage(_ index: Int) -> [Int] {
        var result = [index]
        while let parent = entities[result.last!].parent { result.append(parent) }
        return result
    }

    func root(_ index: Int) -> Int { lineage(index).last! }

    func isKind(_ index: Int, of ancestor: Int) -> Bool { lineage(index).contains(ancestor) }

    func attributes(of index: Int) -> [Attribute] {
        [Attribute(name: "ident", type: .integer64AttributeType)] + lineage(index).flatMap { entities[$0].attributes }
    }

    func describe(_ pair: Pair) -> String {
        "\(entities[pair.source].name).\(pair.name) \(pair.toMany ? (pair.ordered ? "ordered to-many" : "to-many") : "to-one") "
            + "↔ \(entities[pair.destination].name).\(pair.inverseName) \(pair.inverseToMany ? "to-many" : "to-one")"
    }

    var concrete: [Int] { entities.indices.filter { !entities[$0].isAbstract } }

    static func objectClass(_ name: String) -> NSManagedObject.Type {
        switch name {
        case "Author": RGAuthor.self
        case "Book": RGBook.self
        case "Page": RGPage.self
        case "Car": RGCar.self
        case "Person": RGPerson.self
        case "SportCar": RGSportCar.self
        case "Shelf": RGShelf.self
        default: RGTag.self
        }
    }

    /// `init(context:)` of the entity's class.
    static func make(_ name: String, in context: NSManagedObjectContext) -> NSManagedObject {
        switch name {
        case "Author": RGAuthor(context: context)
        case "Book": RGBook(context: context)
        case "Page": RGPage(context: context)
        case "Car": RGCar(context: context)
        case "Person": RGPerson(context: context)
        case "SportCar": RGSportCar(context: context)
        case "Shelf": RGShelf(context: context)
        default: RGTag(context: context)
        }
    }

    func objectClass(of index: Int) -> NSManagedObject.Type {
        entities[index].hasClass ? Self.objectClass(entities[index].name) : NSManagedObject.self
    }

    /// The model, built in code.
    func model() -> NSManagedObjectModel {
        let descriptions = entities.map { spec -> NSEntityDescription in
            let entity = NSEntityDescription()
            entity.name = spec.name
            entity.managedObjectClassName = spec.hasClass ? String(reflecting: Self.objectClass(spec.name)) : "NSManagedObject"
            entity.isAbstract = spec.isAbstract
            return entity
        }
        var own: [[NSPropertyDescription]] = entities.map { spec in
            spec.attributes.map { attribute in
                let description = NSAttributeDescription()
                description.name = attribute.name
                description.attributeType = attribute.type
                if attribute.type == .transformableAttributeType {
                    description.valueTransformerName = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
                }
                return description
            }
        }
        for index in entities.indices where entities[index].parent == nil {
            let ident = NSAttributeDescription()
            ident.name = "ident"
            ident.attributeType = .integer64AttributeType
            own[index].insert(ident, at: 0)
            descriptions[index].uniquenessConstraints = [["ident"]]
        }
        for pair in pairs {
            let forward = NSRelationshipDescription()
            forward.name = pair.name
            forward.destinationEntity = descriptions[pair.destination]
            forward.maxCount = pair.toMany ? 0 : 1
            forward.isOrdered = pair.ordered
            forward.deleteRule = .nullifyDeleteRule
            let inverse = NSRelationshipDescription()
            inverse.name = pair.inverseName
            inverse.destinationEntity = descriptions[pair.source]
            inverse.maxCount = pair.inverseToMany ? 0 : 1
            inverse.deleteRule = .nullifyDeleteRule
            forward.inverseRelationship = inverse
            inverse.inverseRelationship = forward
            own[pair.source].append(forward)
            own[pair.destination].append(inverse)
        }
        for index in entities.indices { descriptions[index].properties = own[index] }
        for index in entities.indices {
            if let parent = entities[index].parent { descriptions[parent].subentities.append(descriptions[index]) }
        }
        let model = NSManagedObjectModel()
        model.entities = descriptions
        return model
    }

    /// The model compiled to a `.mom` and decoded from it.
    func compiledModel(in folder: ScratchFolder, name: String) throws -> NSManagedObjectModel {
        let url = folder.url.appendingPathComponent("\(name).mom")
        try Data(CompiledModel.mom(for: ModelSchemaBridge.version(of: model()))).write(to: url)
        return try #require(NSManagedObjectModel(contentsOf: url))
    }
}

/// One store of a random model, the objects made in it and what each should hold: the values
/// written and every relationship as edges, with the inverse rules applied as Core Data applies
/// them (a to-one side holds one object, an object taken by another owner leaves the first).
final class RandomGraphRun {
    let label: String
    let spec: RandomGraphSpec
    let model: NSManagedObjectModel
    let url: URL
    var random: SplitMix64
    var coordinator: NSPersistentStoreCoordinator
    var context: NSManagedObjectContext
    /// Objects by index (nil once deleted, or until refetched after a reset).
    var objects: [NSManagedObject?] = []
    var entityOf: [Int] = []
    var idents: [Int64] = []
    var values: [[String: Any]] = []
    var deleted: Set<Int> = []
    /// Per pair: source index → destination indexes (in order for ordered relationships).
    var edges: [[Int: [Int]]]
    var identBase: Int64
    /// Fetch results kept alive, so later fetches find objects registered by position.
    var kept: [[NSManagedObject]] = []
    private(set) var checks = 0
    /// `ident`, which every entity of every model has, in a different slot in most.
    static let identTable = SlotTable(["ident"])
    /// What differed, one line each.
    private(set) var failures: [String] = []

    init(label: String, spec: RandomGraphSpec, model: NSManagedObjectModel, url: URL, seed: UInt64, identBase: Int64) throws {
        self.label = label
        self.spec = spec
        self.model = model
        self.url = url
        random = SplitMix64(seed: seed)
        edges = Array(repeating: [:], count: spec.pairs.count)
        self.identBase = identBase
        (coordinator, context) = try Self.stack(model, url)
    }

    static func stack(_ model: NSManagedObjectModel, _ url: URL) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    var live: [Int] { objects.indices.filter { !deleted.contains($0) } }

    // MARK: Values

    func randomValue(_ type: NSAttributeType) -> Any {
        switch type {
        case .integer16AttributeType: return Int16.random(in: .min ... .max, using: &random)
        case .integer32AttributeType: return Int32.random(in: .min ... .max, using: &random)
        case .integer64AttributeType: return Int64.random(in: .min ... .max, using: &random)
        // Quarters: exact as the store's reals.
        case .decimalAttributeType: return Decimal(Int.random(in: -400_000...400_000, using: &random)) / 4
        case .doubleAttributeType: return Double.random(in: -1e9...1e9, using: &random)
        case .floatAttributeType: return Float.random(in: -1e6...1e6, using: &random)
        case .stringAttributeType:
            return String((0..<Int.random(in: 0...12, using: &random)).map { _ in "aZ09 é✓😀-_".randomElement(using: &random)! })
        case .booleanAttributeType: return Bool.random(using: &random)
        case .dateAttributeType:
            return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000...1_000_000_000, using: &random)) + 0.5)
        case .binaryDataAttributeType:
            return Data((0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case .UUIDAttributeType: return UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { $0.load(as: uuid_t.self) })
        case .URIAttributeType: return URL(string: "https://example.org/\(random.next() % 100_000)/x")!
        default: return (0..<Int.random(in: 0...3, using: &random)).map { "v\($0)-\(random.next() % 1000)" } as NSArray
        }
    }

    static func same(_ expected: Any?, _ actual: Any?, as type: NSAttributeType) -> Bool {
        guard let expected else { return actual == nil || actual is NSNull }
        guard let actual else { return false }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return integer(expected) == integer(actual) && integer(actual) != nil
        case .decimalAttributeType: return (actual as? Decimal) == (expected as? Decimal)
        case .doubleAttributeType: return (actual as? Double) == (expected as? Double)
        case .floatAttributeType: return (actual as? Float) == (expected as? Float)
        case .stringAttributeType: return (actual as? String) == (expected as? String)
        case .booleanAttributeType: return (actual as? Bool) == (expected as? Bool)
        case .dateAttributeType: return (actual as? Date) == (expected as? Date)
        case .binaryDataAttributeType: return (actual as? Data) == (expected as? Data)
        case .UUIDAttributeType: return (actual as? UUID) == (expected as? UUID)
        case .URIAttributeType: return (actual as? URL) == (expected as? URL)
        default: return strings(actual) == strings(expected)
        }
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let value as Int16: Int64(value)
        case let value as Int32: Int64(value)
        case let value as Int64: value
        case let value as Int: Int64(value)
        case let value as NSNumber: value.int64Value
        default: nil
        }
    }

    private static func strings(_ value: Any) -> [String]? {
        if let array = value as? [String] { return array }
        if let array = value as? NSArray { return array.compactMap { $0 as? String } }
        return nil
    }

    // MARK: Edges

    func sources(_ pair: Int, of destination: Int) -> [Int] {
        edges[pair].compactMap { $0.value.contains(destination) ? $0.key : nil }.sorted()
    }

    func unlink(_ pair: Int, _ source: Int, _ destination: Int) {
        edges[pair][source]?.removeAll { $0 == destination }
    }

    /// `destination` joins `source`'s side (at `index` of an ordered one, else at its end).
    func link(_ pair: Int, _ source: Int, _ destination: Int, at index: Int? = nil) {
        let spec = spec.pairs[pair]
        if !spec.toMany { for old in edges[pair][source] ?? [] where old != destination { unlink(pair, source, old) } }
        if !spec.inverseToMany { for other in sources(pair, of: destination) where other != source { unlink(pair, other, destination) } }
        var list = edges[pair][source] ?? []
        guard !list.contains(destination) else { return }
        if let index { list.insert(destination, at: min(index, list.count)) } else { list.append(destination) }
        edges[pair][source] = list
    }

    /// Live objects of `entity` or a sub-entity (an object a refetch missed, already reported, aside).
    func candidates(_ entity: Int) -> [Int] { live.filter { objects[$0] != nil && spec.isKind(entityOf[$0], of: entity) } }

    // MARK: Operations (on the context's queue)

    /// Inserts an object of a random concrete entity, made one of the ways Core Data code makes
    /// objects.
    func insert() {
        let entityIndex = spec.concrete.randomElement(using: &random)!
        let name = spec.entities[entityIndex].name
        let type = spec.objectClass(of: entityIndex)
        let object: NSManagedObject
        let index = objects.count
        var early: [String: Any] = [:]
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            object = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
        case 1 where spec.entities[entityIndex].hasClass:
            object = RandomGraphSpec.make(name, in: context)
        case 2:
            object = type.init(entity: NSEntityDescription.entity(forEntityName: name, in: context)!, insertInto: context)
        case 3 where spec.entities[entityIndex].hasClass:
            // The class's entity, which several models in use have (with other properties).
            object = type.init(entity: type.entity(), insertInto: context)
        default:
            // Made outside a context (of the class's entity, which several models in use have,
            // or of the context's model's), given values, inserted later.
            // The class's entity serves when it has this entity's properties (a model in use
            // with the same entities, as a model built again or decoded from a `.mom` has).
            let own = coordinator.managedObjectModel.entitiesByName[name]!
            let claimed = spec.entities[entityIndex].hasClass && Bool.random(using: &random) ? type.entity() : own
            let entity = Set(claimed.propertiesByName.keys) == Set(own.propertiesByName.keys) ? claimed : own
            object = type.init(entity: entity, insertInto: nil)
            for attribute in spec.attributes(of: entityIndex) where attribute.name != "ident" && Bool.random(using: &random) {
                let value = randomValue(attribute.type)
                object.setValue(value, forKey: attribute.name)
                early[attribute.name] = value
            }
            context.insert(object)
        }
        objects.append(object)
        entityOf.append(entityIndex)
        let ident = identBase + Int64(index)
        idents.append(ident)
        values.append(early)
        object.setValue(ident, forKey: "ident")
        values[index]["ident"] = ident
        for attribute in spec.attributes(of: entityIndex) where attribute.name != "ident" && Double.random(in: 0..<1, using: &random) < 0.6
        {
            setAttribute(index, attribute)
        }
    }

    func setAttribute(_ index: Int, _ attribute: RandomGraphSpec.Attribute) {
        let value: Any? = Double.random(in: 0..<1, using: &random) < 0.15 ? nil : randomValue(attribute.type)
        objects[index]!.setValue(value, forKey: attribute.name)
        values[index][attribute.name] = value
    }

    func changeAttribute() {
        guard let index = live.filter({ objects[$0] != nil }).randomElement(using: &random) else { return }
        let attributes = spec.attributes(of: entityOf[index]).filter { $0.name != "ident" }
        if let attribute = attributes.randomElement(using: &random) { setAttribute(index, attribute) }
    }

    /// Changes a relationship from one of its sides, the way Core Data code does.
    func relate() {
        let pairIndex = spec.pairs.indices.randomElement(using: &random)!
        let pair = spec.pairs[pairIndex]
        guard let source = candidates(pair.source).randomElement(using: &random),
            let destination = candidates(pair.destination).randomElement(using: &random)
        else { return }
        let s = objects[source]!
        let d = objects[destination]!
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            // The forward side set.
            if !pair.toMany {
                if Double.random(in: 0..<1, using: &random) < 0.2 {
                    s.setValue(nil, forKey: pair.name)
                    for old in edges[pairIndex][source] ?? [] { unlink(pairIndex, source, old) }
                } else {
                    s.setValue(d, forKey: pair.name)
                    link(pairIndex, source, destination)
                }
            } else {
                let chosen = Array(candidates(pair.destination).shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)))
                let collection: Any =
                    pair.ordered ? NSOrderedSet(array: chosen.map { objects[$0]! }) : NSSet(array: chosen.map { objects[$0]! })
                s.setValue(collection, forKey: pair.name)
                for old in edges[pairIndex][source] ?? [] where !chosen.contains(old) { unlink(pairIndex, source, old) }
                for member in chosen { link(pairIndex, source, member) }
                if pair.ordered { edges[pairIndex][source] = chosen }
            }
        case 1:
            // The inverse side set.
            if !pair.inverseToMany {
                if Double.random(in: 0..<1, using: &random) < 0.2 {
                    d.setValue(nil, forKey: pair.inverseName)
                    for old in sources(pairIndex, of: destination) { unlink(pairIndex, old, destination) }
                } else {
                    d.setValue(s, forKey: pair.inverseName)
                    link(pairIndex, source, destination)
                }
            } else {
                d.mutableSetValue(forKey: pair.inverseName).add(s)
                link(pairIndex, source, destination)
            }
        case 2 where pair.toMany:
            // A member added through the live set.
            if pair.ordered, Bool.random(using: &random) {
                let set = s.mutableOrderedSetValue(forKey: pair.name)
                if !set.contains(d) {
                    set.insert(d, at: 0)
                    link(pairIndex, source, destination, at: 0)
                }
            } else if pair.ordered {
                s.mutableOrderedSetValue(forKey: pair.name).add(d)
                link(pairIndex, source, destination)
            } else {
                s.mutableSetValue(forKey: pair.name).add(d)
                link(pairIndex, source, destination)
            }
        case 3:
            // A member removed, from either side.
            if pair.toMany, Bool.random(using: &random) {
                if pair.ordered {
                    s.mutableOrderedSetValue(forKey: pair.name).remove(d)
                } else {
                    s.mutableSetValue(forKey: pair.name).remove(d)
                }
            } else if pair.inverseToMany {
                d.mutableSetValue(forKey: pair.inverseName).remove(s)
            } else {
                guard (edges[pairIndex][source] ?? []).contains(destination) else { return }
                d.setValue(nil, forKey: pair.inverseName)
            }
            unlink(pairIndex, source, destination)
        default:
            if !pair.toMany {
                s.setValue(d, forKey: pair.name)
            } else if pair.ordered {
                s.mutableOrderedSetValue(forKey: pair.name).add(d)
            } else {
                s.mutableSetValue(forKey: pair.name).add(d)
            }
            link(pairIndex, source, destination)
        }
    }

    func delete() {
        guard let index = live.filter({ objects[$0] != nil }).randomElement(using: &random) else { return }
        context.delete(objects[index]!)
        deleted.insert(index)
        for pair in spec.pairs.indices {
            edges[pair][index] = nil
            for source in sources(pair, of: index) { unlink(pair, source, index) }
        }
    }

    func randomOperations(_ count: Int, inserts: Double) {
        for _ in 0..<count {
            let draw = Double.random(in: 0..<1, using: &random)
            if draw < inserts || live.isEmpty {
                insert()
            } else if draw < inserts + 0.25 {
                changeAttribute()
            } else if draw < 0.985 {
                relate()
            } else {
                delete()
            }
        }
    }

    // MARK: Checks

    /// Compares every value of every live object with what was written.
    func verify(_ phase: String, in context: NSManagedObjectContext? = nil, objects given: [NSManagedObject?]? = nil) {
        let objects = given ?? self.objects
        var indexOf: [ObjectIdentifier: Int] = [:]
        for index in live { if let object = objects[index] { indexOf[ObjectIdentifier(object)] = index } }
        func at(_ index: Int, _ key: String) -> String {
            "\(label) \(phase): object \(index) (\(spec.entities[entityOf[index]].name), ident \(idents[index])) key \(key)"
        }
        for index in live {
            guard let object = objects[index] else {
                failures.append("\(label) \(phase): object \(index) (ident \(idents[index])) missing")
                continue
            }
            checks += 1
            let entityIndex = entityOf[index]
            if object.entity.name != spec.entities[entityIndex].name {
                failures.append(at(index, "entity: \(object.entity.name ?? "nil")"))
                continue
            }
            if type(of: object) != spec.objectClass(of: entityIndex) { failures.append(at(index, "class \(type(of: object))")) }
            // As generated accessors read: through a slot table shared by every model's entities.
            if object.value(atSlot: Self.identTable[0]) as? Int64 != idents[index] {
                failures.append(at(index, "ident through a slot table: \(String(describing: object.value(atSlot: Self.identTable[0])))"))
            }
            for attribute in spec.attributes(of: entityIndex) {
                let actual = object.value(forKey: attribute.name)
                if !Self.same(values[index][attribute.name], actual, as: attribute.type) {
                    failures.append(
                        at(index, attribute.name)
                            + " expected \(String(describing: values[index][attribute.name])), read \(String(describing: actual))")
                }
            }
            for (pairIndex, pair) in spec.pairs.enumerated() {
                if spec.isKind(entityIndex, of: pair.source) {
                    let expected = (edges[pairIndex][index] ?? []).filter { !deleted.contains($0) }
                    let actual = object.value(forKey: pair.name)
                    check(
                        actual, toMany: pair.toMany, ordered: pair.ordered, expected: expected, indexOf: indexOf,
                        at(index, pair.name) + " (\(spec.describe(pair)))")
                }
                if spec.isKind(entityIndex, of: pair.destination) {
                    let expected = sources(pairIndex, of: index).filter { !deleted.contains($0) }
                    let actual = object.value(forKey: pair.inverseName)
                    check(
                        actual, toMany: pair.inverseToMany, ordered: false, expected: expected, indexOf: indexOf,
                        at(index, pair.inverseName) + " (inverse of \(spec.describe(pair)))")
                }
            }
        }
    }

    private func check(_ actual: Any?, toMany: Bool, ordered: Bool, expected: [Int], indexOf: [ObjectIdentifier: Int], _ comment: String) {
        func index(_ value: Any) -> Int? { (value as? NSManagedObject).flatMap { indexOf[ObjectIdentifier($0)] } }
        if !toMany {
            if actual == nil, expected.isEmpty { return }
            guard let actual, !(actual is NSNull) else { return failures.append(comment + " expected \(expected), read nil") }
            guard actual is NSManagedObject else { return failures.append(comment + " holds \(type(of: actual)): \(actual)") }
            if [index(actual)] != expected.map(Optional.some) {
                failures.append(comment + " expected \(expected), read \(String(describing: index(actual)))")
            }
            return
        }
        let members: [Any]
        if let set = actual as? NSOrderedSet {
            members = set.array
        } else if let set = actual as? NSSet {
            members = set.allObjects
        } else {
            return failures.append(comment + " holds \(String(describing: actual))")
        }
        let read = members.map(index)
        if ordered {
            if read != expected.map(Optional.some) { failures.append(comment + " expected \(expected), read \(read)") }
        } else if Set(read) != Set(expected.map(Optional.some)) || read.count != expected.count {
            failures.append(comment + " expected \(expected.sorted()), read \(read)")
        }
    }

    /// Refetches every object by its `ident`, from each root entity, with the given batch size.
    func refetch(in context: NSManagedObjectContext, batchSize: Int) throws -> [NSManagedObject?] {
        var byIdent: [Int64: NSManagedObject] = [:]
        for root in spec.entities.indices where spec.entities[root].parent == nil {
            let request = NSFetchRequest<NSManagedObject>(entityName: spec.entities[root].name)
            request.fetchBatchSize = batchSize
            let fetched = try context.fetch(request)
            kept.append(fetched)
            for object in fetched {
                guard let ident = object.value(forKey: "ident") as? Int64 else {
                    failures.append(
                        "\(label): a \(object.entity.name ?? "") without an ident: \(String(describing: object.value(forKey: "ident")))")
                    continue
                }
                byIdent[ident] = object
            }
        }
        // Typed requests of entities with a class of their own and no sub-entities.
        for entity in spec.entities.indices
        where spec.entities[entity].hasClass && !spec.entities[entity].isAbstract && !spec.entities.contains(where: { $0.parent == entity })
        {
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: spec.entities[entity].name)
            let typed = try context.fetch(request)
            let expected = live.filter { entityOf[$0] == entity }.count
            if typed.count != expected {
                failures.append("\(label): \(typed.count) \(spec.entities[entity].name) fetched, \(expected) expected")
            }
            for object in typed where type(of: object) != RandomGraphSpec.objectClass(spec.entities[entity].name) {
                failures.append("\(label): a fetched \(spec.entities[entity].name) of class \(type(of: object))")
            }
        }
        if kept.count > 48 { kept.removeFirst(kept.count - 48) }
        return objects.indices.map { deleted.contains($0) ? nil : byIdent[idents[$0]] }
    }

    /// The whole sequence of one run: changes before and after saves, refreshed faults, resets
    /// with batched refetches, a child context, and a second coordinator reading the store.
    func run(rounds: Int) throws {
        for round in 0..<rounds {
            try context.performAndWait { () throws in
                randomOperations(round == 0 ? 300 : 150, inserts: round == 0 ? 0.5 : 0.2)
                verify("round \(round), before saving")
                try context.save()
                verify("round \(round), saved")
                for index in live where Double.random(in: 0..<1, using: &random) < 0.3 {
                    if let object = objects[index] { context.refresh(object, mergeChanges: false) }
                }
                verify("round \(round), refreshed")
                context.reset()
                objects = try refetch(in: context, batchSize: [0, 7, 64, 200][round % 4])
                verify("round \(round), reset and refetched")
                randomOperations(60, inserts: 0.2)
                verify("round \(round), changed after refetching")
                try context.save()
            }
            try childRound(round)
        }
        // A second coordinator reads the file.
        let (_, other) = try Self.stack(model, url)
        try other.performAndWait { () throws in
            let read = try refetch(in: other, batchSize: 25)
            verify("another coordinator", objects: read)
        }
    }

    /// Changes made in a child context, saved into the parent, then saved.
    func childRound(_ round: Int) throws {
        let ids: [NSManagedObjectID?] = context.performAndWait { objects.map { $0?.objectID } }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        let parentObjects = objects
        try child.performAndWait { () throws in
            objects = ids.map { $0.map { child.object(with: $0) } }
            let context = self.context
            self.context = child
            defer { self.context = context }
            verify("round \(round), child before changes")
            randomOperations(80, inserts: 0.25)
            verify("round \(round), child changed")
            try child.save()
        }
        let made: [NSManagedObjectID?] = child.performAndWait { objects.map { $0?.objectID } }
        try context.performAndWait { () throws in
            objects = made.enumerated().map { index, id in
                index < parentObjects.count ? parentObjects[index] : id.map { context.object(with: $0) }
            }
            verify("round \(round), parent after the child's save")
            try context.save()
            verify("round \(round), parent saved")
        }
    }
}

/// Every value read back from random object graphs is the one written: before and after saves,
/// after refreshing faults, after resets and refetches with batch sizes, through child contexts
/// and another coordinator. Several models with the same entity and class names are in use at
/// once, some built in code and some decoded from a compiled `.mom`.
@Suite struct RandomGraphValueTests {
    static func runs(seed: UInt64, folder: ScratchFolder) throws -> [RandomGraphRun] {
        var runs: [RandomGraphRun] = []
        for k in 0..<4 {
            // The fourth model is the first one's spec again, decoded from a `.mom`: two models
            // with the same entities, classes and properties, distinct descriptions.
            let spec = RandomGraphSpec(seed: seed &* 31 &+ UInt64(k % 3))
            let model = k % 2 == 1 ? try spec.compiledModel(in: folder, name: "Model\(k)") : spec.model()
            runs.append(
                try RandomGraphRun(
                    label: "seed \(seed) model \(k)\(k % 2 == 1 ? " (.mom)" : "")", spec: spec, model: model,
                    url: folder.url.appendingPathComponent("Store\(k).sqlite"), seed: seed &* 977 &+ UInt64(k),
                    identBase: Int64(k) * 1_000_000))
        }
        return runs
    }

    static func record(_ runs: [RandomGraphRun]) {
        for run in runs {
            for failure in run.failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
            if run.failures.count > 20 { Issue.record(Comment(rawValue: "\(run.label): \(run.failures.count - 20) more differences")) }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func valuesReadBackAsWrittenOneModelAfterAnother(seed: UInt64) throws {
        let folder = try ScratchFolder()
        let runs = try Self.runs(seed: seed, folder: folder)
        for run in runs { try run.run(rounds: 2) }
        Self.record(runs)
        #expect(runs.allSatisfy { $0.checks > 0 })
    }

    @Test(arguments: [UInt64(4), 5])
    func valuesReadBackAsWrittenModelsAtOnce(seed: UInt64) throws {
        let folder = try ScratchFolder()
        let runs = try Self.runs(seed: seed, folder: folder)
        let failures = Mutex<[String]>([])
        let box = UncheckedRuns(runs)
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            do { try box.runs[index].run(rounds: 2) } catch { failures.withLock { $0.append("\(box.runs[index].label): \(error)") } }
        }
        for failure in failures.withLock({ $0 }) { Issue.record(Comment(rawValue: failure)) }
        Self.record(runs)
        #expect(runs.allSatisfy { $0.checks > 0 })
    }
}

private final class UncheckedRuns: @unchecked Sendable {
    let runs: [RandomGraphRun]
    init(_ runs: [RandomGraphRun]) { self.runs = runs }
}
#endif

#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Synchronization
import Testing

/// The model and helpers of the stress tests of docs/runtime/Safety.md: `Group` (`name`, to-many
/// `items`) and `Item` (`number`, `version`, `check`, `label`, to-one `group`). An item's values
/// are always written together so that they agree (``isWhole(_:)``): `check` is
/// `number * 1000 + version` and `label` is `"number/version"`. A row read half before and half
/// after a save, or an object whose values were written by two threads at once, breaks that.
enum RaceModel {
    static let groups = 8
    /// More than a fetch registers in the registry's table (64), so fetches without a batch size
    /// also register objects by position.
    static let items = 240

    static func make() -> NSManagedObjectModel {
        let group = NSEntityDescription()
        group.name = "Group"
        group.managedObjectClassName = "NSManagedObject"
        let item = NSEntityDescription()
        item.name = "Item"
        item.managedObjectClassName = String(reflecting: SlowlyFreedItem.self)
        let items = EngineTestModel.relationship("items", to: item, toMany: true)
        let owner = EngineTestModel.relationship("group", to: group, toMany: false)
        items.inverseRelationship = owner
        owner.inverseRelationship = items
        group.properties = [EngineTestModel.attribute("name", .stringAttributeType), items]
        item.properties = [
            EngineTestModel.attribute("number", .integer64AttributeType),
            EngineTestModel.attribute("version", .integer64AttributeType, defaultValue: 0),
            EngineTestModel.attribute("check", .integer64AttributeType, defaultValue: 0),
            EngineTestModel.attribute("label", .stringAttributeType),
            owner,
        ]
        let model = NSManagedObjectModel()
        model.entities = [group, item]
        return model
    }

    /// Writes `version` into `item`, keeping its values whole.
    static func write(_ item: NSManagedObject, version: Int64) {
        let number = item.value(forKey: "number") as? Int64 ?? -1
        item.setValue(version, forKey: "version")
        item.setValue(number * 1000 + version, forKey: "check")
        item.setValue("\(number)/\(version)", forKey: "label")
    }

    /// Whether the values of `item` agree with one another.
    static func isWhole(_ item: NSManagedObject) -> Bool { isWhole { item.value(forKey: $0) } }

    /// Whether the values of a dictionary row of an item agree with one another.
    static func isWhole(_ row: NSDictionary) -> Bool { isWhole { row[$0] } }

    private static func isWhole(_ value: (String) -> Any?) -> Bool {
        guard let number = value("number") as? Int64, let version = value("version") as? Int64 else { return false }
        return value("check") as? Int64 == number * 1000 + version && value("label") as? String == "\(number)/\(version)"
    }

    static func version(_ item: NSManagedObject) -> Int64 { item.value(forKey: "version") as? Int64 ?? -1 }
    static func number(_ item: NSManagedObject) -> Int64 { item.value(forKey: "number") as? Int64 ?? -1 }

    /// A coordinator of the model over the SQLite store at `url`.
    static func coordinator(_ model: NSManagedObjectModel, at url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        return coordinator
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Writes ``groups`` groups and ``items`` items at version 0 into the store at `url`.
    static func seed(_ model: NSManagedObjectModel, at url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = try coordinator(model, at: url)
        let context = context(coordinator)
        try context.performAndWait { () throws in
            let groups = (0..<Self.groups).map { EngineTestModel.insert("Group", into: context, ["name": "group \($0)"]) }
            for number in 0..<Self.items {
                let item = EngineTestModel.insert("Item", into: context, ["number": Int64(number), "group": groups[number % Self.groups]])
                write(item, version: 0)
            }
            try context.save()
            context.reset()
        }
        return coordinator
    }

    /// The items, by number.
    static func request(batchSize: Int = 0) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "number", ascending: true)]
        request.fetchBatchSize = batchSize
        return request
    }

    /// The versions of every item in the store at `url`, read by a coordinator of its own.
    static func storedVersions(_ model: NSManagedObjectModel, at url: URL) throws -> [Int64] {
        let context = context(try coordinator(model, at: url))
        return try context.performAndWait { () throws in
            let items = try context.fetch(request())
            #expect(items.allSatisfy(isWhole))
            return items.map(version)
        }
    }
}

/// Rounds of a stress test: up to `maximum`, stopped after `seconds` (a slow build, such as one
/// with a sanitizer, runs fewer); at least one. What a test asserts holds after any number of
/// rounds; the number run is returned so expected values can be computed from it.
enum StressRounds {
    static func run(maximum: Int, seconds: Double = 3, _ body: (Int) throws -> Void) rethrows -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var round = 0
        repeat {
            try body(round)
            round += 1
        } while round < maximum && Date() < deadline
        return round
    }
}

/// Threads started together and waited for; failures thrown on them are recorded as issues.
final class StressThreads: Sendable {
    private let group = DispatchGroup()
    private let failures = Mutex<[String]>([])

    /// Starts `body` on a thread of its own.
    func start(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        let thread = Thread { [self] in
            do { try body() } catch { failures.withLock { $0.append("\(name): \(error)") } }
            group.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for every thread started, then records their failures.
    func wait() {
        group.wait()
        for failure in failures.withLock({ $0 }) { Issue.record(Comment(rawValue: failure)) }
    }
}

/// A check of a stress test's own thread, where `#expect` has no test to record an issue in: a
/// failure is thrown, and ``StressThreads/wait()`` records it.
func ensure(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw StressFailure(description: message()) }
}

struct StressFailure: Error, CustomStringConvertible {
    let description: String
}

/// Values handed from one thread to another at points the test orders itself.
final class Handed<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
#endif

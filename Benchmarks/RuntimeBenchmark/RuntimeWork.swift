#if !canImport(CoreData)
import ModelRuntime

/// The benchmark's work done through the runtime's Core Data API.
enum RuntimeWork {
    /// `Item`: Int64 `id` (indexed), String `name`, Double `score`, Date `created`, Bool `flag`.
    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let item = NSEntityDescription()
        item.name = "Item"
        let id = attribute("id", .integer64AttributeType)
        item.properties = [
            id, attribute("name", .stringAttributeType), attribute("score", .doubleAttributeType),
            attribute("created", .dateAttributeType), attribute("flag", .booleanAttributeType),
        ]
        item.indexes = [
            NSFetchIndexDescription(name: "byID", elements: [NSFetchIndexElementDescription(property: id, collationType: .binary)])
        ]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    /// A context on a new coordinator with the SQLite store at `url` (created when missing).
    static func context(model: NSManagedObjectModel, url: URL, options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The values of row `index`, shared with the SQLite floor.
    static func name(_ index: Int) -> String { "Item \(index)" }
    static func score(_ index: Int) -> Double { Double(index) * 0.5 }
    static func created(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index)) }
    static func flag(_ index: Int) -> Bool { index % 2 == 0 }

    struct Slots {
        let id, name, score, created, flag: Int
        init(_ object: NSManagedObject) {
            id = object.slot(forKey: "id")!
            name = object.slot(forKey: "name")!
            score = object.slot(forKey: "score")!
            created = object.slot(forKey: "created")!
            flag = object.slot(forKey: "flag")!
        }
    }

    static func insert(_ count: Int, context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait {
            var slots: Slots?
            for index in 0..<count {
                let object = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                let s = slots ?? Slots(object)
                slots = s
                object.setValue(Int64(index), atSlot: s.id)
                object.setValue(name(index), atSlot: s.name)
                object.setValue(score(index), atSlot: s.score)
                object.setValue(created(index), atSlot: s.created)
                object.setValue(flag(index), atSlot: s.flag)
            }
            try context.save()
            return count
        }
    }

    /// Reads every attribute of every object; the checksum keeps the reads from being optimised away.
    static func read(_ objects: [NSManagedObject], checksum: inout Int) {
        guard let first = objects.first else { return }
        let s = Slots(first)
        for object in objects {
            let id = object.value(atSlot: s.id, as: Int64.self) ?? 0
            let name = object.value(atSlot: s.name, as: String.self) ?? ""
            let score = object.value(atSlot: s.score, as: Double.self) ?? 0
            let created = object.value(atSlot: s.created, as: Date.self) ?? .distantPast
            let flag = object.value(atSlot: s.flag, as: Bool.self) ?? false
            checksum &+= Int(id) &+ name.utf8.count &+ Int(score) &+ Int(created.timeIntervalSinceReferenceDate) &+ (flag ? 1 : 0)
        }
    }

    static func fetchAll(context: NSManagedObjectContext, checksum: inout Int) throws -> Int {
        try context.performAndWait {
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            read(objects, checksum: &checksum)
            return objects.count
        }
    }

    /// `id < limit` through the index, `repeats` times, each in a fresh context of `coordinator`.
    static func filtered(coordinator: NSPersistentStoreCoordinator, limit: Int, repeats: Int, checksum: inout Int) throws -> Int {
        var rows = 0
        for _ in 0..<repeats {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            rows += try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = NSPredicate(format: "id < %d", limit)
                let objects = try context.fetch(request)
                read(objects, checksum: &checksum)
                return objects.count
            }
        }
        return rows
    }

    static func batched(context: NSManagedObjectContext, batchSize: Int, checksum: inout Int) throws -> Int {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.fetchBatchSize = batchSize
            let objects = try context.fetch(request)
            read(objects, checksum: &checksum)
            return objects.count
        }
    }

    static func dictionaries(context: NSManagedObjectContext, checksum: inout Int) throws -> Int {
        try context.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: "Item")
            request.resultType = .dictionaryResultType
            let rows = try context.fetch(request)
            for row in rows {
                let id = row["id"] as? Int64 ?? 0
                let name = row["name"] as? String ?? ""
                let score = row["score"] as? Double ?? 0
                let created = row["created"] as? Date ?? .distantPast
                let flag = row["flag"] as? Bool ?? false
                checksum &+= Int(id) &+ name.utf8.count &+ Int(score) &+ Int(created.timeIntervalSinceReferenceDate) &+ (flag ? 1 : 0)
            }
            return rows.count
        }
    }

    /// `count` times: fetch one object by `id`, change its score, save.
    static func updates(_ count: Int, of rows: Int, context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait {
            var scoreSlot: Int?
            for index in 0..<count {
                let key = (index &* 7_919) % rows
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = NSPredicate(format: "id == %d", key)
                request.fetchLimit = 1
                guard let object = try context.fetch(request).first else { throw BenchmarkError("no item with id \(key)") }
                let slot = scoreSlot ?? object.slot(forKey: "score")!
                scoreSlot = slot
                object.setValue(Double(index) + 0.25, atSlot: slot)
                try context.save()
            }
            return count
        }
    }
}
#endif

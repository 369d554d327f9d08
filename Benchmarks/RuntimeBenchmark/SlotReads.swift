#if !canImport(CoreData)
import ModelRuntime

/// What generated accessors pay for resolving their slots per entity: the same typed reads of the
/// five attributes of loaded objects by slot number (what a per-class slot constant gave) and
/// through a `SlotTable` (what generated accessors do), and, for comparison, through the table
/// as `Any` then cast; first with one model in use, then for objects of a second model (whose
/// entity is the table's second entry).
enum SlotReads {
    private enum Slots {
        private static let table = SlotTable(["id", "name", "score", "created", "flag"])
        static let id = table[0]
        static let name = table[1]
        static let score = table[2]
        static let created = table[3]
        static let flag = table[4]
    }

    static func byNumber(_ objects: [NSManagedObject], passes: Int) -> Int {
        let s = RuntimeWork.Slots(objects[0])
        var checksum = 0
        for _ in 0..<passes {
            for object in objects {
                checksum &+= Int(object.value(atSlot: s.id, as: Int64.self) ?? 0)
                checksum &+= object.value(atSlot: s.name, as: String.self)?.utf8.count ?? 0
                checksum &+= Int(object.value(atSlot: s.score, as: Double.self) ?? 0)
                checksum &+= object.value(atSlot: s.created, as: Date.self) == nil ? 0 : 1
                checksum &+= object.value(atSlot: s.flag, as: Bool.self) == true ? 1 : 0
            }
        }
        return checksum
    }

    /// The reads generated accessors make.
    static func byReference(_ objects: [NSManagedObject], passes: Int) -> Int {
        var checksum = 0
        for _ in 0..<passes {
            for object in objects {
                checksum &+= Int(object.value(atSlot: Slots.id, as: Int64.self) ?? 0)
                checksum &+= object.value(atSlot: Slots.name, as: String.self)?.utf8.count ?? 0
                checksum &+= Int(object.value(atSlot: Slots.score, as: Double.self) ?? 0)
                checksum &+= object.value(atSlot: Slots.created, as: Date.self) == nil ? 0 : 1
                checksum &+= object.value(atSlot: Slots.flag, as: Bool.self) == true ? 1 : 0
            }
        }
        return checksum
    }

    /// The same values read as `Any` and cast (`value(atSlot:) as? T`), as generated accessors
    /// read them before they read typed.
    static func byCast(_ objects: [NSManagedObject], passes: Int) -> Int {
        var checksum = 0
        for _ in 0..<passes {
            for object in objects {
                checksum &+= Int(object.value(atSlot: Slots.id) as? Int64 ?? 0)
                checksum &+= (object.value(atSlot: Slots.name) as? String)?.utf8.count ?? 0
                checksum &+= Int(object.value(atSlot: Slots.score) as? Double ?? 0)
                checksum &+= (object.value(atSlot: Slots.created) as? Date) == nil ? 0 : 1
                checksum &+= (object.value(atSlot: Slots.flag) as? Bool) == true ? 1 : 0
            }
        }
        return checksum
    }

    /// `rows` objects of a fresh in-memory store of `model`, loaded.
    static func objects(_ rows: Int, model: NSManagedObjectModel) throws -> (NSManagedObjectContext, [NSManagedObject]) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        _ = try RuntimeWork.insert(rows, context: context)
        let objects = try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        context.performAndWait { _ = byNumber(objects, passes: 1) }
        return (context, objects)
    }

    /// Nanoseconds per typed read, by number and by reference, for each of the two models.
    static func report(rows: Int, passes: Int) throws -> String {
        var lines: [String] = []
        var checksum = 0
        // The first model's objects stay alive, so the second model's entity is the table's second.
        var kept: [(NSManagedObjectContext, [NSManagedObject])] = []
        for label in ["one model in use", "a second model (the table's second entity)"] {
            let (context, objects) = try Self.objects(rows, model: RuntimeWork.model())
            kept.append((context, objects))
            let reads = Double(objects.count * passes * 5)
            context.performAndWait {
                checksum &+= byReference(objects, passes: 1)
                let number = Measure.seconds { checksum &+= byNumber(objects, passes: passes) }.wall
                let reference = Measure.seconds { checksum &+= byReference(objects, passes: passes) }.wall
                let cast = Measure.seconds { checksum &+= byCast(objects, passes: passes) }.wall
                func nanoseconds(_ seconds: Double) -> String { String(format: "%.1f", seconds / reads * 1e9) }
                lines.append(
                    "typed reads, \(label): by slot number \(nanoseconds(number)) ns, "
                        + "through the slot table \(nanoseconds(reference)) ns, "
                        + "through the slot table as Any and cast \(nanoseconds(cast)) ns")
            }
        }
        lines.append("checksum \(checksum) (\(kept.count) stores)")
        return lines.joined(separator: "\n")
    }
}
#endif

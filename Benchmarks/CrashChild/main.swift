// The child process of the runtime's crash-safety test (`Tests/ModelRuntimeTests/Engine/CrashSafetyTests.swift`).
//
//     modelruntime-crash-child <model.mom> <store.sqlite> [saves]
//
// Opens the store with the runtime, continues the numbered sequence of saves where the store left
// it, and writes `ready` and then `saved N` to standard output (unbuffered) after each `save()`
// returns, until it has made `saves` saves (default: unbounded) or is killed. Save N, against the
// crash test's model (roots `Batch`, `Item`, `Owner`), does exactly this:
//
// - inserts `Batch` N (`label` "batch N") with 1 + N % 3 `Item`s (`index` i, `text` "item N.i"),
//   owned by `Owner` "owner <N % 3>" (inserted when missing), whose `saves` count goes up by one;
// - relabels `Batch` N-1 to "batch <N-1> updated" and, when N % 4 == 0, moves it to
//   `Owner` "owner <(N+1) % 3>" (inserted when missing);
// - deletes `Batch` N-6 and, by the cascade rule, its items.
//
// Exit status: 0 after the requested saves, 1 on any error (printed to standard error).
import Foundation
import ModelRuntime

func report(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("modelruntime-crash-child: \(message)\n".utf8))
    exit(1)
}

/// The objects of the store the next save works on, loaded once and kept current.
final class SaveSequence {
    let context: NSManagedObjectContext
    var batches: [Int64: NSManagedObject] = [:]
    var owners: [String: NSManagedObject] = [:]
    var last: Int64 = 0

    init(context: NSManagedObjectContext) throws {
        self.context = context
        for batch in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Batch")) {
            guard let number = batch.value(forKey: "number") as? Int64 else { fail("a batch without a number") }
            batches[number] = batch
            last = max(last, number)
        }
        for owner in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner")) {
            guard let name = owner.value(forKey: "name") as? String else { fail("an owner without a name") }
            owners[name] = owner
        }
    }

    func owner(_ index: Int64) -> NSManagedObject {
        let name = "owner \(index)"
        if let owner = owners[name] { return owner }
        let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
        owner.setValue(name, forKey: "name")
        owner.setValue(Int64(0), forKey: "saves")
        owners[name] = owner
        return owner
    }

    /// Makes the changes of the next save in the context and saves them.
    func saveNext() throws -> Int64 {
        let number = last + 1
        let owner = owner(number % 3)
        let batch = NSEntityDescription.insertNewObject(forEntityName: "Batch", into: context)
        batch.setValue(number, forKey: "number")
        batch.setValue("batch \(number)", forKey: "label")
        batch.setValue(owner, forKey: "owner")
        for index in 0..<(1 + number % 3) {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(index, forKey: "index")
            item.setValue("item \(number).\(index)", forKey: "text")
            item.setValue(batch, forKey: "batch")
        }
        owner.setValue(((owner.value(forKey: "saves") as? Int64) ?? 0) + 1, forKey: "saves")
        if let previous = batches[number - 1] {
            previous.setValue("batch \(number - 1) updated", forKey: "label")
            if number % 4 == 0 { previous.setValue(self.owner((number + 1) % 3), forKey: "owner") }
        }
        if let old = batches.removeValue(forKey: number - 6) { context.delete(old) }
        batches[number] = batch
        try context.save()
        last = number
        return number
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else { fail("usage: modelruntime-crash-child <model.mom> <store.sqlite> [saves]") }
guard let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[1])) else {
    fail("cannot read the model \(arguments[1])")
}
let limit = arguments.count == 4 ? Int(arguments[3]) ?? 0 : Int.max
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
do {
    _ = try coordinator.addPersistentStore(
        ofType: NSSQLiteStoreType, configurationName: nil, at: URL(fileURLWithPath: arguments[2]), options: nil)
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    try context.performAndWait {
        let sequence = try SaveSequence(context: context)
        report("ready")
        var made = 0
        while made < limit {
            report("saved \(try sequence.saveNext())")
            made += 1
        }
    }
} catch {
    fail("\(error)")
}

#if !canImport(CoreData)
import Foundation
import ModelRuntime

/// Batch inserts of `Item` rows through `NSBatchInsertRequest`, each into a new store, to set
/// next to the floor's prepared `INSERT`s (`SQLiteFloor.insert`) into another new store.
enum BatchWork {
    /// Core Data's handler form: one dictionary filled per row.
    static func insertWithDictionaryHandler(_ count: Int, context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait {
            var index = 0
            let request = NSBatchInsertRequest(entityName: "Item") { (row: NSMutableDictionary) -> Bool in
                guard index < count else { return true }
                row["id"] = Int64(index)
                row["name"] = RuntimeWork.name(index)
                row["score"] = RuntimeWork.score(index)
                row["created"] = RuntimeWork.created(index)
                row["flag"] = RuntimeWork.flag(index)
                index += 1
                return false
            }
            request.resultType = .count
            return (try context.execute(request) as? NSBatchInsertResult)?.result as? Int ?? 0
        }
    }

    /// The positional form generated typed helpers use: values by index, no dictionary per row.
    static func insertByPosition(_ count: Int, context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait {
            let entity = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Item"]!
            let request = NSBatchInsertRequest(entity: entity, keys: ["id", "name", "score", "created", "flag"], count: count) {
                index, row in
                row[0] = Int64(index)
                row[1] = RuntimeWork.name(index)
                row[2] = RuntimeWork.score(index)
                row[3] = RuntimeWork.created(index)
                row[4] = RuntimeWork.flag(index)
            }
            request.resultType = .count
            return (try context.execute(request) as? NSBatchInsertResult)?.result as? Int ?? 0
        }
    }
}
#endif

#if !canImport(CoreData)
import ModelQuery

/// What a batch insert returns (`NSBatchInsertRequestResultType`).
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// `result` is a `Bool`: whether the request succeeded.
    case statusOnly = 0
    /// `result` is an `[NSManagedObjectID]` of the inserted (or upserted) rows, in input order.
    case objectIDs = 1
    /// `result` is an `Int`: the number of rows written.
    case count = 2
}

/// What a batch delete returns (`NSBatchDeleteRequestResultType`).
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    case resultTypeStatusOnly = 0
    case resultTypeObjectIDs = 1
    case resultTypeCount = 2
}

/// What a batch update returns (`NSBatchUpdateRequestResultType`).
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    case statusOnlyResultType = 0
    case updatedObjectIDsResultType = 1
    case updatedObjectsCountResultType = 2
}

/// Inserts rows into the store without making managed objects (`NSBatchInsertRequest`): from
/// an array of dictionaries, or from a handler that fills one dictionary (or one object) per
/// call and returns true when there is nothing more to insert.
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    open private(set) var entityName: String
    open private(set) var entity: NSEntityDescription?
    open var objectsToInsert: [[String: Any]]?
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?
    open var resultType: NSBatchInsertRequestResultType = .statusOnly
    /// Rows bound straight to the insert statement by typed helpers (see `BatchInsertRow`).
    var rowSource: BatchInsertRowSource?

    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }

    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = dictionaries
        super.init()
    }

    public init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        entityName = entity.name ?? ""
        self.entity = entity
        objectsToInsert = dictionaries
        super.init()
    }

    public init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        dictionaryHandler = handler
        super.init()
    }

    public init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        managedObjectHandler = handler
        super.init()
    }

    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        dictionaryHandler = handler
        super.init()
    }

    public init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.entityName = entityName
        managedObjectHandler = handler
        super.init()
    }

    /// A request whose rows come from `source` (typed helpers).
    init(entityName: String, entity: NSEntityDescription?, rowSource source: BatchInsertRowSource) {
        self.entityName = entityName
        self.entity = entity
        rowSource = source
        super.init()
    }
}

/// Deletes the rows a fetch request selects, or the given objects' rows, without making managed
/// objects (`NSBatchDeleteRequest`).
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    open private(set) var fetchRequest: NSFetchRequest<NSFetchRequestResult>
    /// The objects to delete when made with `init(objectIDs:)`.
    let objectIDs: [NSManagedObjectID]?
    open var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }

    public init(fetchRequest fetch: NSFetchRequest<NSFetchRequestResult>) {
        fetchRequest = fetch
        objectIDs = nil
        super.init()
    }

    /// Deletes the objects with these IDs; they must all be of one entity.
    public init(objectIDs objects: [NSManagedObjectID]) {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = objects.first?.entity
        fetchRequest = request
        objectIDs = objects
        super.init()
    }
}

/// Sets properties of the rows an entity and predicate select, in the store, without making
/// managed objects (`NSBatchUpdateRequest`).
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    open private(set) var entityName: String
    open private(set) var entity: NSEntityDescription?
    open var predicate: NSPredicate?
    open var includesSubentities = true
    open var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    /// Attribute names (or `NSPropertyDescription`s) and their new values: constants or
    /// `NSExpression`s evaluated per row.
    open var propertiesToUpdate: [AnyHashable: Any]?

    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }

    public init(entityName: String) {
        self.entityName = entityName
        super.init()
    }

    public init(entity: NSEntityDescription) {
        entityName = entity.name ?? ""
        self.entity = entity
        super.init()
    }
}

/// What executing a store request returns (`NSPersistentStoreResult`).
open class NSPersistentStoreResult: NSObject {
    public override init() {
        super.init()
    }
}

/// The result of a batch insert (`NSBatchInsertResult`): `result` as `resultType` says.
open class NSBatchInsertResult: NSPersistentStoreResult {
    open private(set) var result: Any?
    open private(set) var resultType: NSBatchInsertRequestResultType = .statusOnly

    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        self.result = result
        self.resultType = resultType
        super.init()
    }
}

/// The result of a batch delete (`NSBatchDeleteResult`).
open class NSBatchDeleteResult: NSPersistentStoreResult {
    open private(set) var result: Any?
    open private(set) var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        self.result = result
        self.resultType = resultType
        super.init()
    }
}

/// The result of a batch update (`NSBatchUpdateResult`).
open class NSBatchUpdateResult: NSPersistentStoreResult {
    open private(set) var result: Any?
    open private(set) var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType

    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        self.result = result
        self.resultType = resultType
        super.init()
    }
}
#endif

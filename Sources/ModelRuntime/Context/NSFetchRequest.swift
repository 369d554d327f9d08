#if !canImport(CoreData)
import ModelQuery

/// The kind of a store request (`NSPersistentStoreRequestType`).
public enum NSPersistentStoreRequestType: UInt, @unchecked Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}

/// A request to a persistent store (`NSPersistentStoreRequest`).
open class NSPersistentStoreRequest: NSObject, NSCopying {

    /// The stores to search; all of the coordinator's stores for nil.
    open var affectedStores: [NSPersistentStore]?
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    public override init() {
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Starts the request and returns its pending result when it runs asynchronously (an
    /// `NSAsynchronousFetchRequest`); nil for requests `execute(_:)` runs at once.
    func startAsynchronously(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult? { nil }
}

/// What a fetch returns (`NSFetchRequestResultType`).
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// A fetch of an entity's objects (`NSFetchRequest`). `ResultType` is unconstrained here (Core
/// Data requires `NSFetchRequestResult`), so `NSFetchRequest<NSFetchRequestResult>` compiles
/// with the protocol's existential as on Apple platforms.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest {
    open var entity: NSEntityDescription?
    private var storedEntityName: String?
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
    open var fetchLimit: Int = 0
    open var fetchOffset: Int = 0
    open var fetchBatchSize: Int = 0
    open var includesSubentities = true
    open var includesPendingChanges = true
    open var includesPropertyValues = true
    open var returnsObjectsAsFaults = true
    open var returnsDistinctResults = false
    open var shouldRefreshRefetchedObjects = false
    open var relationshipKeyPathsForPrefetching: [String]?
    /// Names or `NSPropertyDescription`s (attributes, to-one relationships,
    /// `NSExpressionDescription`s) of the values a dictionary result holds.
    open var propertiesToFetch: [Any]?
    /// Names, `NSPropertyDescription`s or `NSExpressionDescription`s to group dictionary results
    /// by (SQL `GROUP BY`); requires `.dictionaryResultType`.
    open var propertiesToGroupBy: [Any]?
    /// Filters the groups of a grouped fetch (SQL `HAVING`); requires `propertiesToGroupBy`.
    open var havingPredicate: NSPredicate?
    open var resultType: NSFetchRequestResultType = .managedObjectResultType

    public override init() {
        super.init()
    }

    public convenience init(entityName: String) {
        self.init()
        storedEntityName = entityName
    }

    /// The entity's name: the one given, or the entity's.
    open var entityName: String? { entity?.name ?? storedEntityName }

    open override func copy(with zone: NSZone? = nil) -> Any { copy(resultType: ResultType.self) }

    /// The same request with results of another type (a fetched-results controller's delegate
    /// sees its request as `NSFetchRequest<NSFetchRequestResult>`).
    func copy<Other>(resultType _: Other.Type) -> NSFetchRequest<Other> {
        let copy = NSFetchRequest<Other>()
        copy.entity = entity
        copy.storedEntityName = storedEntityName
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.includesSubentities = includesSubentities
        copy.includesPendingChanges = includesPendingChanges
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        copy.propertiesToFetch = propertiesToFetch
        copy.propertiesToGroupBy = propertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.returnsDistinctResults = returnsDistinctResults
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }

    open override var description: String {
        "<NSFetchRequest: entity: \(entityName ?? "(null)"), predicate: (\(predicate?.predicateFormat ?? "(null)")), "
            + "sortDescriptors: (\(sortDescriptors.map { "\($0)" } ?? "(null)")), type: \(resultType.rawValue)>"
    }
}

#endif

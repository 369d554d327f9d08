#if !canImport(CoreData)
import ModelQuery

/// The results of a fetch request in sections, kept up to date with the context's changes and
/// reported to a delegate (`NSFetchedResultsController`).
///
/// Without a delegate the results stay as `performFetch()` left them; with one, every
/// `NSManagedObjectContextObjectsDidChange` of the context (its processed changes, merges,
/// saves of child contexts, rollbacks) updates the results — in memory when the request reads
/// only the entity's own attributes and the change set is small, else by fetching again — and
/// reports the difference. After the context's `reset()` the results are gone until
/// `performFetch()`.
/// The delegate receives an `NSFetchedResultsController<NSFetchRequestResult>` that shares
/// this controller's results (`isEqual(_:)` holds between them; `===` only when `ResultType`
/// is `NSFetchRequestResult`).
open class NSFetchedResultsController<ResultType>: NSObject {
    private let requestSource: () -> NSFetchRequest<ResultType>
    public let managedObjectContext: NSManagedObjectContext
    public let sectionNameKeyPath: String?
    public let cacheName: String?
    let state: FetchedResultsState
    /// The view the delegate receives when `ResultType` is not `NSFetchRequestResult`.
    private var delegateViewStorage: NSFetchedResultsController<NSFetchRequestResult>?

    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext, sectionNameKeyPath: String?,
        cacheName name: String?
    ) {
        requestSource = { fetchRequest }
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        cacheName = name
        state = FetchedResultsState(
            context: context, sectionNameKeyPath: sectionNameKeyPath,
            inMemory: { FetchedResultsInMemory(request: fetchRequest, context: context, sectionNameKeyPath: sectionNameKeyPath) },
            fetch: { try context.fetch(fetchRequest).map { $0 as AnyObject } })
        super.init()
        if let view = self as? NSFetchedResultsController<NSFetchRequestResult> {
            state.delegateView = view
        } else {
            let view = NSFetchedResultsController<NSFetchRequestResult>(
                sharing: state, request: { fetchRequest.copy(resultType: NSFetchRequestResult.self) }, context: context,
                sectionNameKeyPath: sectionNameKeyPath,
                cacheName: name)
            delegateViewStorage = view
            state.delegateView = view
        }
        let weakSelf = WeakController(self)
        state.ownIndexTitle = { name in weakSelf.controller?.sectionIndexTitle(forSectionName: name) ?? nil }
    }

    private init(
        sharing state: FetchedResultsState, request: @escaping () -> NSFetchRequest<ResultType>, context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName: String?
    ) {
        requestSource = request
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.state = state
        super.init()
    }

    /// The request (for the delegate's view of a typed controller: a copy of the typed request).
    open var fetchRequest: NSFetchRequest<ResultType> { requestSource() }

    open weak var delegate: NSFetchedResultsControllerDelegate? {
        get { state.delegate }
        set { state.delegate = newValue }
    }

    /// Fetches, computes the sections and, with a delegate, starts tracking changes. A request
    /// without sort descriptors is refused (Core Data raises `NSInvalidArgumentException`; here
    /// the error is thrown); so are results whose section names are out of order.
    open func performFetch() throws {
        guard fetchRequest.sortDescriptors != nil else {
            throw CoreDataError.make(
                NSCoreDataError, "An instance of NSFetchedResultsController requires a fetch request with sort descriptors")
        }
        try state.performFetch()
    }

    /// The fetched objects in section order, or nil before `performFetch()`.
    open var fetchedObjects: [ResultType]? { state.objects?.map { $0 as! ResultType } }

    /// The sections; a controller without `sectionNameKeyPath` has one, named "".
    open var sections: [NSFetchedResultsSectionInfo]? { state.sections }

    /// The object at a section and row; a path outside the results is a programming error, as
    /// with Core Data's range exception.
    open func object(at indexPath: IndexPath) -> ResultType {
        guard indexPath.count == 2, let sections = state.sections, sections.indices.contains(indexPath[0]),
            sections[indexPath[0]].members.indices.contains(indexPath[1])
        else {
            preconditionFailure(
                "NSFetchedResultsController: no object at index \(indexPath.last ?? -1) in section at index \(indexPath.first ?? -1)")
        }
        return sections[indexPath[0]].members[indexPath[1]] as! ResultType
    }

    open func indexPath(forObject object: ResultType) -> IndexPath? {
        state.indexPath(of: object as AnyObject)
    }

    /// The index titles of the sections, each once, in section order.
    open var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return (state.sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// A section's index title: the capitalized first letter of its name.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        FetchedResultsState.defaultIndexTitle(sectionName)
    }

    /// The first section with the index title, or `NSNotFound`.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        (state.sections ?? []).firstIndex { $0.indexTitle == title } ?? NSNotFound
    }

    /// Core Data removes the named on-disk cache (all caches for nil). This runtime keeps no
    /// cache on disk, so there is nothing to remove.
    open class func deleteCache(withName name: String?) {}

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? FetchedResultsStateHolder else { return false }
        return other.state === state
    }

    open override var hash: Int { ObjectIdentifier(state).hashValue }
}

/// Any specialisation of the controller, for comparing a controller with its delegate view.
protocol FetchedResultsStateHolder: AnyObject {
    var state: FetchedResultsState { get }
}

extension NSFetchedResultsController: FetchedResultsStateHolder {}

private final class WeakController<ResultType>: @unchecked Sendable {
    weak var controller: NSFetchedResultsController<ResultType>?
    init(_ controller: NSFetchedResultsController<ResultType>) { self.controller = controller }
}

#endif

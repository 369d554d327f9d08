#if !canImport(CoreData)
import ModelQuery

/// The kinds of change a fetched results controller reports (`NSFetchedResultsChangeType`),
/// with Core Data's raw values.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}

/// What a fetched results controller tells its delegate (`NSFetchedResultsControllerDelegate`).
/// Every method is optional, as in Core Data: the extension below supplies the defaults.
///
/// - When `controller(_:didChangeContentWith:)` with a snapshot is implemented, no other change
///   method is called.
/// - Otherwise, when the controller has no `sectionNameKeyPath` and the `CollectionDifference`
///   form is implemented, only that one is called.
/// - Otherwise `controllerWillChangeContent(_:)`, the section and object changes, then
///   `controllerDidChangeContent(_:)`. Index paths of deletes, moves and updates are in the
///   previous results; those of inserts and moves (`newIndexPath`) in the new results.
public protocol NSFetchedResultsControllerDelegate: NSObjectProtocol {
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String)
        -> String?
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference
    )
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

/// The defaults stand for methods a delegate does not implement. The three whose absence
/// changes what the controller does note that they ran, so the controller knows.
extension NSFetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}

    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType
    ) {}

    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String
    )
        -> String?
    {
        controller.state.unimplemented.insert(.sectionIndexTitle)
        return nil
    }

    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference
    ) {
        controller.state.unimplemented.insert(.snapshot)
    }

    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        controller.state.unimplemented.insert(.difference)
    }
}
#endif

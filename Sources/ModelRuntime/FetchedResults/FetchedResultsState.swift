#if !canImport(CoreData)
import ModelQuery

/// What a fetched results controller holds, shared by the controller and the
/// `NSFetchedResultsController<NSFetchRequestResult>` view of it that its delegate receives
/// (Swift generics are not covariant, so the delegate cannot get the typed controller itself).
final class FetchedResultsState {
    /// Optional delegate methods whose absence changes what the controller does.
    enum DelegateMethod: Hashable {
        case snapshot
        case difference
        case sectionIndexTitle
    }

    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    /// Runs the controller's fetch request (as it is now).
    private let fetchRequest: () throws -> [AnyObject]
    /// Whether and how changes apply in memory, for the request as it is now.
    private let inMemoryPlan: () -> FetchedResultsInMemory?
    /// The plan made by the last `performFetch()`.
    private var inMemory: FetchedResultsInMemory?
    /// How many times the controller fetched from the context (observable in tests).
    private(set) var fetchCount = 0
    /// The controller's `sectionIndexTitle(forSectionName:)`, which a subclass may override.
    var ownIndexTitle: (String) -> String? = FetchedResultsState.defaultIndexTitle

    private(set) var objects: [AnyObject]?
    private(set) var sections: [FetchedSection]?
    private var paths: [ObjectIdentifier: IndexPath] = [:]
    /// The objects of object ID results (see ``key(of:)``).
    private var objectsOfIDs: [NSManagedObjectID: NSManagedObject] = [:]

    weak var delegate: NSFetchedResultsControllerDelegate? {
        didSet {
            unimplemented = []
            updateObservation()
        }
    }
    /// The delegate's optional methods found missing (their default implementations ran).
    var unimplemented: Set<DelegateMethod> = []
    /// The view handed to the delegate.
    weak var delegateView: NSFetchedResultsController<NSFetchRequestResult>?
    private var observers: [NSObjectProtocol] = []

    init(
        context: NSManagedObjectContext, sectionNameKeyPath: String?, inMemory: @escaping () -> FetchedResultsInMemory? = { nil },
        fetch: @escaping () throws -> [AnyObject]
    ) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        inMemoryPlan = inMemory
        fetchRequest = fetch
    }

    private func fetch() throws -> [AnyObject] {
        fetchCount += 1
        return try fetchRequest()
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    static func defaultIndexTitle(_ sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    // MARK: Fetching

    func performFetch() throws {
        let fetched = try fetch()
        let grouped = group(fetched)
        if let index = grouped.outOfOrderIndex, let name = grouped.outOfOrderName {
            throw CoreDataError.make(
                NSCoreDataError,
                "The fetched object at index \(index) has an out of order section name '\(name)'. Objects must be sorted by section name")
        }
        install(grouped.sections)
        inMemory = inMemoryPlan()
        updateObservation()
    }

    /// Forgets the results (after the context's `reset()`): `performFetch()` fetches again.
    private func invalidate() {
        objects = nil
        sections = nil
        paths = [:]
    }

    private func install(_ newSections: [FetchedSection]) {
        sections = newSections
        objects = newSections.flatMap(\.members)
        paths = [:]
        for (sectionIndex, section) in newSections.enumerated() {
            for (row, object) in section.members.enumerated() { paths[key(of: object)] = IndexPath(indexes: [sectionIndex, row]) }
        }
    }

    func indexPath(of object: AnyObject) -> IndexPath? { paths[key(of: object)] }

    /// An object's identity: the managed object itself, also for object ID results.
    func key(of object: AnyObject) -> ObjectIdentifier {
        if let id = object as? NSManagedObjectID { return ObjectIdentifier(heldObject(for: id)) }
        return ObjectIdentifier(object)
    }

    func managedObject(_ object: AnyObject) -> NSManagedObject? {
        (object as? NSManagedObject) ?? (object as? NSManagedObjectID).map(heldObject(for:))
    }

    /// The context's object for an object ID result, held so the ID keeps one object (and one
    /// key) while the controller lives: the context's registry holds unchanged objects weakly.
    private func heldObject(for id: NSManagedObjectID) -> NSManagedObject {
        if let held = objectsOfIDs[id], held.managedObjectContext === context { return held }
        let object = context.object(with: id)
        objectsOfIDs[id] = object
        return object
    }

    func objectID(_ object: AnyObject) -> NSManagedObjectID? {
        (object as? NSManagedObjectID) ?? (object as? NSManagedObject)?.objectID
    }

    /// Sections of consecutive objects with equal section names. An object whose section came
    /// earlier joins that section (and the position is reported for `performFetch()`).
    private func group(_ fetched: [AnyObject]) -> (sections: [FetchedSection], outOfOrderIndex: Int?, outOfOrderName: String?) {
        guard let sectionNameKeyPath else {
            return ([FetchedSection(name: "", indexTitle: nil, members: fetched)], nil, nil)
        }
        var names: [String] = []
        var members: [String: [AnyObject]] = [:]
        var outOfOrder: (Int, String)?
        for (index, object) in fetched.enumerated() {
            let name = Self.sectionName(managedObject(object)?.value(forKeyPath: sectionNameKeyPath))
            if members[name] == nil {
                names.append(name)
            } else if names.last != name, outOfOrder == nil {
                outOfOrder = (index, name)
            }
            members[name, default: []].append(object)
        }
        let sections = names.map { FetchedSection(name: $0, indexTitle: indexTitle(forSectionName: $0), members: members[$0] ?? []) }
        return (sections, outOfOrder?.0, outOfOrder?.1)
    }

    static func sectionName(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let value?: return String(describing: value)
        }
    }

    func indexTitle(forSectionName name: String) -> String? {
        if let delegate, let view = delegateView, !unimplemented.contains(.sectionIndexTitle) {
            let title = delegate.controller(view, sectionIndexTitleForSectionName: name)
            if !unimplemented.contains(.sectionIndexTitle) { return title }
        }
        return ownIndexTitle(name)
    }

    // MARK: Tracking

    private func updateObservation() {
        if delegate == nil {
            for observer in observers { NotificationCenter.default.removeObserver(observer) }
            observers = []
            return
        }
        guard observers.isEmpty else { return }
        let box = WeakFetchedResultsState(self)
        observers = [
            NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) {
                notification in box.state?.contextDidChange(notification.userInfo ?? [:])
            },
            NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) { _ in
                box.state?.contextDidSave()
            },
        ]
    }

    /// A save of the context: changes already reported (a save processes pending changes
    /// first) leave results of managed objects as they are; object IDs change on a save, and
    /// requests the controller cannot follow in memory fetch again.
    private func contextDidSave() {
        if inMemory == nil { contextDidChange([:]) }
    }

    /// Applies the changes to the results (in memory when the request allows it and the change
    /// set is small, else by fetching again) and reports the difference to the delegate.
    func contextDidChange(_ info: [AnyHashable: Any]) {
        guard let oldSections = sections, let delegate, let view = delegateView else { return }
        if info[NSInvalidatedAllObjectsKey] != nil { return invalidate() }
        let applied = info.isEmpty ? nil : inMemory?.apply(info, to: objects ?? [])
        guard let fetched = applied ?? (try? fetch()) else { return }
        let newSections = group(fetched).sections
        var updated: Set<ObjectIdentifier> = []
        for key in [NSUpdatedObjectsKey, NSRefreshedObjectsKey] {
            for object in info[key] as? Set<NSManagedObject> ?? [] { updated.insert(ObjectIdentifier(object)) }
        }
        let diff = FetchedResultsDiff(
            from: oldSections.map { FetchedResultsDiff.Section(name: $0.name, keys: $0.members.map(key(of:))) },
            to: newSections.map { FetchedResultsDiff.Section(name: $0.name, keys: $0.members.map(key(of:))) },
            updated: updated)
        guard !diff.isEmpty else { return }
        var objectsByKey: [ObjectIdentifier: AnyObject] = [:]
        for object in oldSections.flatMap(\.members) + newSections.flatMap(\.members) { objectsByKey[key(of: object)] = object }
        install(newSections)
        report(diff, objectsByKey: objectsByKey, oldSections: oldSections, to: delegate, view: view)
    }

    private func report(
        _ diff: FetchedResultsDiff, objectsByKey: [ObjectIdentifier: AnyObject], oldSections: [FetchedSection],
        to delegate: NSFetchedResultsControllerDelegate, view: NSFetchedResultsController<NSFetchRequestResult>
    ) {
        if !unimplemented.contains(.snapshot) {
            delegate.controller(view, didChangeContentWith: NSDiffableDataSourceSnapshotReference(snapshot()))
            if !unimplemented.contains(.snapshot) { return }
        }
        if sectionNameKeyPath == nil, !unimplemented.contains(.difference) {
            delegate.controller(view, didChangeContentWith: difference(diff, objectsByKey: objectsByKey))
            if !unimplemented.contains(.difference) { return }
        }
        let newSections = sections ?? []
        delegate.controllerWillChangeContent(view)
        for change in diff.sectionChanges {
            let info = change.type == .delete ? oldSections[change.index] : newSections[change.index]
            delegate.controller(view, didChange: info, atSectionIndex: change.index, for: change.type)
        }
        for change in diff.objectChanges {
            guard let object = objectsByKey[change.key] else { continue }
            delegate.controller(view, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
    }

    /// The results as section names and object IDs.
    func snapshot() -> NSDiffableDataSourceSnapshot<String, NSManagedObjectID> {
        var snapshot = NSDiffableDataSourceSnapshot<String, NSManagedObjectID>()
        for section in sections ?? [] {
            snapshot.appendSections([section.name])
            snapshot.appendItems(section.members.compactMap(objectID), toSection: section.name)
        }
        return snapshot
    }

    /// The single section's changes as a collection difference of object IDs (moves are a
    /// removal and an insertion associated with each other; updates are not part of it).
    private func difference(_ diff: FetchedResultsDiff, objectsByKey: [ObjectIdentifier: AnyObject]) -> CollectionDifference<
        NSManagedObjectID
    > {
        var changes: [CollectionDifference<NSManagedObjectID>.Change] = []
        for change in diff.objectChanges {
            guard let object = objectsByKey[change.key], let id = objectID(object) else { continue }
            switch change.type {
            case .delete:
                changes.append(.remove(offset: change.indexPath![1], element: id, associatedWith: nil))
            case .insert:
                changes.append(.insert(offset: change.newIndexPath![1], element: id, associatedWith: nil))
            case .move:
                changes.append(.remove(offset: change.indexPath![1], element: id, associatedWith: change.newIndexPath![1]))
                changes.append(.insert(offset: change.newIndexPath![1], element: id, associatedWith: change.indexPath![1]))
            case .update:
                break
            }
        }
        return CollectionDifference(changes) ?? CollectionDifference([])!
    }
}

/// A weak reference the notification observers (`@Sendable` closures) capture; they run on the
/// context's queue, where the controller is used.
final class WeakFetchedResultsState: @unchecked Sendable {
    weak var state: FetchedResultsState?
    init(_ state: FetchedResultsState) { self.state = state }
}
#endif

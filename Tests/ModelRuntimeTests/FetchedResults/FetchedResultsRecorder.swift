#if !canImport(CoreData)
import Foundation
import ModelRuntime

/// A delegate that records what a fetched results controller reports.
final class FetchedResultsRecorder: NSObject, NSFetchedResultsControllerDelegate {
    struct ObjectChange {
        let object: NSManagedObject
        let type: NSFetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    struct SectionChange {
        let name: String
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    var events: [String] = []
    var objectChanges: [ObjectChange] = []
    var sectionChanges: [SectionChange] = []
    var controllers: [NSFetchedResultsController<NSFetchRequestResult>] = []

    func reset() {
        events = []
        objectChanges = []
        sectionChanges = []
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("will")
        controllers.append(controller)
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        events.append("object")
        if let object = anObject as? NSManagedObject {
            objectChanges.append(ObjectChange(object: object, type: type, indexPath: indexPath, newIndexPath: newIndexPath))
        }
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType
    ) {
        events.append("section")
        sectionChanges.append(SectionChange(name: sectionInfo.name, index: sectionIndex, type: type))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("did")
    }

    /// Applies the recorded changes to `old` as a table view applies batch updates: deletes
    /// (and move sources) at their old index paths from the end, deleted sections, inserted
    /// sections, then inserts (and move destinations) at their new index paths in order.
    /// Checks on the way that old paths name the reported objects.
    func apply(to old: [(name: String, objects: [ObjectIdentifier])]) throws -> [(name: String, objects: [ObjectIdentifier])] {
        struct Mismatch: Error, CustomStringConvertible { let description: String }
        var sections = old
        for change in objectChanges where change.type != .insert {
            guard let path = change.indexPath, sections.indices.contains(path[0]), sections[path[0]].objects.indices.contains(path[1]),
                sections[path[0]].objects[path[1]] == ObjectIdentifier(change.object)
            else {
                throw Mismatch(
                    description: "old index path \(String(describing: change.indexPath)) does not name the \(change.type) object")
            }
        }
        let removals = objectChanges.filter { $0.type == .delete || $0.type == .move }.compactMap(\.indexPath)
        for path in removals.sorted(by: >) { sections[path[0]].objects.remove(at: path[1]) }
        for change in sectionChanges.filter({ $0.type == .delete }).sorted(by: { $0.index > $1.index }) {
            guard sections[change.index].objects.isEmpty, sections[change.index].name == change.name else {
                throw Mismatch(description: "deleted section \(change.index) is not the empty section \(change.name)")
            }
            sections.remove(at: change.index)
        }
        for change in sectionChanges.filter({ $0.type == .insert }).sorted(by: { $0.index < $1.index }) {
            sections.insert((change.name, []), at: change.index)
        }
        let insertions = objectChanges.filter { $0.type == .insert || $0.type == .move }
            .map { ($0.newIndexPath!, ObjectIdentifier($0.object)) }
        for (path, key) in insertions.sorted(by: { $0.0 < $1.0 }) { sections[path[0]].objects.insert(key, at: path[1]) }
        for change in objectChanges where change.type == .update {
            guard let path = change.newIndexPath ?? change.indexPath, sections.indices.contains(path[0]),
                sections[path[0]].objects.indices.contains(path[1]), sections[path[0]].objects[path[1]] == ObjectIdentifier(change.object)
            else { throw Mismatch(description: "update path does not name the updated object") }
        }
        return sections
    }
}
#endif

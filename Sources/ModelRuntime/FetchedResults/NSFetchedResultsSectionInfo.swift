#if !canImport(CoreData)
import ModelQuery

/// A section of a fetched results controller (`NSFetchedResultsSectionInfo`).
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the description of the section key path's value ("" for nil).
    var name: String { get }
    /// The section's title in a section index.
    var indexTitle: String? { get }
    var numberOfObjects: Int { get }
    /// The section's objects, in fetch order.
    var objects: [Any]? { get }
}

/// A section as the controller keeps it.
final class FetchedSection: NSObject, NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let members: [AnyObject]

    init(name: String, indexTitle: String?, members: [AnyObject]) {
        self.name = name
        self.indexTitle = indexTitle
        self.members = members
    }

    var numberOfObjects: Int { members.count }
    var objects: [Any]? { members }

    override var description: String {
        "<NSFetchedResultsSectionInfo: name \(name), \(members.count) objects>"
    }
}
#endif

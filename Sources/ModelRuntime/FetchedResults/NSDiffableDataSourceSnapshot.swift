#if !canImport(CoreData)
import ModelQuery

/// Sections and items by identifier, with the query and building API of UIKit's and AppKit's
/// `NSDiffableDataSourceSnapshot` (which is not part of Core Data and does not exist on Linux).
/// A fetched results controller describes its results as a snapshot of section names and
/// object IDs.
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    private var sectionList: [SectionIdentifierType] = []
    private var itemsBySection: [[ItemIdentifierType]] = []
    private var sectionIndexByIdentifier: [SectionIdentifierType: Int] = [:]
    private var sectionIndexByItem: [ItemIdentifierType: Int] = [:]

    public init() {}

    public var numberOfSections: Int { sectionList.count }
    public var numberOfItems: Int { sectionIndexByItem.count }
    public var sectionIdentifiers: [SectionIdentifierType] { sectionList }
    public var itemIdentifiers: [ItemIdentifierType] { itemsBySection.flatMap { $0 } }

    /// The number of items in the section; the section must exist, as UIKit requires.
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: identifier).count
    }

    /// The items of the section; the section must exist, as UIKit requires.
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        guard let index = sectionIndexByIdentifier[identifier] else {
            preconditionFailure("Invalid section identifier \(identifier): the snapshot has no such section")
        }
        return itemsBySection[index]
    }

    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        sectionIndexByItem[identifier].map { sectionList[$0] }
    }

    /// The item's position in `itemIdentifiers`, or nil.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        guard let section = sectionIndexByItem[identifier], let index = itemsBySection[section].firstIndex(of: identifier) else {
            return nil
        }
        return itemsBySection[..<section].reduce(index) { $0 + $1.count }
    }

    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        sectionIndexByIdentifier[identifier]
    }

    // MARK: Building

    /// Adds sections at the end; a section already present is a programming error, as in UIKit.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        for identifier in identifiers {
            precondition(sectionIndexByIdentifier[identifier] == nil, "Section identifier \(identifier) is already in the snapshot")
            sectionIndexByIdentifier[identifier] = sectionList.count
            sectionList.append(identifier)
            itemsBySection.append([])
        }
    }

    /// Adds items at the end of the section (the last section when nil); an item already
    /// present is a programming error, as in UIKit.
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {
        let section: Int
        if let sectionIdentifier {
            guard let index = sectionIndexByIdentifier[sectionIdentifier] else {
                preconditionFailure("Invalid section identifier \(sectionIdentifier): the snapshot has no such section")
            }
            section = index
        } else {
            precondition(!sectionList.isEmpty, "There are no sections in the snapshot to append items to")
            section = sectionList.count - 1
        }
        for identifier in identifiers {
            precondition(sectionIndexByItem[identifier] == nil, "Item identifier \(identifier) is already in the snapshot")
            sectionIndexByItem[identifier] = section
            itemsBySection[section].append(identifier)
        }
    }

    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        for identifier in identifiers {
            guard let section = sectionIndexByItem.removeValue(forKey: identifier) else { continue }
            itemsBySection[section].removeAll { $0 == identifier }
        }
    }

    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        let removed = Set(identifiers.filter { sectionIndexByIdentifier[$0] != nil })
        guard !removed.isEmpty else { return }
        let kept = zip(sectionList, itemsBySection).filter { !removed.contains($0.0) }
        self = Self()
        for (section, items) in kept {
            appendSections([section])
            appendItems(items, toSection: section)
        }
    }

    public mutating func deleteAllItems() {
        self = Self()
    }
}

extension NSDiffableDataSourceSnapshot: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sectionList == rhs.sectionList && lhs.itemsBySection == rhs.itemsBySection
    }
}

extension NSDiffableDataSourceSnapshot: @unchecked Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

/// The Objective-C form of a snapshot a fetched results controller hands its delegate
/// (`NSDiffableDataSourceSnapshotReference`): section names (`String`) and object IDs. Where
/// Apple's code writes `snapshot as NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`,
/// write `NSDiffableDataSourceSnapshot(snapshot)` (Linux has no bridging casts) or use
/// `snapshot.snapshot`.
open class NSDiffableDataSourceSnapshotReference: NSObject {
    public let snapshot: NSDiffableDataSourceSnapshot<String, NSManagedObjectID>

    public init(_ snapshot: NSDiffableDataSourceSnapshot<String, NSManagedObjectID>) {
        self.snapshot = snapshot
    }

    public override convenience init() { self.init(NSDiffableDataSourceSnapshot()) }

    open var numberOfItems: Int { snapshot.numberOfItems }
    open var numberOfSections: Int { snapshot.numberOfSections }
    open var sectionIdentifiers: [Any] { snapshot.sectionIdentifiers }
    open var itemIdentifiers: [Any] { snapshot.itemIdentifiers }

    open func numberOfItems(inSection sectionIdentifier: Any) -> Int {
        itemIdentifiersInSection(withIdentifier: sectionIdentifier).count
    }

    open func itemIdentifiersInSection(withIdentifier sectionIdentifier: Any) -> [Any] {
        guard let name = sectionIdentifier as? String, snapshot.indexOfSection(name) != nil else { return [] }
        return snapshot.itemIdentifiers(inSection: name)
    }

    open func sectionIdentifier(forSectionContainingItemIdentifier itemIdentifier: Any) -> Any? {
        (itemIdentifier as? NSManagedObjectID).flatMap { snapshot.sectionIdentifier(containingItem: $0) }
    }

    /// The item's position, or `NSNotFound`.
    open func index(ofItemIdentifier itemIdentifier: Any) -> Int {
        (itemIdentifier as? NSManagedObjectID).flatMap { snapshot.indexOfItem($0) } ?? NSNotFound
    }

    /// The section's position, or `NSNotFound`.
    open func index(ofSectionIdentifier sectionIdentifier: Any) -> Int {
        (sectionIdentifier as? String).flatMap { snapshot.indexOfSection($0) } ?? NSNotFound
    }
}

extension NSDiffableDataSourceSnapshot where SectionIdentifierType == String, ItemIdentifierType == NSManagedObjectID {
    /// The typed snapshot of a reference (Apple's `reference as NSDiffableDataSourceSnapshot<…>`).
    public init(_ reference: NSDiffableDataSourceSnapshotReference) {
        self = reference.snapshot
    }
}
#endif

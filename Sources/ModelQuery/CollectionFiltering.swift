#if !canImport(CoreData)
import Foundation

// Foundation's collection methods that take predicates and sort descriptors, for the runtime's
// query types (Linux Foundation's own overloads take its unimplemented ones).

extension NSSortDescriptor {
    /// The order of two objects by a list of descriptors: the first that tells them apart decides.
    package static func compare(_ lhs: Any, _ rhs: Any, by descriptors: [NSSortDescriptor]) -> ComparisonResult {
        for descriptor in descriptors {
            let result = descriptor.compare(lhs, to: rhs)
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    /// `elements` sorted by `descriptors`, keeping the order of elements that compare the same.
    /// Each element's sort values are read once, not once per comparison.
    static func sorted<Element>(_ elements: [Element], by descriptors: [NSSortDescriptor]) -> [Element] {
        guard !descriptors.isEmpty else { return elements }
        let columns = descriptors.map { descriptor in elements.map { descriptor.sortValue(of: $0) } }
        let order = elements.indices.sorted { i, j in
            for (descriptor, column) in zip(descriptors, columns) {
                switch descriptor.compareSortValues(column[i], column[j]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return i < j
        }
        return order.map { elements[$0] }
    }
}

extension NSArray {
    /// The elements that satisfy `predicate`, in order.
    public func filtered(using predicate: NSPredicate) -> [Any] {
        filter { predicate.evaluate(with: $0) }
    }

    /// The elements sorted by `sortDescriptors` (stable).
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        NSSortDescriptor.sorted(map { $0 }, by: sortDescriptors)
    }
}

extension NSMutableArray {
    /// Removes the elements that do not satisfy `predicate`.
    public func filter(using predicate: NSPredicate) {
        setArray(filtered(using: predicate))
    }

    /// Sorts the array in place by `sortDescriptors` (stable).
    public func sort(using sortDescriptors: [NSSortDescriptor]) {
        setArray(sortedArray(using: sortDescriptors))
    }
}

extension NSSet {
    /// The members that satisfy `predicate`.
    public func filtered(using predicate: NSPredicate) -> Set<AnyHashable> {
        var result = Set<AnyHashable>()
        for member in self where predicate.evaluate(with: member) {
            if let hashable = member as? AnyHashable { result.insert(hashable) }
        }
        return result
    }
}

extension NSOrderedSet {
    /// The members that satisfy `predicate`, in order.
    public func filtered(using p: NSPredicate) -> NSOrderedSet {
        NSOrderedSet(array: array.filter { p.evaluate(with: $0) })
    }
}
#endif

#if !canImport(CoreData)
import Foundation

/// The changes between two sectioned results, in the form a fetched results controller reports
/// them: applying the deletes (sections and objects, at their previous index paths), then the
/// inserts (at their new index paths, ascending) — a move being a delete plus an insert — to the
/// previous results gives the new results exactly. Objects keep their places relative to each
/// other unless reported as moved; the fewest moves are reported (the objects that stay in a
/// section are a longest increasing run of their previous positions).
struct FetchedResultsDiff {
    struct Section {
        let name: String
        let keys: [ObjectIdentifier]
    }

    struct SectionChange: Equatable {
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    struct ObjectChange: Equatable {
        let key: ObjectIdentifier
        let type: NSFetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    var sectionChanges: [SectionChange] = []
    var objectChanges: [ObjectChange] = []

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    init(from old: [Section], to new: [Section], updated: Set<ObjectIdentifier>) {
        let oldSectionIndex = Dictionary(old.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newSectionIndex = Dictionary(new.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, section) in old.enumerated() where newSectionIndex[section.name] == nil {
            sectionChanges.append(SectionChange(index: index, type: .delete))
        }
        for (index, section) in new.enumerated() where oldSectionIndex[section.name] == nil {
            sectionChanges.append(SectionChange(index: index, type: .insert))
        }
        var oldPaths: [ObjectIdentifier: IndexPath] = [:]
        for (sectionIndex, section) in old.enumerated() {
            for (row, key) in section.keys.enumerated() { oldPaths[key] = IndexPath(indexes: [sectionIndex, row]) }
        }
        var newPaths: [ObjectIdentifier: IndexPath] = [:]
        for (sectionIndex, section) in new.enumerated() {
            for (row, key) in section.keys.enumerated() { newPaths[key] = IndexPath(indexes: [sectionIndex, row]) }
        }
        var deletes: [ObjectChange] = []
        var inserts: [ObjectChange] = []
        var moves: [ObjectChange] = []
        var updates: [ObjectChange] = []
        for section in old {
            for key in section.keys where newPaths[key] == nil {
                deletes.append(ObjectChange(key: key, type: .delete, indexPath: oldPaths[key], newIndexPath: nil))
            }
        }
        for section in new {
            // Objects that were in the section of the same name before: those on a longest
            // increasing run of previous rows stay, the others move.
            var candidates: [(key: ObjectIdentifier, oldRow: Int)] = []
            for key in section.keys {
                guard let oldPath = oldPaths[key] else {
                    inserts.append(ObjectChange(key: key, type: .insert, indexPath: nil, newIndexPath: newPaths[key]))
                    continue
                }
                if let oldSection = oldSectionIndex[section.name], oldPath[0] == oldSection {
                    candidates.append((key, oldPath[1]))
                } else {
                    moves.append(ObjectChange(key: key, type: .move, indexPath: oldPath, newIndexPath: newPaths[key]))
                }
            }
            let staying = Self.longestIncreasingRun(candidates.map(\.oldRow))
            for (position, candidate) in candidates.enumerated() {
                let oldPath = oldPaths[candidate.key]
                let newPath = newPaths[candidate.key]
                if !staying.contains(position) {
                    moves.append(ObjectChange(key: candidate.key, type: .move, indexPath: oldPath, newIndexPath: newPath))
                } else if updated.contains(candidate.key) {
                    updates.append(ObjectChange(key: candidate.key, type: .update, indexPath: oldPath, newIndexPath: newPath))
                }
            }
        }
        objectChanges = deletes + inserts + moves + updates
    }

    /// Positions (into `values`) of one longest strictly increasing subsequence.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []  // positions; values[tails[k]] is the smallest tail of a run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: Set<Int> = []
        var position = tails[tails.count - 1]
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }
}
#endif

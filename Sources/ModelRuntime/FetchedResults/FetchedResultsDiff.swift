#if !canImport(CoreData)
import ModelQuery

/// The changes between two sectioned results, in the form a fetched results controller reports
/// them: applying the deletes (sections and objects, at their previous index paths), then the
/// inserts (at their new index paths, ascending) — a move being a delete plus an insert — to the
/// previous results gives the new results exactly. Objects keep their places relative to each
/// other unless reported as moved. As few objects as possible are reported as moved, changed
/// objects rather than unchanged ones: the objects that stay in a section are the heaviest
/// increasing run of their previous positions, unchanged objects weighing most.
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
            // Objects that were in the section of the same name before: those on the heaviest
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
            let staying = Self.heaviestIncreasingRun(
                candidates.map(\.oldRow), weights: candidates.map { updated.contains($0.key) ? 1 : candidates.count + 1 })
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

    /// Positions (into `values`, distinct non-negative numbers) of a strictly increasing
    /// subsequence of the greatest total weight. Unchanged objects weigh more than all changed
    /// ones together, so a changed object is the one reported as moved when either could be.
    static func heaviestIncreasingRun(_ values: [Int], weights: [Int]) -> Set<Int> {
        guard let largest = values.max() else { return [] }
        // A Fenwick tree over values holding, for each prefix, the heaviest run ending there.
        var tree = [(weight: Int, position: Int)](repeating: (0, -1), count: largest + 2)
        var previous = [Int](repeating: -1, count: values.count)
        var total = [Int](repeating: 0, count: values.count)
        for (position, value) in values.enumerated() {
            var best = (weight: 0, position: -1)
            var index = value  // values below `value`: tree indexes 1...value
            while index > 0 {
                if tree[index].weight > best.weight { best = tree[index] }
                index -= index & -index
            }
            previous[position] = best.position
            total[position] = best.weight + weights[position]
            index = value + 1
            while index < tree.count {
                if total[position] > tree[index].weight { tree[index] = (total[position], position) }
                index += index & -index
            }
        }
        var result: Set<Int> = []
        var position = total.indices.max { total[$0] < total[$1] } ?? -1
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }
}
#endif

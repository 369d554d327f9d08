/// The entity-level changes between a source entity and the destination entity it maps to.
enum EntityChanges {
    static func changes(_ old: Entity, _ new: Entity, sourceToDestination: [String: String]) -> [MigrationChange] {
        var changes: [MigrationChange] = []
        let mappedParent = old.parentName.map { sourceToDestination[$0] ?? $0 }
        if mappedParent != new.parentName {
            changes.append(MigrationChange(aspect: "parent", from: old.parentName ?? "none", to: new.parentName ?? "none"))
        }
        if old.isAbstract != new.isAbstract {
            changes.append(
                MigrationChange(
                    aspect: "abstract", from: "\(old.isAbstract)", to: "\(new.isAbstract)",
                    obstacle: new.isAbstract
                        ? "the entity becomes abstract, but its stored rows are instances of it; Apple's rules do not cover this"
                        : nil))
        }
        if old.versionHashModifier != new.versionHashModifier {
            changes.append(
                MigrationChange(
                    aspect: "versionHashModifier", from: old.versionHashModifier ?? "none", to: new.versionHashModifier ?? "none"))
        }
        let oldConstraints = constraintsText(old.uniquenessConstraints)
        let newConstraints = constraintsText(new.uniquenessConstraints)
        if oldConstraints != newConstraints {
            changes.append(MigrationChange(aspect: "uniquenessConstraints", from: oldConstraints, to: newConstraints))
        }
        return changes
    }

    private static func constraintsText(_ constraints: [[String]]) -> String {
        let text = constraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty }.sorted().joined(separator: " | ")
        return text.isEmpty ? "none" : text
    }
}

/// Core Data's one documented limit on hierarchy changes: "You cannot merge entity hierarchies;
/// if two existing entities do not share a common parent in the source, they cannot share a
/// common parent in the destination."
enum HierarchyRule {
    static func markMergedHierarchies(
        _ mappings: inout [EntityMapping], older: VersionLookup, newer: VersionLookup, matches: [NameMatcher.Match]
    ) {
        // Destination root → the distinct source roots of the existing entities under it.
        var sourceRoots: [String: [String]] = [:]
        for match in matches {
            guard let old = older.entity(named: match.source), let new = newer.entity(named: match.destination) else { continue }
            let oldRoot = older.ancestors(of: old).last?.name ?? old.name
            let newRoot = newer.ancestors(of: new).last?.name ?? new.name
            if !(sourceRoots[newRoot]?.contains(oldRoot) ?? false) { sourceRoots[newRoot, default: []].append(oldRoot) }
        }
        for index in mappings.indices {
            guard let name = mappings[index].destinationName, let entity = newer.entity(named: name) else { continue }
            let root = newer.ancestors(of: entity).last?.name ?? entity.name
            guard let roots = sourceRoots[root], roots.count > 1 else { continue }
            for changeIndex in mappings[index].changes.indices where mappings[index].changes[changeIndex].aspect == "parent" {
                let listed = roots.sorted().map { "'\($0)'" }.joined(separator: ", ")
                mappings[index].changes[changeIndex].obstacle =
                    "merges entity hierarchies: entities under \(listed) in the source version share the parent '\(root)' in the destination, which Core Data cannot infer"
            }
        }
    }
}

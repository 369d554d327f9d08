import ModelSchema

/// One difference between a shipped version as locked and as it is now, with where to look.
public struct LockChange: Hashable, Sendable {
    public var message: String
    public var location: SourceLocation?
}

/// Explains why a shipped version's checksum changed: which entities and properties hash
/// differently from the lock, and how (a fact that changed, added, removed, renamed).
enum LockComparison {
    static func changes(from locked: LockedVersion, to version: ModelVersion) -> [LockChange] {
        let current = LockedVersion(version)
        let lookup = VersionLookup(version)
        var changes: [LockChange] = []
        let currentNames = Set(current.entities.map(\.name))
        let lockedNames = Set(locked.entities.map(\.name))
        let lockedByName = Dictionary(locked.entities.map { ($0.name, $0) }) { first, _ in first }
        var renamedFrom: [String: Entity] = [:]
        for entity in version.entities where !lockedNames.contains(entity.name) {
            if let identifier = entity.renamingIdentifier, renamedFrom[identifier] == nil { renamedFrom[identifier] = entity }
        }
        for entity in locked.entities where !currentNames.contains(entity.name) {
            let renamed = renamedFrom[entity.name]
            if let renamed {
                changes.append(
                    LockChange(message: "entity '\(entity.name)' was renamed to '\(renamed.name)'", location: renamed.location))
            } else {
                changes.append(LockChange(message: "entity '\(entity.name)' was removed", location: version.location))
            }
        }
        for entity in current.entities {
            let declared = lookup.entity(named: entity.name)
            guard let old = lockedByName[entity.name] else {
                let renamedFromLocked = declared?.renamingIdentifier.map { lockedNames.contains($0) && !currentNames.contains($0) } ?? false
                if !renamedFromLocked {
                    changes.append(LockChange(message: "entity '\(entity.name)' was added", location: declared?.location))
                }
                continue
            }
            guard old.hash != entity.hash else { continue }
            let before = changes.count
            changes += factChanges(old.facts, entity.facts).map {
                LockChange(message: "entity '\(entity.name)': \($0)", location: declared?.location)
            }
            changes += propertyChanges(old, entity, declared: declared)
            if changes.count == before {
                let parent = declared?.parentName.map { " (its parent '\($0)' changed)" } ?? ""
                changes.append(LockChange(message: "entity '\(entity.name)': its hash changed\(parent)", location: declared?.location))
            }
        }
        return changes
    }

    private static func propertyChanges(_ old: LockedEntity, _ new: LockedEntity, declared: Entity?) -> [LockChange] {
        var changes: [LockChange] = []
        let newNames = Set(new.properties.map(\.name))
        let oldNames = Set(old.properties.map(\.name))
        func location(_ name: String) -> SourceLocation? {
            declared?.attribute(named: name)?.location ?? declared?.relationship(named: name)?.location ?? declared?.location
        }
        func renamingIdentifier(_ name: String) -> String? {
            declared?.attribute(named: name)?.renamingIdentifier ?? declared?.relationship(named: name)?.renamingIdentifier
        }
        var renamedFrom: Set<String> = []
        for property in new.properties where !oldNames.contains(property.name) {
            let kind = kindName(property.facts)
            if let previous = renamingIdentifier(property.name), oldNames.contains(previous), !newNames.contains(previous) {
                renamedFrom.insert(previous)
                changes.append(
                    LockChange(
                        message: "\(kind) '\(new.name).\(previous)' was renamed to '\(property.name)'", location: location(property.name)))
            } else {
                changes.append(LockChange(message: "\(kind) '\(new.name).\(property.name)' was added", location: location(property.name)))
            }
        }
        for property in old.properties where !newNames.contains(property.name) && !renamedFrom.contains(property.name) {
            changes.append(
                LockChange(message: "\(kindName(property.facts)) '\(new.name).\(property.name)' was removed", location: declared?.location))
        }
        let oldByName = Dictionary(old.properties.map { ($0.name, $0) }) { first, _ in first }
        for property in new.properties {
            guard let previous = oldByName[property.name], previous.hash != property.hash else { continue }
            let differences = factChanges(previous.facts, property.facts)
            let what = differences.isEmpty ? ["its hash changed (a composite type's fields changed?)"] : differences
            for difference in what {
                changes.append(
                    LockChange(
                        message: "\(kindName(property.facts)) '\(new.name).\(property.name)': \(difference)",
                        location: location(property.name))
                )
            }
        }
        return changes
    }

    private static func kindName(_ facts: [LockFact]) -> String {
        facts.first { $0.key == "kind" }?.value ?? "property"
    }

    /// "type changed from String to Integer 32", one per differing fact, in the facts' order.
    static func factChanges(_ old: [LockFact], _ new: [LockFact]) -> [String] {
        var keys: [String] = []
        for fact in old + new where !keys.contains(fact.key) { keys.append(fact.key) }
        return keys.compactMap { key in
            let before = old.first { $0.key == key }?.value ?? LockFacts.absentValue(of: key)
            let after = new.first { $0.key == key }?.value ?? LockFacts.absentValue(of: key)
            guard before != after else { return nil }
            return "\(LockFacts.label(of: key)) changed from \(before) to \(after)"
        }
    }
}

/// The stored properties of a mapped entity (inherited ones included) and how each maps.
enum PropertyChanges {
    static func mappings(
        _ old: Entity, in older: VersionLookup, _ new: Entity, in newer: VersionLookup, sourceToDestination: [String: String]
    ) -> [PropertyMapping] {
        let oldProperties = older.allProperties(of: old)
        let newProperties = newer.allProperties(of: new)
        let oldAttributes = oldProperties.attributes.filter { !$0.isTransient }
        let newAttributes = newProperties.attributes.filter { !$0.isTransient }
        let oldRelationships = oldProperties.relationships.filter { !$0.isTransient }
        let newRelationships = newProperties.relationships.filter { !$0.isTransient }
        let oldAttributesByName = Dictionary(oldAttributes.map { ($0.name, $0) }) { first, _ in first }
        let newAttributesByName = Dictionary(newAttributes.map { ($0.name, $0) }) { first, _ in first }
        let oldRelationshipsByName = Dictionary(oldRelationships.map { ($0.name, $0) }) { first, _ in first }
        let newRelationshipsByName = Dictionary(newRelationships.map { ($0.name, $0) }) { first, _ in first }
        var result: [PropertyMapping] = []

        let attributeMatches = NameMatcher.match(
            oldAttributes.map { ($0.name, $0.renamingIdentifier) }, newAttributes.map { ($0.name, $0.renamingIdentifier) })
        for match in attributeMatches {
            guard let before = oldAttributesByName[match.source], let after = newAttributesByName[match.destination]
            else { continue }
            let changes =
                (NameMatcher.identifierChange(match, destinationIdentifier: after.renamingIdentifier, kind: "properties").map { [$0] } ?? [])
                + attributeChanges(before, after)
            guard before.name != after.name || !changes.isEmpty else { continue }
            result.append(
                PropertyMapping(
                    kind: before.name == after.name ? .changed : .renamed, isRelationship: false, sourceName: before.name,
                    destinationName: after.name, changes: changes, location: after.location ?? new.location))
        }
        let mappedOldAttributes = Set(attributeMatches.map(\.source))
        let mappedNewAttributes = Set(attributeMatches.map(\.destination))
        for attribute in oldAttributes where !mappedOldAttributes.contains(attribute.name) {
            result.append(removed(attribute.name, isRelationship: false, location: new.location))
        }
        for attribute in newAttributes where !mappedNewAttributes.contains(attribute.name) {
            var changes: [MigrationChange] = []
            if !attribute.isOptional, attribute.defaultValue == nil, !attribute.isDerived {
                changes.append(
                    MigrationChange(
                        aspect: "optionality", from: "none", to: "required",
                        obstacle:
                            "it is new, required and has no default value, so existing '\(new.name)' rows have no value for it (make it optional or give it a default)"
                    ))
            }
            result.append(
                PropertyMapping(
                    kind: .added, isRelationship: false, sourceName: nil, destinationName: attribute.name, changes: changes,
                    location: attribute.location ?? new.location))
        }

        let relationshipMatches = NameMatcher.match(
            oldRelationships.map { ($0.name, $0.renamingIdentifier) }, newRelationships.map { ($0.name, $0.renamingIdentifier) })
        for match in relationshipMatches {
            guard let before = oldRelationshipsByName[match.source], let after = newRelationshipsByName[match.destination]
            else { continue }
            let changes =
                (NameMatcher.identifierChange(match, destinationIdentifier: after.renamingIdentifier, kind: "properties").map { [$0] } ?? [])
                + relationshipChanges(before, after, sourceToDestination: sourceToDestination)
            guard before.name != after.name || !changes.isEmpty else { continue }
            result.append(
                PropertyMapping(
                    kind: before.name == after.name ? .changed : .renamed, isRelationship: true, sourceName: before.name,
                    destinationName: after.name, changes: changes, location: after.location ?? new.location))
        }
        let mappedOldRelationships = Set(relationshipMatches.map(\.source))
        let mappedNewRelationships = Set(relationshipMatches.map(\.destination))
        for relationship in oldRelationships where !mappedOldRelationships.contains(relationship.name) {
            result.append(removed(relationship.name, isRelationship: true, location: new.location))
        }
        for relationship in newRelationships where !mappedNewRelationships.contains(relationship.name) {
            var changes: [MigrationChange] = []
            if !relationship.isOptional {
                changes.append(
                    MigrationChange(
                        aspect: "optionality", from: "none", to: "required",
                        obstacle:
                            "it is new and required, so existing '\(new.name)' objects have no related object, and a relationship has no default (make it optional)"
                    ))
            }
            result.append(
                PropertyMapping(
                    kind: .added, isRelationship: true, sourceName: nil, destinationName: relationship.name, changes: changes,
                    location: relationship.location ?? new.location))
        }
        return result
    }

    private static func removed(_ name: String, isRelationship: Bool, location: SourceLocation?) -> PropertyMapping {
        PropertyMapping(
            kind: .removed, isRelationship: isRelationship, sourceName: name, destinationName: nil, changes: [], location: location)
    }

    static func attributeChanges(_ old: Attribute, _ new: Attribute) -> [MigrationChange] {
        var changes: [MigrationChange] = []
        if old.type != new.type {
            changes.append(
                MigrationChange(
                    aspect: "type", from: old.type.name, to: new.type.name,
                    obstacle:
                        "its type changes from \(old.type.name) to \(new.type.name); changing an attribute's type is not among the changes Core Data documents as inferable"
                ))
        }
        if old.isOptional != new.isOptional {
            let needsDefault = !new.isOptional && new.defaultValue == nil && !new.isDerived
            changes.append(
                MigrationChange(
                    aspect: "optionality", from: optionality(old.isOptional), to: optionality(new.isOptional),
                    obstacle: needsDefault
                        ? "it becomes required without a default value; Core Data infers an optional attribute becoming non-optional only with a default value"
                        : nil))
        }
        if old.defaultValue != new.defaultValue {
            changes.append(MigrationChange(aspect: "default", from: describe(old.defaultValue), to: describe(new.defaultValue)))
        }
        if old.derivationExpression != new.derivationExpression {
            changes.append(
                MigrationChange(aspect: "derivation", from: old.derivationExpression ?? "none", to: new.derivationExpression ?? "none"))
        }
        if old.allowsExternalBinaryDataStorage != new.allowsExternalBinaryDataStorage {
            changes.append(
                MigrationChange(
                    aspect: "externalStorage", from: "\(old.allowsExternalBinaryDataStorage)", to: "\(new.allowsExternalBinaryDataStorage)")
            )
        }
        if old.versionHashModifier != new.versionHashModifier {
            changes.append(
                MigrationChange(
                    aspect: "versionHashModifier", from: old.versionHashModifier ?? "none", to: new.versionHashModifier ?? "none"))
        }
        return changes
    }

    static func relationshipChanges(_ old: Relationship, _ new: Relationship, sourceToDestination: [String: String]) -> [MigrationChange] {
        var changes: [MigrationChange] = []
        if (sourceToDestination[old.destinationName] ?? old.destinationName) != new.destinationName {
            changes.append(
                MigrationChange(
                    aspect: "destination", from: old.destinationName, to: new.destinationName,
                    obstacle:
                        "its destination changes from '\(old.destinationName)' to '\(new.destinationName)'; Core Data documents no inference for a relationship to another entity"
                ))
        }
        if old.isToMany != new.isToMany {
            changes.append(
                MigrationChange(
                    aspect: "cardinality", from: cardinality(old.isToMany), to: cardinality(new.isToMany),
                    obstacle: new.isToMany
                        ? nil
                        : "it becomes to-one; Apple documents to-one → to-many, not the reverse, which would drop all but one related object"
                ))
        }
        if old.isOrdered != new.isOrdered, old.isToMany || new.isToMany {
            changes.append(MigrationChange(aspect: "ordering", from: ordering(old.isOrdered), to: ordering(new.isOrdered)))
        }
        if old.isOptional != new.isOptional {
            changes.append(
                MigrationChange(
                    aspect: "optionality", from: optionality(old.isOptional), to: optionality(new.isOptional),
                    obstacle: new.isOptional
                        ? nil
                        : "it becomes required; existing objects without a related object cannot get one, as a relationship has no default")
            )
        }
        if old.minCount ?? 0 != new.minCount ?? 0 || old.maxCount ?? 0 != new.maxCount ?? 0 {
            changes.append(MigrationChange(aspect: "count", from: count(old), to: count(new)))
        }
        if old.deleteRule != new.deleteRule {
            changes.append(MigrationChange(aspect: "deleteRule", from: old.deleteRule.rawValue, to: new.deleteRule.rawValue))
        }
        if old.inverseName != new.inverseName {
            changes.append(MigrationChange(aspect: "inverse", from: old.inverseName ?? "none", to: new.inverseName ?? "none"))
        }
        if old.versionHashModifier != new.versionHashModifier {
            changes.append(
                MigrationChange(
                    aspect: "versionHashModifier", from: old.versionHashModifier ?? "none", to: new.versionHashModifier ?? "none"))
        }
        return changes
    }

    private static func optionality(_ isOptional: Bool) -> String { isOptional ? "optional" : "required" }
    private static func cardinality(_ isToMany: Bool) -> String { isToMany ? "to-many" : "to-one" }
    private static func ordering(_ isOrdered: Bool) -> String { isOrdered ? "ordered" : "unordered" }
    private static func count(_ relationship: Relationship) -> String { "\(relationship.minCount ?? 0)...\(relationship.maxCount ?? 0)" }

    static func describe(_ value: AttributeValue?) -> String {
        switch value {
        case nil: "none"
        case .integer(let number): "\(number)"
        case .number(let text): text
        case .boolean(let flag): "\(flag)"
        case .string(let text): "\"\(text)\""
        case .date(let text), .uuid(let text), .uri(let text): text
        }
    }
}

/// Infers the mapping between consecutive versions as Core Data's lightweight migration would,
/// and marks each change its documented rules do not cover (see `docs/Migrations.md`).
///
/// Entities and properties are matched by their canonical names (the renaming identifier, or
/// the name when there is none), as Core Data does; a renaming identifier that names the
/// previous version's property directly is matched too. Only stored properties are mapped, with
/// inherited ones, so moving a property up or down a hierarchy is not a change.
public enum MigrationPlanner {
    public static func plan(_ model: Model) -> MigrationPlan {
        let custom = Set(model.customMigrations)
        let mapped = Dictionary(model.mappingModels.map { ($0.step, $0.name) }) { first, _ in first }
        let steps = zip(model.versions, model.versions.dropFirst()).map { source, destination in
            var step = step(from: source, to: destination)
            let versions = VersionStep(from: source.name, to: destination.name)
            step.isCustom = custom.contains(versions)
            step.mappingModel = mapped[versions]
            return step
        }
        return MigrationPlan(model: model.name, steps: steps)
    }

    public static func step(from source: ModelVersion, to destination: ModelVersion) -> MigrationStep {
        let older = VersionLookup(source)
        let newer = VersionLookup(destination)
        let matches = NameMatcher.match(
            source.entities.map { ($0.name, $0.renamingIdentifier) }, destination.entities.map { ($0.name, $0.renamingIdentifier) })
        let sourceToDestination = Dictionary(matches.map { ($0.source, $0.destination) }) { first, _ in first }
        var mappings: [EntityMapping] = []
        for match in matches {
            guard let old = older.entity(named: match.source), let new = newer.entity(named: match.destination) else { continue }
            let identifierChange = NameMatcher.identifierChange(match, destinationIdentifier: new.renamingIdentifier, kind: "entities")
            var mapping = EntityMapping(
                kind: old.name == new.name ? .changed : .renamed, sourceName: old.name, destinationName: new.name,
                changes: (identifierChange.map { [$0] } ?? []) + EntityChanges.changes(old, new, sourceToDestination: sourceToDestination),
                properties: PropertyChanges.mappings(old, in: older, new, in: newer, sourceToDestination: sourceToDestination),
                location: new.location)
            if mapping.kind == .changed, mapping.changes.isEmpty, mapping.properties.isEmpty { continue }
            mapping.properties.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            mappings.append(mapping)
        }
        let mappedSources = Set(matches.map(\.source))
        let mappedDestinations = Set(matches.map(\.destination))
        for entity in source.entities where !mappedSources.contains(entity.name) {
            mappings.append(
                EntityMapping(
                    kind: .removed, sourceName: entity.name, destinationName: nil, changes: [], properties: [],
                    location: destination.location))
        }
        for entity in destination.entities where !mappedDestinations.contains(entity.name) {
            mappings.append(
                EntityMapping(
                    kind: .added, sourceName: nil, destinationName: entity.name, changes: [], properties: [], location: entity.location))
        }
        HierarchyRule.markMergedHierarchies(&mappings, older: older, newer: newer, matches: matches)
        mappings.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return MigrationStep(
            source: source.name, destination: destination.name, entities: mappings, isCustom: false, location: destination.location)
    }
}

/// Matches names between versions the way Core Data pairs entities and properties.
enum NameMatcher {
    struct Match {
        let source: String
        let destination: String
        /// Paired because the destination's renaming identifier is the source's name, while the
        /// source's own identifier differs: Core Data, which pairs identifiers, would not pair them.
        let sourceIdentifier: String?
    }

    /// The change a name-only pairing carries: Core Data would drop the source's values.
    static func identifierChange(_ match: Match, destinationIdentifier: String?, kind: String) -> MigrationChange? {
        guard let sourceIdentifier = match.sourceIdentifier else { return nil }
        let identifier = destinationIdentifier ?? match.destination
        return MigrationChange(
            aspect: "renamingIdentifier", from: sourceIdentifier, to: identifier,
            obstacle:
                "Core Data pairs \(kind) by renaming identifier (the name when none is set), and '\(match.source)' has the identifier '\(sourceIdentifier)', not '\(identifier)', so the inferred mapping would drop its values; set the renaming identifier of '\(match.destination)' to '\(sourceIdentifier)'"
        )
    }

    /// Each destination name is paired with at most one source name: by canonical name (renaming
    /// identifier, else name), as Core Data pairs them; failing that, by a renaming identifier
    /// that is a source name, which Core Data would not pair (see ``identifierChange``).
    static func match(
        _ sources: [(name: String, renamingIdentifier: String?)], _ destinations: [(name: String, renamingIdentifier: String?)]
    )
        -> [Match]
    {
        var byCanonical: [String: String] = [:]
        var identifiers: [String: String] = [:]
        for source in sources {
            let canonical = source.renamingIdentifier ?? source.name
            if byCanonical[canonical] == nil { byCanonical[canonical] = source.name }
            identifiers[source.name] = canonical
        }
        var used: Set<String> = []
        var matches: [Match] = []
        var unmatched: [(name: String, renamingIdentifier: String?)] = []
        for destination in destinations {
            guard let source = byCanonical[destination.renamingIdentifier ?? destination.name], used.insert(source).inserted else {
                unmatched.append(destination)
                continue
            }
            matches.append(Match(source: source, destination: destination.name, sourceIdentifier: nil))
        }
        for destination in unmatched {
            guard let identifier = destination.renamingIdentifier, let sourceIdentifier = identifiers[identifier],
                used.insert(identifier).inserted
            else { continue }
            matches.append(Match(source: identifier, destination: destination.name, sourceIdentifier: sourceIdentifier))
        }
        return matches
    }
}

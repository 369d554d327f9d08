/// The complete pairing lightweight migration infers between two versions, for tools that move
/// data rather than describe the changes: for every destination entity the source entity it
/// maps from, and for every stored destination property (inherited ones included) the source
/// property whose values it takes. Entities and properties are paired by renaming identifier (the
/// name when none is set), as Core Data pairs them; a destination whose renaming identifier names
/// a source by its name while that source has another identifier is not paired (Core Data would
/// not pair them; ``MigrationPlanner`` reports it as not inferable).
public struct VersionMapping: Sendable {
    /// Destination entity name → source entity name; entities added in the destination are absent.
    public let sourceEntities: [String: String]
    /// Destination entity name → destination property name → source property name (stored
    /// attributes and relationships, inherited ones included); added properties are absent.
    public let sourceProperties: [String: [String: String]]

    public init(from source: ModelVersion, to destination: ModelVersion) {
        let older = VersionLookup(source)
        let newer = VersionLookup(destination)
        var entities: [String: String] = [:]
        var properties: [String: [String: String]] = [:]
        let matches = NameMatcher.match(
            source.entities.map { ($0.name, $0.renamingIdentifier) }, destination.entities.map { ($0.name, $0.renamingIdentifier) })
        for match in matches where match.sourceIdentifier == nil {
            guard let old = older.entity(named: match.source), let new = newer.entity(named: match.destination) else { continue }
            entities[new.name] = old.name
            let oldProperties = older.allProperties(of: old)
            let newProperties = newer.allProperties(of: new)
            var pairs: [String: String] = [:]
            let attributes = NameMatcher.match(
                oldProperties.attributes.filter { !$0.isTransient }.map { ($0.name, $0.renamingIdentifier) },
                newProperties.attributes.filter { !$0.isTransient }.map { ($0.name, $0.renamingIdentifier) })
            let relationships = NameMatcher.match(
                oldProperties.relationships.filter { !$0.isTransient }.map { ($0.name, $0.renamingIdentifier) },
                newProperties.relationships.filter { !$0.isTransient }.map { ($0.name, $0.renamingIdentifier) })
            for pair in attributes + relationships where pair.sourceIdentifier == nil { pairs[pair.destination] = pair.source }
            properties[new.name] = pairs
        }
        sourceEntities = entities
        sourceProperties = properties
    }

    /// The source entity a destination entity maps from; nil when it is new.
    public func sourceEntity(of destinationEntity: String) -> String? { sourceEntities[destinationEntity] }

    /// The source property whose values a destination property takes; nil when it is new (or
    /// its entity is).
    public func sourceProperty(_ destinationProperty: String, of destinationEntity: String) -> String? {
        sourceProperties[destinationEntity]?[destinationProperty]
    }
}

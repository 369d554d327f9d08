import ModelSchema

/// Checks between consecutive versions: the mistakes that make a lightweight migration fail.
struct VersionHistoryChecker {
    let model: Model
    let diagnostics: DiagnosticCollector

    func check() {
        for (older, newer) in zip(model.versions, model.versions.dropFirst()) {
            checkNewRequiredAttributes(from: older, to: newer)
        }
    }

    /// The entity of `older` that `entity` continues: same name, or named by its renaming identifier.
    private func predecessor(of entity: Entity, in older: VersionLookup) -> Entity? {
        older.entity(named: entity.renamingIdentifier ?? entity.name)
    }

    /// A required attribute added to an existing entity has no value for the rows already stored,
    /// so the lightweight migration that would add its column fails.
    private func checkNewRequiredAttributes(from olderVersion: ModelVersion, to newer: ModelVersion) {
        let older = VersionLookup(olderVersion)
        for entity in newer.entities {
            guard let previous = predecessor(of: entity, in: older) else { continue }
            let previousNames = Set(older.allProperties(of: previous).attributes.map(\.name))
            for attribute in entity.attributes
            where !attribute.isOptional && !attribute.isTransient && !attribute.isDerived && attribute.defaultValue == nil
                && !previousNames.contains(attribute.renamingIdentifier ?? attribute.name)
            {
                diagnostics.warning(
                    "required attribute '\(entity.name).\(attribute.name)' is new in version '\(newer.name)' and has no default value; migrating existing '\(entity.name)' rows will fail (make it optional or give it a default)",
                    at: attribute.location ?? .file(""))
            }
        }
    }
}

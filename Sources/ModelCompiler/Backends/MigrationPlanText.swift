import ModelSchema

/// `modelgen migrations` output: the plan as text for people, or as JSON with a stable shape
/// (documented in `docs/Migrations.md`).
public enum MigrationPlanText {
    public static func text(_ plan: MigrationPlan) -> String {
        var output = ""
        for step in plan.steps {
            output += "\(step.source) → \(step.destination): \(verdict(step))\n"
            if step.entities.isEmpty { output += "  no changes to stored entities or properties\n" }
            for entity in step.entities {
                output += "  entity \(heading(entity.kind, entity.sourceName, entity.destinationName))\n"
                for change in entity.changes { output += line(change, indent: "    ") }
                for property in entity.properties {
                    let kind = property.isRelationship ? "relationship" : "attribute"
                    output += "    \(kind) \(heading(property.kind, property.sourceName, property.destinationName))\n"
                    for change in property.changes { output += line(change, indent: "      ") }
                }
            }
        }
        return output
    }

    /// How the step migrates: through its mapping model, in the app's code, or inferred.
    static func verdict(_ step: MigrationStep) -> String {
        let inference = step.isInferable ? "lightweight migration could infer it" : "lightweight migration cannot infer it"
        if let mapping = step.mappingModel {
            return "mapping model '\(mapping)' (\(inference))" + (step.isCustom ? "; also declared a custom migration" : "")
        }
        switch (step.isInferable, step.isCustom) {
        case (true, false): return "lightweight migration (inferred)"
        case (_, true): return "custom migration (declared; \(inference))"
        case (false, false): return "CANNOT BE INFERRED and no custom migration is declared"
        }
    }

    private static func heading(_ kind: MappingKind, _ source: String?, _ destination: String?) -> String {
        switch kind {
        case .added: "\(destination ?? ""): added"
        case .removed: "\(source ?? ""): removed"
        case .renamed: "\(destination ?? ""): renamed from \(source ?? "")"
        case .changed: "\(destination ?? ""):"
        }
    }

    private static func line(_ change: MigrationChange, indent: String) -> String {
        var text = ""
        for (key, from, to) in modelFormatWords(change) {
            text += "\(indent)\(key): " + (from.map { "\($0) → " } ?? "") + "\(to)\n"
        }
        if let obstacle = change.obstacle { text += "\(indent)  cannot infer: \(obstacle)\n" }
        return text
    }

    /// A change in the words of a model file (docs/ModelFormat.md): its key (`optional`,
    /// `toMany`, `ordered`, `to`, `derived`, `unique`, `minCount`, `maxCount`) and values (`true`,
    /// `false`); a new property's change shows only the value it has. The JSON keeps the plan's
    /// own aspect names and values.
    static func modelFormatWords(_ change: MigrationChange) -> [(key: String, from: String?, to: String)] {
        let flags: [String: (key: String, yes: String, no: String)] = [
            "optionality": ("optional", "optional", "required"), "cardinality": ("toMany", "to-many", "to-one"),
            "ordering": ("ordered", "ordered", "unordered"),
        ]
        if let flag = flags[change.aspect] {
            let word = { (value: String) -> String? in value == flag.yes ? "true" : value == flag.no ? "false" : nil }
            return [(flag.key, word(change.from), word(change.to) ?? change.to)]
        }
        if change.aspect == "count" {
            let bounds = { (value: String) in value.components(separatedBy: "...") }
            let (from, to) = (bounds(change.from), bounds(change.to))
            guard from.count == 2, to.count == 2 else { return [("count", change.from, change.to)] }
            return zip(["minCount", "maxCount"], zip(from, to)).compactMap { key, values in
                values.0 == values.1 ? nil : (key, values.0, values.1)
            }
        }
        let keys = ["destination": "to", "derivation": "derived", "uniquenessConstraints": "unique"]
        return [(keys[change.aspect] ?? change.aspect, change.from, change.to)]
    }

    public static func json(_ plan: MigrationPlan) -> JSONValue {
        .object([
            "model": .string(plan.model),
            "steps": .array(
                plan.steps.map { step in
                    .object([
                        "from": .string(step.source),
                        "to": .string(step.destination),
                        "inferable": .bool(step.isInferable),
                        "customMigration": .bool(step.isCustom),
                        "mappingModel": step.mappingModel.map(JSONValue.string) ?? .null,
                        "entities": .array(
                            step.entities.map { entity in
                                .object([
                                    "mapping": .string(entity.kind.rawValue),
                                    "source": entity.sourceName.map(JSONValue.string) ?? .null,
                                    "destination": entity.destinationName.map(JSONValue.string) ?? .null,
                                    "changes": .array(entity.changes.map(json)),
                                    "properties": .array(
                                        entity.properties.map { property in
                                            .object([
                                                "kind": .string(property.isRelationship ? "relationship" : "attribute"),
                                                "mapping": .string(property.kind.rawValue),
                                                "source": property.sourceName.map(JSONValue.string) ?? .null,
                                                "destination": property.destinationName.map(JSONValue.string) ?? .null,
                                                "changes": .array(property.changes.map(json)),
                                            ])
                                        }),
                                ])
                            }),
                    ])
                }),
        ])
    }

    private static func json(_ change: MigrationChange) -> JSONValue {
        .object([
            "aspect": .string(change.aspect), "from": .string(change.from), "to": .string(change.to),
            "obstacle": change.obstacle.map(JSONValue.string) ?? .null,
        ])
    }
}

/// A ``Diagram`` as a Mermaid class diagram (`classDiagram`), which GitHub, GitLab and DocC
/// articles render from a ```` ```mermaid ```` block.
///
/// A class diagram rather than Mermaid's `erDiagram`: it is the one of the two with inheritance
/// (`Parent <|-- Child`), abstract classes (`<<abstract>>`), groups (`namespace`, one per set of
/// configurations), optional types in members (`endDate: Date?`; `erDiagram` attribute types
/// allow no `?`) and per-class styles (`style`), which `--diff` needs. Relationships are
/// associations with UML multiplicities at both ends (`"1" -- "0..*"`), labelled with their names,
/// ordering and delete rules; a one-way relationship is a directed association.
///
/// Mermaid cannot colour a member or a single association, so in a `--diff` changed classes are
/// filled (green added, red removed, blue renamed, orange changed) and changed attributes and
/// relationships carry a marker in their text (`[added]`, `[removed]`, `[changed: type]`, or
/// `old → new` for a rename); a note explains the colours.
public enum MermaidWriter {
    public static func text(_ diagram: Diagram) -> String {
        let ids = MermaidEscaping.identifiers(for: diagram.entities.map(\.name))
        // The comment follows the diagram type, where every Mermaid version accepts one.
        var lines = ["classDiagram", "  %% \(comment(diagram)) (modelgen diagram)"]
        let grouped = Set(diagram.groups.flatMap(\.entityNames))
        let byName = diagram.entitiesByName
        for entity in diagram.entities where !grouped.contains(entity.name) {
            lines += classLines(entity, id: ids[entity.name] ?? entity.name, indent: "  ")
        }
        for group in diagram.groups {
            lines.append("  namespace \(namespaceName(group)) {")
            for name in group.entityNames {
                guard let entity = byName[name] else { continue }
                lines += classLines(entity, id: ids[name] ?? name, indent: "    ")
            }
            lines.append("  }")
        }
        for entity in diagram.entities where entity.isAbstract {
            lines.append("  <<abstract>> \(ids[entity.name] ?? entity.name)")
        }
        for (child, parent) in diagram.inheritance {
            guard let parentID = ids[parent], let childID = ids[child.name] else { continue }
            lines.append("  \(parentID) <|-- \(childID)")
        }
        for link in diagram.links {
            guard let from = ids[link.forward.entityName], let to = ids[link.forward.destinationName] else { continue }
            let arrow = link.inverse.map { "\"\($0.cardinality)\" -- " } ?? "--> "
            lines.append("  \(from) \(arrow)\"\(link.forward.cardinality)\" \(to) : \(label(link))")
        }
        if diagram.isDiff {
            for entity in diagram.entities {
                guard let style = style(entity.change), let id = ids[entity.name] else { continue }
                lines.append("  style \(id) \(style)")
            }
            let versions = diagram.versions.map(MermaidEscaping.text).joined(separator: " → ")
            lines.append("  note \"\(versions)\(legend)\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let legend = ": green added, red removed, blue renamed (old → new), orange changed"

    private static func comment(_ diagram: Diagram) -> String {
        let title = "\(diagram.modelName), \(diagram.isDiff ? "changes " : "version ")\(diagram.title)"
        return title.unicodeScalars.allSatisfy { $0.value >= 0x20 } ? title : MermaidEscaping.text(title)
    }

    private static func classLines(_ entity: DiagramEntity, id: String, indent: String) -> [String] {
        var head = "\(indent)class \(id)"
        let shown = name(entity.name, entity.change)
        if shown != id { head += "[\"\(shown)\"]" }
        guard !entity.attributes.isEmpty else { return [head] }
        return [head + " {"] + entity.attributes.map { "\(indent)  \(member($0))" } + ["\(indent)}"]
    }

    /// `status: TripStatus`, `endDate: Date?`, `notes → remarks: String`, `color: String [added]`.
    static func member(_ attribute: DiagramAttribute) -> String {
        var text = "\(name(attribute.name, attribute.change)): \(MermaidEscaping.text(attribute.typeName))"
        if attribute.isOptional { text += "?" }
        if !attribute.qualifiers.isEmpty { text += " " + attribute.qualifiers }
        if let marker = attribute.change.marker { text += " [\(marker)]" }
        return text
    }

    /// `trip (nullify) ↔ stops (ordered, cascade)`; `photos (nullify), no inverse`.
    static func label(_ link: DiagramLink) -> String {
        let forward = side(link.forward)
        guard let inverse = link.inverse else { return forward + ", no inverse" }
        return inverse == link.forward ? forward + ", its own inverse" : "\(forward) ↔ \(side(inverse))"
    }

    private static func side(_ relationship: DiagramRelationship) -> String {
        var text = "\(name(relationship.name, relationship.change)) (\(relationship.details))"
        // A `:` would end the label; its entity code shows as one.
        if let marker = relationship.change.marker { text += " [\(marker.replacingOccurrences(of: ":", with: "#58;"))]" }
        return text
    }

    private static func name(_ name: String, _ change: DiagramChange) -> String {
        if case .renamed(let old) = change { return "\(MermaidEscaping.text(old)) → \(MermaidEscaping.text(name))" }
        return MermaidEscaping.text(name)
    }

    /// The configuration names joined by `_`: the group's identifier when it is one, else quoted
    /// in backticks.
    private static func namespaceName(_ group: DiagramGroup) -> String {
        let joined = group.configurations.joined(separator: "_")
        return MermaidEscaping.isIdentifier(joined) ? joined : "`\(MermaidEscaping.text(group.name))`"
    }

    static func style(_ change: DiagramChange) -> String? {
        guard let colours = DiagramColours.colours(change) else { return nil }
        return "fill:\(colours.fill),stroke:\(colours.stroke),stroke-width:2px"
    }
}

/// The colours of a `--diff`, shared by the Mermaid and DOT writers: light fills with a darker
/// border and text of the same hue.
enum DiagramColours {
    static func colours(_ change: DiagramChange) -> (fill: String, stroke: String)? {
        switch change {
        case .unchanged: nil
        case .added: ("#dafbe1", "#1a7f37")
        case .removed: ("#ffebe9", "#cf222e")
        case .renamed: ("#ddf4ff", "#0969da")
        case .changed: ("#fff1e5", "#bc4c00")
        }
    }
}

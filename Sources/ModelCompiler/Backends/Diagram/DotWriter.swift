/// A ``Diagram`` as Graphviz DOT (`dot -Tsvg` draws it).
///
/// Each entity is a table (an HTML-like label): its name in bold (in italics with «abstract»
/// above it when abstract), then a row per attribute with its type. Each relationship and its
/// inverse are one edge, from the relationship that sorts first to its destination, with
/// crow's-foot ends (a crow for to-many, a bar for to-one, a circle when it may be empty) and a
/// label naming both sides with their cardinality, ordering and delete rule. Inheritance is a
/// grey edge from the subentity to its parent with a hollow triangle. Configurations are
/// clusters (`subgraph cluster_…`). In a `--diff`, added, removed, renamed and changed entities,
/// attributes and edges are green, red, blue and orange, with a legend.
public enum DotWriter {
    public static func text(_ diagram: Diagram) -> String {
        var lines = [
            "// \(diagram.modelName), \(diagram.isDiff ? "changes" : "version") \(diagram.title) (modelgen diagram)"
                .filter { !$0.isNewline },
            "digraph \(DotEscaping.quoted(diagram.modelName)) {",
            "  graph [label=\(DotEscaping.quoted("\(diagram.modelName): \(diagram.title)")), labelloc=t, fontname=\"Helvetica\", rankdir=LR];",
            "  node [shape=plaintext, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        let grouped = Set(diagram.groups.flatMap(\.entityNames))
        let byName = diagram.entitiesByName
        for entity in diagram.entities where !grouped.contains(entity.name) { lines.append("  " + node(entity)) }
        for group in diagram.groups {
            lines.append("  subgraph \(DotEscaping.quoted("cluster_" + group.name)) {")
            lines.append("    label=\(DotEscaping.quoted(group.name)); style=\"rounded,dashed\"; color=\"#8c959f\";")
            for name in group.entityNames {
                if let entity = byName[name] { lines.append("    " + node(entity)) }
            }
            lines.append("  }")
        }
        for (child, parent) in diagram.inheritance {
            lines.append(
                "  \(DotEscaping.quoted(child.name)) -> \(DotEscaping.quoted(parent)) [arrowhead=empty, color=\"#57606a\", penwidth=1.5];")
        }
        let names = Set(diagram.entities.map(\.name))
        for link in diagram.links where names.contains(link.forward.destinationName) { lines.append("  " + edge(link)) }
        if diagram.isDiff { lines.append("  " + legend(avoiding: names)) }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func node(_ entity: DiagramEntity) -> String {
        let colours = DiagramColours.colours(entity.change)
        var title = "<b>\(name(entity.name, entity.change))</b>"
        if entity.isAbstract { title = "<i>«abstract»</i><br/><b><i>\(name(entity.name, entity.change))</i></b>" }
        if let marker = entity.change.marker { title += "<br/><font point-size=\"9\">\(DotEscaping.html(marker))</font>" }
        var rows = [row(title, fill: colours?.fill ?? "#eaeef2", align: nil)]
        for attribute in entity.attributes {
            var text = "\(name(attribute.name, attribute.change)): \(DotEscaping.html(attribute.typeName))"
            if attribute.isOptional { text += "?" }
            if !attribute.qualifiers.isEmpty { text += " <i>\(attribute.qualifiers)</i>" }
            if let marker = attribute.change.marker { text += " <font point-size=\"9\">[\(DotEscaping.html(marker))]</font>" }
            rows.append(row(text, fill: DiagramColours.colours(attribute.change)?.fill, align: "left"))
        }
        let border = colours.map { " color=\"\($0.stroke)\"" } ?? ""
        let table = "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\"\(border)>\(rows.joined())</table>"
        return "\(DotEscaping.quoted(entity.name)) [label=<\(table)>];"
    }

    private static func row(_ text: String, fill: String?, align: String?) -> String {
        let attributes = (align.map { " align=\"\($0)\"" } ?? "") + (fill.map { " bgcolor=\"\($0)\"" } ?? "")
        return "<tr><td\(attributes)>\(text)</td></tr>"
    }

    static func edge(_ link: DiagramLink) -> String {
        let forward = link.forward
        var attributes = ["arrowhead=\(arrow(forward))"]
        var label = side(forward)
        if let inverse = link.inverse, inverse != forward {
            attributes += ["dir=both", "arrowtail=\(arrow(inverse))"]
            label += "\n↔ " + side(inverse)
        } else {
            label += link.inverse == nil ? "\nno inverse" : "\nits own inverse"
        }
        attributes.append("label=\(DotEscaping.quoted(label))")
        if let colours = DiagramColours.colours(link.change) {
            attributes += ["color=\"\(colours.stroke)\"", "fontcolor=\"\(colours.stroke)\""]
            if link.change == .removed { attributes.append("style=dashed") }
        }
        return
            "\(DotEscaping.quoted(forward.entityName)) -> \(DotEscaping.quoted(forward.destinationName)) [\(attributes.joined(separator: ", "))];"
    }

    /// Crow's foot: the nearer shape says how many at most (`crow` many, `tee` one), the farther
    /// one how few (`odot` none, `tee` one).
    private static func arrow(_ relationship: DiagramRelationship) -> String {
        let minimum = relationship.isOptional ? "odot" : "tee"
        return (relationship.isToMany ? "crow" : "tee") + minimum
    }

    /// `stops (0..*, ordered, cascade)`, `notes → remarks (0..1, nullify) [added]`.
    private static func side(_ relationship: DiagramRelationship) -> String {
        var text = "\(relationship.change.displayName(relationship.name)) (\(relationship.cardinality), \(relationship.details))"
        if let marker = relationship.change.marker { text += " [\(marker)]" }
        return text
    }

    private static func name(_ name: String, _ change: DiagramChange) -> String {
        DotEscaping.html(change.displayName(name))
    }

    /// The colours of a `--diff`, as a node named so that it is no entity's name.
    private static func legend(avoiding names: Set<String>) -> String {
        var id = "legend"
        while names.contains(id) { id += "_" }
        let cells = [DiagramChange.added, .removed, .renamed(from: ""), .changed(aspects: [])].map { change in
            let text = change == .renamed(from: "") ? "renamed (old → new)" : change.word
            return "<td bgcolor=\"\(DiagramColours.colours(change)?.fill ?? "")\">\(text)</td>"
        }
        return
            "\(DotEscaping.quoted(id)) [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr>\(cells.joined())</tr></table>>];"
    }
}

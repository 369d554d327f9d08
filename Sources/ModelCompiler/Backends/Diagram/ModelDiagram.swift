import ModelSchema

/// `modelgen diagram`'s backend: a model's version, or the changes between two, as a diagram in
/// a text format. (SVG is Graphviz's rendering of the DOT text, run by the command line.)
public enum ModelDiagram {
    public enum Format: String, CaseIterable, Sendable {
        case mermaid
        case dot
    }

    /// The diagram of the named version (the current one when nil); nil when there is no such
    /// version.
    public static func diagram(of model: Model, version name: String? = nil) -> Diagram? {
        guard let version = model.versions.first(where: { $0.name == (name ?? model.currentVersionName) }) else { return nil }
        return DiagramBuilder.diagram(of: version, modelName: model.name)
    }

    /// The diagram of what changes from one version to another; nil when either is missing.
    public static func diff(of model: Model, from old: String, to new: String) -> Diagram? {
        guard let before = model.versions.first(where: { $0.name == old }), let after = model.versions.first(where: { $0.name == new })
        else { return nil }
        return DiagramDiff.diagram(from: before, to: after, modelName: model.name)
    }

    public static func text(_ diagram: Diagram, format: Format) -> String {
        switch format {
        case .mermaid: MermaidWriter.text(diagram)
        case .dot: DotWriter.text(diagram)
        }
    }
}

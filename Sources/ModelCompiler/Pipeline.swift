import Foundation
import ModelSchema

/// The whole flow of the compiler in one place:
///
/// 1. **Frontend** — find the model's files and parse them into YAML trees with locations.
/// 2. **Sema** — read each version into ``ModelSchema`` values, then check each version and
///    the history between versions. Every problem is a ``Diagnostic``.
/// 3. **Backends** — turn the validated ``Model`` into outputs (the canonical JSON dump today).
public enum Pipeline {
    /// The outcome of loading a model: the model (nil when it could not be read at all) and
    /// every diagnostic, sorted by location.
    public struct Result: Sendable {
        public let model: Model?
        public let diagnostics: [Diagnostic]

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Loads and validates the model at `path`: a `.model.yaml` file or `.modeld` folder, or an
    /// Xcode `.xcdatamodeld` / `.xcdatamodel`.
    public static func load(_ path: String) -> Result {
        let diagnostics = DiagnosticCollector()
        let model: Model?
        if isXcodeModel(path) {
            model = XcodeModelReader(diagnostics: diagnostics).read(path)
        } else {
            model = ModelSourceReader(diagnostics: diagnostics).read(path).map { analyze($0, diagnostics: diagnostics) }
        }
        return Result(model: model, diagnostics: diagnostics.sorted)
    }

    public static func isXcodeModel(_ path: String) -> Bool {
        let trimmed = path.trimmingSlashes
        return trimmed.hasSuffix(XcodeModelReader.versionedSuffix) || trimmed.hasSuffix(XcodeModelReader.versionSuffix)
            || (trimmed as NSString).lastPathComponent == "contents" || trimmed.hasSuffix(".contents")
    }

    /// Validates a single-version model given as text, as if read from `path`. For editors and
    /// tests that hold the text in memory.
    public static func load(text: String, path: String) -> Result {
        let diagnostics = DiagnosticCollector()
        let reader = ModelSourceReader(diagnostics: diagnostics)
        guard let root = reader.parseSingleDocument(bytes: Array(text.utf8), path: path) else {
            return Result(model: nil, diagnostics: diagnostics.sorted)
        }
        let name = ModelSourceReader.modelName(fromFile: path)
        let source = ModelSource(
            name: name, path: path, versions: [VersionSource(name: name, path: path, root: root)], currentVersionName: name,
            shippedVersionNames: [])
        return Result(model: analyze(source, diagnostics: diagnostics), diagnostics: diagnostics.sorted)
    }

    /// Generated code declares `<Name>Model`; no entity, composite or enum may take that name.
    static func checkModelTypeName(_ model: Model, diagnostics: DiagnosticCollector) {
        let typeName = SwiftModelView.modelTypeName(for: model.name)
        for version in model.versions {
            let clashes =
                version.entities.filter { $0.effectiveClassName == typeName }.map(\.location)
                + version.composites.filter { $0.name == typeName }.map(\.location)
                + version.enums.filter { $0.name == typeName }.map(\.location)
            for location in clashes {
                diagnostics.error(
                    "'\(typeName)' is the name of the type generated for model '\(model.name)'; choose another name",
                    at: location ?? version.location ?? .file(model.name))
            }
        }
    }

    /// Sema: YAML trees → checked model values.
    static func analyze(_ source: ModelSource, diagnostics: DiagnosticCollector) -> Model {
        var versions: [ModelVersion] = []
        for versionSource in source.versions {
            var reader = VersionReader(diagnostics: diagnostics)
            let version = reader.read(versionSource.root, versionName: versionSource.name)
            VersionChecker(version: version, locations: reader.locations, diagnostics: diagnostics).check()
            versions.append(version)
        }
        let model = Model(
            name: source.name, versions: versions, currentVersionName: source.currentVersionName ?? versions.last?.name ?? source.name,
            shippedVersionNames: source.shippedVersionNames)
        VersionHistoryChecker(model: model, diagnostics: diagnostics).check()
        checkModelTypeName(model, diagnostics: diagnostics)
        return model
    }
}

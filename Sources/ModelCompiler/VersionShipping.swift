import Foundation
import ModelSchema

/// `modelgen ship`: records a version of a `.modeld` model as shipped — its checksum in
/// `versions.yaml` and its entity and property hashes in `versions.lock` — so `validate` can
/// refuse any later change to it. Nothing is written here; the caller writes the files.
public enum VersionShipping {
    public struct Outcome: Sendable {
        public var diagnostics: [Diagnostic] = []
        /// `versions.yaml` and `versions.lock`, relative to the model folder; empty when nothing changes.
        public var files: [OutputFile] = []
        /// What happened, for people ("recorded 'Trips 2' as shipped: <checksum>").
        public var message: String?

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    public static func ship(_ path: String, version requested: String? = nil) -> Outcome {
        let diagnostics = DiagnosticCollector()
        var outcome = ship(path, version: requested, diagnostics: diagnostics)
        outcome.diagnostics = diagnostics.sorted
        return outcome
    }

    private static func ship(_ path: String, version requested: String?, diagnostics: DiagnosticCollector) -> Outcome {
        var outcome = Outcome()
        let folder = path.trimmingSlashes
        if Pipeline.isXcodeModel(folder) {
            diagnostics.error(
                "an Xcode model has no versions.yaml to record shipped versions in; import it ('modelgen import') and ship the .modeld folder",
                at: .file(path))
            return outcome
        }
        guard folder.hasSuffix(ModelSourceReader.versionedFolderSuffix) else {
            diagnostics.error(
                "a single-file model has no versions.yaml to record shipped versions in; move it into a '<Name>\(ModelSourceReader.versionedFolderSuffix)' folder with a versions.yaml, then ship",
                at: .file(path))
            return outcome
        }
        let reader = ModelSourceReader(diagnostics: diagnostics)
        guard let source = reader.read(folder) else { return outcome }
        let model = Pipeline.analyze(source, classPrefix: "", diagnostics: diagnostics)
        guard !diagnostics.hasErrors else { return outcome }
        let name = requested ?? model.currentVersionName
        guard let version = model.versions.first(where: { $0.name == name }) else {
            diagnostics.error(
                "the model has no version '\(name)'\(Suggestions.didYouMean(name, in: model.versions.map(\.name)))",
                at: .file(folder + "/" + ModelSourceReader.manifestName))
            return outcome
        }
        let locked = LockedVersion(version)
        let manifestPath = folder + "/" + ModelSourceReader.manifestName
        let lockedEntries = source.lock.map(\.version)
        if let existing = source.shipped.first(where: { $0.name == name }), existing.checksum == locked.checksum,
            lockedEntries.contains(where: { $0.name == name })
        {
            outcome.message = "'\(name)' is already shipped with checksum \(locked.checksum); nothing to do"
            return outcome
        }
        let order = Dictionary(model.versions.enumerated().map { ($1.name, $0) }) { first, _ in first }
        var shipped = source.shipped.map { ManifestEditor.Shipped(name: $0.name, checksum: $0.checksum) }
        shipped.removeAll { $0.name == name }
        shipped.append(ManifestEditor.Shipped(name: name, checksum: locked.checksum))
        shipped.sort { (order[$0.name] ?? 0) < (order[$1.name] ?? 0) }
        var lock = lockedEntries.filter { $0.name != name } + [locked]
        lock.sort { (order[$0.name] ?? Int.max, $0.name) < (order[$1.name] ?? Int.max, $1.name) }

        guard let manifestData = FileManager.default.contents(atPath: manifestPath),
            let manifestText = String(data: manifestData, encoding: .utf8),
            let root = reader.parseSingleDocument(bytes: [UInt8](manifestData), path: manifestPath)
        else {
            diagnostics.error("cannot read the manifest again", at: .file(manifestPath))
            return outcome
        }
        switch ManifestEditor.replacingShipped(in: manifestText, root: root, with: shipped) {
        case .failure(let error):
            diagnostics.error(error.message, at: root.location)
            return outcome
        case .success(let text):
            // The edit must read back as the same manifest with the new `shipped` entries.
            let check = DiagnosticCollector()
            let checkReader = ModelSourceReader(diagnostics: check)
            let reread = checkReader.parseSingleDocument(bytes: Array(text.utf8), path: manifestPath).flatMap {
                MappingReader($0, context: "the manifest", diagnostics: check)
            }
            let rereadShipped = reread?["shipped"].map { checkReader.readShipped($0, listed: Set(order.keys)) } ?? []
            guard !check.hasErrors, rereadShipped.map(\.name) == shipped.map(\.name),
                rereadShipped.map(\.checksum) == shipped.map(\.checksum)
            else {
                diagnostics.error(
                    "cannot rewrite 'shipped' in versions.yaml without changing the rest of the file; write it as 'shipped:' followed by indented lines",
                    at: root.location)
                return outcome
            }
            outcome.files = [
                OutputFile(path: ModelSourceReader.manifestName, text: text),
                OutputFile(path: VersionLockWriter.fileName, text: VersionLockWriter.text(lock)),
            ]
        }
        outcome.message = "recorded '\(name)' as shipped: checksum \(locked.checksum)"
        return outcome
    }
}

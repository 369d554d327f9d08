import Foundation
import ModelSchema

/// A parsed version file: its one YAML document and the name of the version it declares.
struct VersionSource {
    let name: String
    let path: String
    let root: YAMLNode
}

/// The parsed files of a model, before any meaning is given to them.
struct ModelSource {
    let name: String
    let path: String
    var versions: [VersionSource]
    var currentVersionName: String?
    var shippedVersionNames: [String]
    /// The manifest's `shipped` entries, with their recorded checksums (nil in the list form).
    var shipped: [ShippedEntry] = []
    /// The manifest's `customMigrations`: the steps between versions the app migrates in code.
    var customMigrations: [CustomMigrationEntry] = []
    /// The entries of `versions.lock`, when the folder has one.
    var lock: [LockEntry] = []
}

/// Finds and parses the files of a model on disk: a single `<Name>.model.yaml` file, or a
/// `<Name>.modeld` folder with one `<Version>.model.yaml` per version and a `versions.yaml`
/// manifest. Problems with files (missing, unreadable, not text, not YAML) become diagnostics.
struct ModelSourceReader {
    static let versionFileSuffix = ".model.yaml"
    static let versionedFolderSuffix = ".modeld"
    static let manifestName = "versions.yaml"
    /// Model files are small; anything larger than this is refused before it is read.
    static let maximumFileSize = 64 * 1024 * 1024

    let diagnostics: DiagnosticCollector
    var parser = YAMLParser()
    private let fileManager = FileManager.default

    init(diagnostics: DiagnosticCollector) {
        self.diagnostics = diagnostics
    }

    func read(_ path: String) -> ModelSource? {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            diagnostics.error("no such file or folder", at: .file(path))
            return nil
        }
        if isDirectory.boolValue {
            guard path.trimmingSlashes.hasSuffix(Self.versionedFolderSuffix) else {
                diagnostics.error(
                    "'\(path)' is a folder; expected a '<Name>\(Self.versionFileSuffix)' file or a '<Name>\(Self.versionedFolderSuffix)' folder",
                    at: .file(path))
                return nil
            }
            return readVersionedFolder(path.trimmingSlashes)
        }
        let name = Self.modelName(fromFile: path)
        guard let root = parseSingleDocument(path) else { return nil }
        return ModelSource(
            name: name, path: path, versions: [VersionSource(name: name, path: path, root: root)], currentVersionName: name,
            shippedVersionNames: [])
    }

    /// `Trips.model.yaml` → `Trips`; other YAML file names lose their extension.
    static func modelName(fromFile path: String) -> String {
        let file = (path as NSString).lastPathComponent
        for suffix in [versionFileSuffix, ".yaml", ".yml"] where file.hasSuffix(suffix) && file.count > suffix.count {
            return String(file.dropLast(suffix.count))
        }
        return file
    }

    // MARK: Files

    private func readBytes(_ path: String) -> [UInt8]? {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            diagnostics.error("no such file", at: .file(path))
            return nil
        }
        if isDirectory.boolValue {
            diagnostics.error("'\(path)' is a folder, not a model file", at: .file(path))
            return nil
        }
        if let attributes = try? fileManager.attributesOfItem(atPath: path) {
            if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
                diagnostics.error("'\(path)' is not a regular file", at: .file(path))
                return nil
            }
            if let size = attributes[.size] as? NSNumber, size.intValue > Self.maximumFileSize {
                diagnostics.error(
                    "the file is \(size.intValue) bytes; model files larger than \(Self.maximumFileSize) bytes are refused", at: .file(path)
                )
                return nil
            }
        }
        guard fileManager.isReadableFile(atPath: path), let data = fileManager.contents(atPath: path) else {
            diagnostics.error("cannot read the file (permission denied?)", at: .file(path))
            return nil
        }
        return [UInt8](data)
    }

    /// Parses a file that must hold exactly one YAML document.
    func parseSingleDocument(_ path: String) -> YAMLNode? {
        guard let bytes = readBytes(path) else { return nil }
        return parseSingleDocument(bytes: bytes, path: path)
    }

    func parseSingleDocument(bytes: [UInt8], path: String) -> YAMLNode? {
        let documents: [YAMLNode]
        var duplicates: [YAMLParser.DuplicateKey] = []
        defer {
            // Reported, with the first key, and the rest of the file still checked.
            for duplicate in duplicates {
                diagnostics.error(duplicate.error.message, at: duplicate.error.location)
                diagnostics.note("first written here", at: duplicate.first)
            }
        }
        do {
            documents = try parser.parseStream(bytes, path: path, duplicates: &duplicates)
        } catch {
            diagnostics.error(error.message, at: error.location)
            return nil
        }
        guard let first = documents.first, !(documents.count == 1 && first.isNull) else {
            diagnostics.error("the file is empty; a model file is a mapping with 'entities'", at: .file(path))
            return nil
        }
        if documents.count > 1 {
            diagnostics.error("a model file must hold one YAML document, found \(documents.count)", at: documents[1].location)
        }
        return first
    }

    // MARK: Versioned models

    static let manifestKeys = ["versions", "current", "shipped", "customMigrations"]

    private func readVersionedFolder(_ folder: String) -> ModelSource? {
        let name = String((folder as NSString).lastPathComponent.dropLast(Self.versionedFolderSuffix.count))
        let manifestPath = folder + "/" + Self.manifestName
        guard fileManager.fileExists(atPath: manifestPath) else {
            diagnostics.error("a versioned model needs a '\(Self.manifestName)' manifest listing its versions", at: .file(folder))
            return nil
        }
        guard let manifest = parseSingleDocument(manifestPath),
            let reader = MappingReader(manifest, context: "the manifest", diagnostics: diagnostics)
        else { return nil }
        reader.rejectUnknownKeys(allowed: Self.manifestKeys, diagnostics: diagnostics)
        let scalars = ScalarReader(diagnostics: diagnostics)

        guard let versionsNode = reader["versions"] else {
            diagnostics.error("the manifest needs 'versions', the version names from oldest to newest", at: manifest.location)
            return nil
        }
        let listed = scalars.stringList(versionsNode, "'versions'") ?? []
        var source = ModelSource(name: name, path: folder, versions: [], currentVersionName: nil, shippedVersionNames: [])
        var seen: Set<String> = []
        for (versionName, location) in listed {
            guard seen.insert(versionName).inserted else {
                diagnostics.error("version '\(versionName)' is listed twice", at: location)
                continue
            }
            // Version names become file names (`<Version>.mom`, `<Version>.xcdatamodel`), never paths.
            if let problem = Self.versionNameProblem(versionName) {
                diagnostics.error(problem, at: location)
                continue
            }
            let path = folder + "/" + versionName + Self.versionFileSuffix
            guard fileManager.fileExists(atPath: path) else {
                diagnostics.error(
                    "version '\(versionName)' has no file '\(versionName)\(Self.versionFileSuffix)' in '\(folder)'", at: location)
                continue
            }
            if let root = parseSingleDocument(path) {
                source.versions.append(VersionSource(name: versionName, path: path, root: root))
            }
        }
        if listed.isEmpty {
            diagnostics.error("the manifest lists no versions", at: versionsNode.location)
        }
        warnAboutUnlistedFiles(in: folder, listed: seen, manifest: manifest)

        if let current = reader["current"], let currentName = scalars.name(current, "'current'") {
            if seen.contains(currentName) {
                source.currentVersionName = currentName
            } else {
                diagnostics.error(
                    "current version '\(currentName)' is not listed in 'versions'\(Suggestions.didYouMean(currentName, in: seen))",
                    at: current.location)
            }
        } else if reader["current"] == nil {
            if listed.count == 1 {
                source.currentVersionName = listed[0].0
            } else if listed.count > 1 {
                diagnostics.error("the manifest needs 'current', the name of the version new stores use", at: manifest.location)
            }
        }
        if let shipped = reader["shipped"] {
            source.shipped = readShipped(shipped, listed: seen)
            source.shippedVersionNames = source.shipped.map(\.name)
        }
        if let custom = reader["customMigrations"] {
            source.customMigrations = readCustomMigrations(custom, listed: listed.map(\.0))
        }
        source.lock = readLock(in: folder)
        return source
    }

    /// Why `name` cannot name a version, or nil when it can: a version name is a file name.
    static func versionNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a version name cannot be empty" }
        return OutputFiles.fileNameProblem(name).map { "version name '\(name)' is not a file name: \($0)" }
    }

    private func warnAboutUnlistedFiles(in folder: String, listed: Set<String>, manifest: YAMLNode) {
        let files = (try? fileManager.contentsOfDirectory(atPath: folder)) ?? []
        for file in files.sorted() where file.hasSuffix(Self.versionFileSuffix) {
            let versionName = String(file.dropLast(Self.versionFileSuffix.count))
            if !listed.contains(versionName) {
                diagnostics.warning("'\(file)' is not listed in the manifest's 'versions' and is ignored", at: .file(folder + "/" + file))
            }
        }
    }
}

extension String {
    /// The path without trailing slashes (`Trips.modeld/` → `Trips.modeld`).
    public var trimmingSlashes: String {
        var result = self
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }
}

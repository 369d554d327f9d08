import Foundation
import ModelSchema

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Xcode's model files — a `.xcdatamodeld` folder of versions, a single `.xcdatamodel`
/// folder, or its `contents` XML — into ``Model`` values. Everything the YAML format can express
/// carries over; what it cannot (fetch request templates) is reported as a warning at the
/// element. A version in Xcode 3's binary format is named in a warning and left out.
struct XcodeModelReader {
    static let versionedSuffix = ".xcdatamodeld"
    static let versionSuffix = ".xcdatamodel"

    let diagnostics: DiagnosticCollector

    func read(_ path: String) -> Model? {
        let trimmed = path.trimmingSlashes
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            diagnostics.error("no such file or folder", at: .file(path))
            return nil
        }
        let name = Self.baseName(trimmed)
        if trimmed.hasSuffix(Self.versionedSuffix) {
            return readVersioned(trimmed, modelName: name)
        }
        let contents = isDirectory.boolValue ? trimmed + "/contents" : trimmed
        guard let version = readVersion(contentsPath: contents, versionName: name, isOnlyVersion: true) else { return nil }
        return Model(name: name, versions: [version], currentVersionName: name)
    }

    static func baseName(_ path: String) -> String {
        var file = (path as NSString).lastPathComponent
        for suffix in [versionedSuffix, versionSuffix, ".contents"] where file.hasSuffix(suffix) {
            file = String(file.dropLast(suffix.count))
        }
        return file
    }

    private func readVersioned(_ folder: String, modelName: String) -> Model? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let versionNames = entries.filter { $0.hasSuffix(Self.versionSuffix) }.map { String($0.dropLast(Self.versionSuffix.count)) }
            .sorted(by: Self.naturalOrder)
        guard !versionNames.isEmpty else {
            diagnostics.error("'\(folder)' holds no .xcdatamodel versions", at: .file(folder))
            return nil
        }
        let versions = versionNames.compactMap { versionName in
            readVersion(
                contentsPath: "\(folder)/\(versionName)\(Self.versionSuffix)/contents", versionName: versionName, isOnlyVersion: false)
        }
        var current = versionNames.last!
        let currentVersionFile = folder + "/.xccurrentversion"
        if let data = FileManager.default.contents(atPath: currentVersionFile),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let file = plist["_XCCurrentVersionName"] as? String
        {
            let named = Self.baseName(file)
            if versionNames.contains(named) {
                current = named
            } else {
                diagnostics.error("the current version '\(named)' named by .xccurrentversion does not exist", at: .file(currentVersionFile))
            }
        } else if versionNames.count > 1 {
            diagnostics.warning("no readable .xccurrentversion; taking '\(current)' as the current version", at: .file(folder))
        }
        if !versions.contains(where: { $0.name == current }), versionNames.contains(current) {
            diagnostics.error("the current version '\(current)' cannot be read", at: .file("\(folder)/\(current)\(Self.versionSuffix)"))
            return nil
        }
        return Model(name: modelName, versions: versions, currentVersionName: current)
    }

    /// Orders "Model", "Model 2", "Model 10" as a person would (see ``VersionNameOrder``).
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        VersionNameOrder.areInIncreasingOrder(lhs, rhs)
    }

    /// Words for the parser's error code (see ``XMLErrorDescription``).
    static func describeXMLError(_ code: Int) -> String {
        XMLErrorDescription.words(for: code)
    }

    // MARK: One version

    /// Reads one version's `contents`. An Xcode 3 version inside a versioned model is left out
    /// with a warning, so the other versions still import; on its own it is an error.
    func readVersion(contentsPath: String, versionName: String, isOnlyVersion: Bool) -> ModelVersion? {
        guard let data = FileManager.default.contents(atPath: contentsPath) else {
            let folder = (contentsPath as NSString).deletingLastPathComponent
            if Self.isXcode3Version(folder) {
                diagnostics.append(contentsOf: [
                    Diagnostic(
                        isOnlyVersion ? .error : .warning,
                        "version '\(versionName)' is in the binary format of Xcode 3 ('elements' and 'layout' files, no 'contents'), which modelgen cannot read\(isOnlyVersion ? "" : "; it is left out"). Open the model in a current Xcode and save it to convert it",
                        at: .file(folder))
                ])
            } else {
                diagnostics.error("cannot read the model contents", at: .file(contentsPath))
            }
            return nil
        }
        // FoundationXML stops the process on names that are not UTF-8, so the bytes are checked
        // first; Xcode writes model contents as UTF-8.
        if let problem = UTF8Check.firstProblem(in: [UInt8](data)) {
            diagnostics.error(
                "the model contents are not valid XML: \(problem.description) (Xcode writes model contents as UTF-8)",
                at: SourceLocation(file: contentsPath, line: problem.line, column: problem.column))
            return nil
        }
        if let problem = ProcessingInstructionCheck.firstProblem(in: [UInt8](data)) {
            diagnostics.error(
                "the model contents are not valid XML: processing instruction '<?\(problem.target)?>' has no data, which the XML parser cannot read",
                at: SourceLocation(file: contentsPath, line: problem.line, column: problem.column))
            return nil
        }
        let root: XcodeXMLElement
        switch XcodeXMLTree.parse(data) {
        case .failure(.malformed(let reason, let line, let column)):
            diagnostics.error(
                "the model contents are not valid XML: \(reason)", at: SourceLocation(file: contentsPath, line: line, column: column))
            return nil
        case .success(let element):
            root = element
        }
        guard root.name == "model" else {
            diagnostics.error(
                "expected a <model> root element", at: SourceLocation(file: contentsPath, line: root.line, column: root.column))
            return nil
        }
        guard RelationshipCountCheck.check(root, path: contentsPath, diagnostics: diagnostics) else { return nil }
        let reader = ElementReader(path: contentsPath, diagnostics: diagnostics)
        return reader.readModel(root, versionName: versionName)
    }

    /// Xcode 3 saved a version as a folder holding a binary `elements` archive and a `layout`
    /// file instead of the `contents` XML.
    static func isXcode3Version(_ folder: String) -> Bool {
        let fileManager = FileManager.default
        return fileManager.fileExists(atPath: folder + "/elements") && !fileManager.fileExists(atPath: folder + "/contents")
    }
}

import CSQLite
import Foundation
import ModelCompiler
import ModelSchema
import ModelStore

/// What one input did: whether the reader accepted it, and a short signature of how it ended
/// (the first error message without its numbers), so inputs that behave differently are kept.
struct Outcome {
    var accepted: Bool
    var signature: String
}

/// One reader under test: its seed inputs, tokens of its format, and how to run one input.
struct FuzzTarget {
    let name: String
    let seeds: [[UInt8]]
    let tokens: [[UInt8]]
    let maximumSize: Int
    /// The file the input is written to before it runs; it stays behind if the process dies.
    let inputFileName: String
    /// Runs the input already written at the given path.
    let run: (_ path: String, _ bytes: [UInt8]) -> Outcome
}

enum Targets {
    static let all = ["yaml", "xcode", "plist", "mom", "store"]

    static func make(_ name: String, root: URL) throws -> FuzzTarget {
        switch name {
        case "yaml": return try yaml(root: root)
        case "xcode": return try xcode(root: root)
        case "plist": return try plist(root: root)
        case "mom": return try mom(root: root)
        case "store": return try store(root: root)
        default: throw FuzzError("unknown reader '\(name)'; readers: \(all.joined(separator: ", "))")
        }
    }

    /// Every file under `folder` (recursively) whose name satisfies `accept`, in a stable order.
    static func files(under folder: URL, where accept: (String) -> Bool) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { accept($0.lastPathComponent) }.sorted { $0.path < $1.path }
    }

    static func bytes(_ urls: [URL]) -> [[UInt8]] {
        urls.compactMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) }
    }

    static func signature(_ result: Pipeline.Result) -> String {
        guard let error = result.diagnostics.first(where: { $0.severity == .error }) else { return "accepted" }
        return String(error.message.map { $0.isNumber ? "#" : $0 }.prefix(60))
    }

    /// After a model is accepted, the work every command does with it: hashes, the compiled
    /// bundle and the generated sources.
    static func exercise(_ model: Model) {
        for version in model.versions { _ = VersionHashes(version).versionChecksum }
        _ = CompiledModel.files(for: model)
        _ = try? SwiftGenerator.generate(model, options: SwiftGenerator.Options())
    }

    static func tokens(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    // MARK: Readers

    static func yaml(root: URL) throws -> FuzzTarget {
        let seeds = bytes(
            files(under: root.appendingPathComponent("Samples"), where: { $0.hasSuffix(".model.yaml") })
                + files(under: root.appendingPathComponent("Tests/ModelCompilerTests/Golden"), where: { $0.hasSuffix(".model.yaml") }))
        guard !seeds.isEmpty else { throw FuzzError("no .model.yaml seeds under Samples/ or Tests/ModelCompilerTests/Golden") }
        let words = [
            ":", "- ", "{", "}", "[", "]", ",", "&a ", "*a", "<<: *a", "!!str ", "? ", "|", ">", "#", "'", "\"", "\t", "\n", "  ",
            "~", "null", "true", "0x1F", "-1", "4294967296", "99999999999999999999", "String?", "Integer 16", "to: Trip",
            "inverse: stops", "toMany: true", "default: x", "parent: Trip", "minCount: -1", "maxCount: 4294967296",
            "\u{FEFF}", "\u{0}", "é", "%YAML 1.1\n", "---\n", "entities:\n", "composites:\n", "enums:\n", "unique: [a]",
            "indexes:\n", "derived: a.@count", "type: Composite", "\n  A:\n    parent: B\n  B:\n    parent: A\n",
        ]
        return FuzzTarget(
            name: "yaml", seeds: seeds, tokens: tokens(words), maximumSize: 64 * 1024, inputFileName: "input.model.yaml"
        ) { path, _ in
            let result = Pipeline.load(path)
            if let model = result.model, !result.hasErrors { exercise(model) }
            return Outcome(accepted: !result.hasErrors, signature: signature(result))
        }
    }

    static func xcode(root: URL) throws -> FuzzTarget {
        let seeds = bytes(files(under: root.appendingPathComponent("Tests/Fixtures/coredata"), where: { $0 == "contents" }))
        guard !seeds.isEmpty else { throw FuzzError("no Xcode contents seeds under Tests/Fixtures/coredata") }
        let words = [
            "<", ">", "/>", "</", "=", "\"", "'", "&amp;", "&#0;", "&#xFFFF;", "<!--", "-->", "<![CDATA[", "]]>", "<?x y?>",
            "<!DOCTYPE model [<!ENTITY e \"x\">]>", "&e;", " name=\"A\"", " parentEntity=\"A\"", " destinationEntity=\"A\"",
            " inverseName=\"r\"", " toMany=\"YES\"", " minCount=\"-1\"", " maxCount=\"4294967296\"", " optional=\"YES\"",
            "<entity name=\"B\" parentEntity=\"B\"/>", "<relationship name=\"r\" destinationEntity=\"A\"/>",
            "<attribute name=\"a\" attributeType=\"Composite\" composite=\"C\"/>", "\u{FF}", "é", "\u{0}", "\n",
        ]
        return FuzzTarget(
            name: "xcode", seeds: seeds, tokens: tokens(words), maximumSize: 256 * 1024, inputFileName: "Fuzz.xcdatamodel/contents"
        ) { path, _ in
            let result = Pipeline.load((path as NSString).deletingLastPathComponent)
            if let model = result.model, !result.hasErrors { exercise(model) }
            return Outcome(accepted: !result.hasErrors, signature: signature(result))
        }
    }

    /// Binary property lists as `modelgen checksum` (VersionInfo.plist) and `inspect-store`
    /// (store metadata) read them.
    static func plist(root: URL) throws -> FuzzTarget {
        var seeds = bytes(files(under: root.appendingPathComponent("Tests/Fixtures/coredata"), where: { $0 == VersionInfo.fileName }))
        seeds += bytes(files(under: root.appendingPathComponent("Samples"), where: { $0 == VersionInfo.fileName }))
        for store in files(under: root.appendingPathComponent("Tests/Fixtures/coredata"), where: { $0.hasSuffix(".sqlite") }) {
            seeds += storeMetadata(at: store.path)
        }
        guard !seeds.isEmpty else { throw FuzzError("no property list seeds under Tests/Fixtures/coredata") }
        return FuzzTarget(
            name: "plist", seeds: seeds, tokens: plistTokens, maximumSize: 64 * 1024, inputFileName: "input.plist"
        ) { _, bytes in
            let data = Data(bytes)
            _ = PropertyList.foundationObject(from: data)
            do throws(VersionInfo.FormatError) {
                _ = try VersionInfo(plist: data)
                return Outcome(accepted: true, signature: "accepted")
            } catch {
                let decoded = Result { () throws(BinaryPropertyList.FormatError) in try BinaryPropertyList.decode(bytes) }
                if case .failure(let failure) = decoded { return Outcome(accepted: false, signature: failure.message) }
                return Outcome(accepted: false, signature: error.message)
            }
        }
    }

    /// Compiled `.mom` files (keyed archives): decoded, then walked the way the compiler tests
    /// compare them with momc's.
    static func mom(root: URL) throws -> FuzzTarget {
        let seeds =
            bytes(files(under: root.appendingPathComponent("Tests/Fixtures/coredata"), where: { $0.hasSuffix(".mom") }))
            + bytes(files(under: root.appendingPathComponent("Samples"), where: { $0.hasSuffix(".mom") }))
        guard !seeds.isEmpty else { throw FuzzError("no .mom seeds under Tests/Fixtures/coredata") }
        return FuzzTarget(
            name: "mom", seeds: seeds, tokens: plistTokens, maximumSize: 256 * 1024, inputFileName: "input.mom"
        ) { _, bytes in
            do throws(BinaryPropertyList.FormatError) {
                let archive = try BinaryPropertyList.decode(bytes)
                let graph = ArchiveGraph(archive)
                return Outcome(accepted: !graph.entries.isEmpty, signature: graph.entries.isEmpty ? "no entries" : "accepted")
            } catch {
                return Outcome(accepted: false, signature: error.message)
            }
        }
    }

    /// SQLite stores, read by the store inspector.
    static func store(root: URL) throws -> FuzzTarget {
        let seeds = bytes(
            files(under: root.appendingPathComponent("Tests/Fixtures/coredata"), where: { $0.hasSuffix(".sqlite") })
        ).filter { $0.count <= 128 * 1024 }
        guard !seeds.isEmpty else { throw FuzzError("no .sqlite seeds under Tests/Fixtures/coredata") }
        return FuzzTarget(
            name: "store", seeds: seeds, tokens: plistTokens, maximumSize: 256 * 1024, inputFileName: "input.sqlite"
        ) { path, _ in
            do throws(StoreInspectionError) {
                _ = try StoreInspector.inspect(path)
                return Outcome(accepted: true, signature: "accepted")
            } catch {
                return Outcome(accepted: false, signature: String(error.message.map { $0.isNumber ? "#" : $0 }.prefix(60)))
            }
        }
    }

    /// Markers and trailers of binary property lists.
    static let plistTokens: [[UInt8]] = [
        Array("bplist00".utf8), [0x80], [0x8F], [0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xA2, 0x00, 0x00],
        [0xAF, 0x10, 0xFF], [0xD1, 0x01, 0x01], [0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x13],
        [0x14], [0x23], [0x33], [0x6F, 0x10, 0x7F], [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x08],
    ]

    /// The metadata property list of a Core Data store (`Z_METADATA.Z_PLIST`), for seeds.
    static func storeMetadata(at path: String) -> [[UInt8]] {
        var database: OpaquePointer?
        // Immutable: SQLite must not create `-shm` or `-wal` files beside the fixture.
        let uri = "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1"
        guard sqlite3_open_v2(uri, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT Z_PLIST FROM Z_METADATA", -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var result: [[UInt8]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            guard let blob = sqlite3_column_blob(statement, 0) else { continue }
            let count = Int(sqlite3_column_bytes(statement, 0))
            result.append(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        }
        return result
    }
}

struct FuzzError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import ModelSchema

/// A shipped version as the manifest records it: `Trips 1: <checksum>` in the mapping form,
/// `Trips 1` (no checksum recorded) in the list form.
struct ShippedEntry {
    let name: String
    let checksum: String?
    let location: SourceLocation
}

/// A step between consecutive versions that the app migrates in code (`customMigrations`).
struct CustomMigrationEntry {
    let from: String
    let to: String
    let location: SourceLocation
}

/// The parts of `versions.yaml` and `versions.lock` about model evolution: shipped versions,
/// their checksums and lock, and the steps that need a custom migration.
extension ModelSourceReader {
    static let lockName = VersionLockWriter.fileName

    /// `shipped: [Trips 1]` or `shipped: { Trips 1: <checksum> }` (a null checksum reads as not recorded).
    func readShipped(_ node: YAMLNode, listed: Set<String>) -> [ShippedEntry] {
        var entries: [ShippedEntry] = []
        var seen: Set<String> = []
        func add(_ name: String, _ checksum: String?, _ location: SourceLocation) {
            guard listed.contains(name) else {
                diagnostics.error(
                    "shipped version '\(name)' is not listed in 'versions'\(Suggestions.didYouMean(name, in: listed))", at: location)
                return
            }
            guard seen.insert(name).inserted else {
                diagnostics.error("shipped version '\(name)' is listed twice", at: location)
                return
            }
            entries.append(ShippedEntry(name: name, checksum: checksum, location: location))
        }
        if node.mappingEntries != nil {
            guard let reader = MappingReader(node, context: "'shipped'", diagnostics: diagnostics) else { return [] }
            for (name, key) in reader.keys {
                guard let value = reader[name] else { continue }
                if value.isNull {
                    add(name, nil, key.location)
                } else if let checksum = value.scalarValue {
                    add(name, checksum, key.location)
                } else {
                    diagnostics.error(
                        "the checksum of shipped version '\(name)' must be a scalar, found \(value.kindDescription)", at: value.location)
                }
            }
            return entries
        }
        for (name, location) in ScalarReader(diagnostics: diagnostics).stringList(node, "'shipped'") ?? [] {
            add(name, nil, location)
        }
        return entries
    }

    /// `customMigrations: [{ from: Trips 1, to: Trips 2 }]`: both versions listed, `to` right after `from`.
    func readCustomMigrations(_ node: YAMLNode, listed: [String]) -> [CustomMigrationEntry] {
        guard let items = node.sequenceItems else {
            diagnostics.error(
                "'customMigrations' must be a list of '{ from: <version>, to: <version> }', found \(node.kindDescription)",
                at: node.location)
            return []
        }
        let scalars = ScalarReader(diagnostics: diagnostics)
        var entries: [CustomMigrationEntry] = []
        for item in items {
            guard let reader = MappingReader(item, context: "a custom migration", diagnostics: diagnostics) else { continue }
            reader.rejectUnknownKeys(allowed: ["from", "to"], diagnostics: diagnostics)
            guard let fromNode = reader["from"], let toNode = reader["to"] else {
                diagnostics.error("a custom migration needs 'from' and 'to', the versions of the step", at: item.location)
                continue
            }
            guard let from = scalars.name(fromNode, "'from'"), let to = scalars.name(toNode, "'to'") else { continue }
            guard let fromIndex = listed.firstIndex(of: from) else {
                diagnostics.error(
                    "version '\(from)' is not listed in 'versions'\(Suggestions.didYouMean(from, in: listed))", at: fromNode.location)
                continue
            }
            guard let toIndex = listed.firstIndex(of: to) else {
                diagnostics.error(
                    "version '\(to)' is not listed in 'versions'\(Suggestions.didYouMean(to, in: listed))", at: toNode.location)
                continue
            }
            guard toIndex == fromIndex + 1 else {
                let next = fromIndex + 1 < listed.count ? "; the version after '\(from)' is '\(listed[fromIndex + 1])'" : ""
                diagnostics.error(
                    "a custom migration goes from a version to the next one; '\(to)' does not follow '\(from)' in 'versions'\(next)",
                    at: toNode.location)
                continue
            }
            if entries.contains(where: { $0.from == from }) {
                diagnostics.error("the custom migration from '\(from)' to '\(to)' is declared twice", at: item.location)
                continue
            }
            entries.append(CustomMigrationEntry(from: from, to: to, location: item.location))
        }
        return entries
    }

    /// The entries of `versions.lock` beside the manifest; none when there is no lock, or when
    /// it holds nothing but comments.
    func readLock(in folder: String) -> [LockEntry] {
        let path = folder + "/" + Self.lockName
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        if let data = FileManager.default.contents(atPath: path),
            let documents = try? parser.parseStream([UInt8](data), path: path), documents.allSatisfy(\.isNull)
        {
            return []
        }
        guard let root = parseSingleDocument(path) else { return [] }
        return VersionLockReader(diagnostics: diagnostics).read(root)
    }
}

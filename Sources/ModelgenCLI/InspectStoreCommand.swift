import Foundation
import ModelCompiler
import ModelSchema
import ModelStore

/// `modelgen inspect-store <store.sqlite> [--model <model>] [--json]`.
enum InspectStoreCommand {
    static let command = Command(spec: spec, run: run)

    static let store = Argument<String>("store.sqlite", help: "The Core Data SQLite store.")
    static let model = Option<String>("--model", valueName: "model", help: "Name the version of this model that wrote the store.")
    static let json = Flag("--json", help: "Print JSON instead of text.")

    static let spec = CommandSpec(
        name: "inspect-store",
        summary: "Show a Core Data SQLite store's metadata and which model version wrote it.",
        discussion: """
            Nothing is written, beside the store or anywhere else: the store is opened read-only
            (a store with an un-checkpointed -wal file is read into memory with the WAL applied).
            Only regular files are read. With --model, exit status 1 means no version matches.
            """,
        arguments: [store, model, json])

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let path = arguments[store]
        let metadata: StoreMetadata
        do {
            metadata = try StoreInspector.inspect(path)
        } catch {
            console.standardError("\(path): error: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        var match: StoreModelMatch?
        if let modelPath = arguments[model] {
            let result = Pipeline.load(modelPath)
            Report.diagnostics(result.diagnostics, console: console)
            guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
            match = StoreModelMatch.match(metadata, against: model)
        }
        let computed = VersionHashes(entityHashes: metadata.entityHashes)
        if arguments[Self.json] {
            console.standardOutput(json(metadata, computedChecksum: computed.versionChecksum, match: match).rendered())
        } else {
            console.standardOutput(text(metadata, computedChecksum: computed.versionChecksum, match: match))
        }
        if let match, match.sameHashVersions.isEmpty { return Modelgen.ExitStatus.modelErrors }
        return Modelgen.ExitStatus.success
    }

    static func text(_ metadata: StoreMetadata, computedChecksum: String, match: StoreModelMatch?) -> String {
        var lines = [
            "store UUID: \(metadata.storeUUID)",
            "store type: \(metadata.storeType ?? "(none)")",
            "framework version: \(metadata.frameworkVersion.map(String.init) ?? "(none)")",
            "model version identifiers: \(metadata.versionIdentifiers.map { "'\($0)'" }.joined(separator: ", "))",
            "model checksum: \(metadata.versionChecksum ?? "(not recorded; computed from the hashes: \(computedChecksum))")",
            "hashes digest: \(metadata.hashesDigest ?? "(not recorded)")",
            "entity hashes:",
        ]
        for entity in metadata.entityHashes.keys.sorted() {
            lines.append("  \(entity) \(ChecksumCommand.hex(metadata.entityHashes[entity]!))")
        }
        lines.append("entities:")
        for table in metadata.entityTables {
            lines.append("  \(table.entityName) (Z_ENT \(table.entityNumber)) in \(table.tableName): \(table.rowCount) rows")
        }
        if let match {
            if match.sameHashVersions.count > 1 {
                lines.append(sameHashDescription(match))
            } else if let version = match.matchingVersion {
                lines.append("written by model version: \(version)")
            } else {
                lines.append("no model version matches; closest is '\(match.closestVersion ?? "")':")
                for difference in match.differences { lines.append("  \(difference.entityName): \(difference.kind.rawValue)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Several versions have the store's hashes: which one the store's identifiers name, or that
    /// they cannot tell.
    static func sameHashDescription(_ match: StoreModelMatch) -> String {
        let names = match.sameHashVersions.map { "'\($0)'" }.joined(separator: ", ")
        if let chosen = match.matchingVersion {
            return
                "written by model version: \(chosen) (versions \(names) have the same hashes; the store's version identifiers name '\(chosen)')"
        }
        return
            "written by one of the model versions \(names): they have the same hashes, and the store's version identifiers do not tell them apart"
    }

    static func json(_ metadata: StoreMetadata, computedChecksum: String, match: StoreModelMatch?) -> JSONValue {
        var members: [String: JSONValue] = [
            "storeUUID": .string(metadata.storeUUID),
            "versionIdentifiers": .array(metadata.versionIdentifiers.map(JSONValue.string)),
            "entityHashes": .object(metadata.entityHashes.mapValues { .string(ChecksumCommand.hex($0)) }),
            "computedChecksum": .string(computedChecksum),
            "entities": .array(
                metadata.entityTables.map {
                    .object([
                        "name": .string($0.entityName), "number": .int($0.entityNumber), "table": .string($0.tableName),
                        "rows": .int($0.rowCount),
                    ])
                }),
        ]
        members["storeType"] = metadata.storeType.map(JSONValue.string)
        members["frameworkVersion"] = metadata.frameworkVersion.map(JSONValue.int)
        members["checksum"] = metadata.versionChecksum.map(JSONValue.string)
        members["hashesDigest"] = metadata.hashesDigest.map(JSONValue.string)
        if let match {
            var matchMembers: [String: JSONValue] = [
                "differences": .array(
                    match.differences.map { .object(["entity": .string($0.entityName), "kind": .string($0.kind.rawValue)]) })
            ]
            matchMembers["version"] = match.matchingVersion.map(JSONValue.string)
            if match.sameHashVersions.count > 1 {
                // Versions with the store's hashes: "version" is the one the store's identifiers
                // name, or absent when they leave it ambiguous.
                matchMembers["sameHashVersions"] = .array(match.sameHashVersions.map(JSONValue.string))
                matchMembers["ambiguous"] = .bool(match.isAmbiguous)
            }
            matchMembers["closestVersion"] = match.closestVersion.map(JSONValue.string)
            members["match"] = .object(matchMembers)
        }
        return .object(members)
    }
}

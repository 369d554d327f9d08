import Foundation
import ModelCompiler
import ModelSchema

/// `modelgen checksum <model> [--json]`: each version's checksum and entity version hashes.
enum ChecksumCommand {
    static let command = Command(spec: spec, run: run)

    static let model = Argument<String>(
        "model", help: "A modelgen model (.model.yaml, .modeld), an Xcode model (.xcdatamodeld, .xcdatamodel) or a compiled .momd.")
    static let json = Flag("--json", help: "Print JSON instead of text.")

    static let spec = CommandSpec(
        name: "checksum",
        summary: "Print each version's checksum and entity version hashes, as Core Data computes them.",
        discussion: "The VersionInfo.plist of a compiled bundle (.momd) is read as is.",
        arguments: [model, json])

    struct VersionSummary {
        let name: String
        let checksum: String?
        let entityHashes: [String: [UInt8]]
    }

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        let path = arguments[model]
        let current: String
        let versions: [VersionSummary]
        if path.hasSuffix(".momd") || path.hasSuffix(".momd/") {
            let plist = (path as NSString).appendingPathComponent(VersionInfo.fileName)
            guard let data = FileManager.default.contents(atPath: plist) else {
                console.standardError("\(plist):1:1: error: cannot read the compiled bundle's \(VersionInfo.fileName)\n")
                return Modelgen.ExitStatus.modelErrors
            }
            do {
                let info = try VersionInfo(plist: data)
                current = info.currentVersionName
                if !info.recordsCurrentVersion {
                    console.standardError(
                        "\(plist): warning: NSManagedObjectModel_CurrentVersionName is missing; taking '\(current)', the version Core Data's bundle lookup finds first\n"
                    )
                }
                versions = info.versionHashes.keys.sorted(by: VersionNameOrder.areInIncreasingOrder).map {
                    VersionSummary(name: $0, checksum: info.versionChecksums[$0], entityHashes: info.versionHashes[$0]!)
                }
            } catch {
                console.standardError("\(plist):1:1: error: \(error.message)\n")
                return Modelgen.ExitStatus.modelErrors
            }
        } else {
            let result = Pipeline.load(path)
            Report.diagnostics(result.diagnostics, console: console)
            guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
            current = model.currentVersionName
            versions = model.versions.map { version in
                let hashes = VersionHashes(version)
                return VersionSummary(name: version.name, checksum: hashes.versionChecksum, entityHashes: hashes.entityHashes)
            }
        }
        console.standardOutput(
            arguments[Self.json] ? json(current: current, versions: versions) : text(current: current, versions: versions))
        return Modelgen.ExitStatus.success
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static func json(current: String, versions: [VersionSummary]) -> String {
        JSONValue.object([
            "currentVersion": .string(current),
            "versions": .array(
                versions.map { version in
                    var members: [String: JSONValue] = [
                        "name": .string(version.name),
                        "entities": .object(version.entityHashes.mapValues { .string(hex($0)) }),
                    ]
                    members["checksum"] = version.checksum.map(JSONValue.string)
                    return .object(members)
                }),
        ]).rendered()
    }

    static func text(current: String, versions: [VersionSummary]) -> String {
        var output = ""
        for version in versions {
            let marker = version.name == current ? " (current)" : ""
            output += "\(version.name)\(marker): \(version.checksum ?? "(no checksum recorded)")\n"
            for entity in version.entityHashes.keys.sorted() {
                output += "  \(entity) \(hex(version.entityHashes[entity]!))\n"
            }
        }
        return output
    }
}

import Foundation

/// The contents of a compiled model bundle's `VersionInfo.plist`: which version is current, and
/// each version's entity hashes and checksum.
public struct VersionInfo: Hashable, Sendable {
    public static let fileName = "VersionInfo.plist"

    public var currentVersionName: String
    /// False when the plist names no current version (older `momc` wrote none) and
    /// ``currentVersionName`` was decided by ``inferredCurrentVersion(among:)``.
    public var recordsCurrentVersion = true
    /// Version name → entity name → 32-byte version hash.
    public var versionHashes: [String: [String: [UInt8]]]
    /// Version name → version checksum. Older `momc` versions did not write checksums.
    public var versionChecksums: [String: String]

    public init(currentVersionName: String, versionHashes: [String: [String: [UInt8]]], versionChecksums: [String: String]) {
        self.currentVersionName = currentVersionName
        self.versionHashes = versionHashes
        self.versionChecksums = versionChecksums
    }

    public struct FormatError: Error, Equatable, Sendable {
        public let message: String
    }

    /// Reads a `VersionInfo.plist` (binary or XML property list).
    public init(plist data: Data) throws(FormatError) {
        let bytes = [UInt8](data)
        let object: Any
        if bytes.starts(with: Array("bplist".utf8)) {
            do throws(BinaryPropertyList.FormatError) {
                object = try BinaryPropertyList.decode(bytes).foundationObject
            } catch {
                throw FormatError(message: "not a valid binary property list: \(error.message)")
            }
        } else {
            guard let parsed = PropertyList.foundationObject(from: data) else { throw FormatError(message: "not a property list") }
            object = parsed
        }
        guard let dictionary = object as? [String: Any] else { throw FormatError(message: "expected a dictionary") }
        let recorded = dictionary["NSManagedObjectModel_CurrentVersionName"]
        if recorded != nil, !(recorded is String) {
            throw FormatError(message: "NSManagedObjectModel_CurrentVersionName is not a string")
        }
        guard let hashes = dictionary["NSManagedObjectModel_VersionHashes"] as? [String: Any] else {
            throw FormatError(message: "NSManagedObjectModel_VersionHashes is missing")
        }
        var versionHashes: [String: [String: [UInt8]]] = [:]
        for (version, value) in hashes {
            guard let entities = value as? [String: Any] else {
                throw FormatError(message: "hashes of version '\(version)' are not a dictionary")
            }
            var entityHashes: [String: [UInt8]] = [:]
            for (entity, hash) in entities {
                guard let data = hash as? Data else { throw FormatError(message: "hash of '\(version)/\(entity)' is not data") }
                entityHashes[entity] = [UInt8](data)
            }
            versionHashes[version] = entityHashes
        }
        let checksums = dictionary["NSManagedObjectModel_VersionChecksums"] as? [String: String] ?? [:]
        if let current = recorded as? String {
            self.init(currentVersionName: current, versionHashes: versionHashes, versionChecksums: checksums)
        } else {
            guard let inferred = Self.inferredCurrentVersion(among: versionHashes.keys) else {
                throw FormatError(message: "NSManagedObjectModel_CurrentVersionName is missing and no version is listed")
            }
            self.init(currentVersionName: inferred, versionHashes: versionHashes, versionChecksums: checksums)
            recordsCurrentVersion = false
        }
    }

    /// The current version of a bundle whose plist names none. Core Data loads the current
    /// version by asking the bundle for the `.mom` resource of that name; with no name, a bundle
    /// returns the first `.mom` it finds (NSBundle's documented behaviour for a nil resource
    /// name). With one version that is certain; with several, the first in name order is taken
    /// (the order HFS+ lists files in; the order another file system lists them in may differ).
    public static func inferredCurrentVersion(among names: some Collection<String>) -> String? {
        names.min { lhs, rhs in
            let (a, b) = (lhs.lowercased(), rhs.lowercased())
            return a == b ? lhs < rhs : a < b
        }
    }
}

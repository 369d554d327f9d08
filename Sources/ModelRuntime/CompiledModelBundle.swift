import Foundation
import ModelSchema
import ModelStore

/// A compiled model bundle (`<Name>.momd`) as an app or server sees it at run time: its versions,
/// the current one, each version's checksum and entity version hashes. Reading it needs no Core
/// Data, so it works on every platform.
public struct CompiledModelBundle: Sendable {
    public struct Version: Sendable, Equatable {
        public let name: String
        /// `NSManagedObjectModel.versionChecksum`; nil in bundles from tools that did not record it.
        public let checksum: String?
        /// Entity name → 32-byte version hash.
        public let entityHashes: [String: Data]
    }

    public struct ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The bundle's folder.
    public let url: URL
    /// The bundle's name (`Trips` for `Trips.momd`).
    public let name: String
    public let currentVersionName: String
    /// The versions, sorted by name.
    public let versions: [Version]

    public var currentVersion: Version? { versions.first { $0.name == currentVersionName } }

    /// Reads the bundle's `VersionInfo.plist`.
    public init(contentsOf url: URL) throws(ReadError) {
        let plist = url.appendingPathComponent(VersionInfo.fileName)
        guard let data = FileManager.default.contents(atPath: plist.path) else {
            throw ReadError(message: "\(url.lastPathComponent) has no readable \(VersionInfo.fileName)")
        }
        let info: VersionInfo
        do {
            info = try VersionInfo(plist: data)
        } catch {
            throw ReadError(message: "\(url.lastPathComponent)/\(VersionInfo.fileName): \(error.message)")
        }
        self.url = url
        name = url.deletingPathExtension().lastPathComponent
        currentVersionName = info.currentVersionName
        versions = info.versionHashes.keys.sorted().map { versionName in
            Version(
                name: versionName, checksum: info.versionChecksums[versionName],
                entityHashes: info.versionHashes[versionName]!.mapValues { Data($0) })
        }
    }

    /// Finds `<name>.momd` in `bundle` (for a package target built with the modelgen plugin,
    /// `Bundle.module`).
    public init(named name: String, in bundle: Bundle) throws(ReadError) {
        guard let url = bundle.url(forResource: name, withExtension: "momd") else {
            throw ReadError(message: "no \(name).momd in \(bundle.bundleURL.lastPathComponent)")
        }
        try self.init(contentsOf: url)
    }

    /// Decodes one version's `<version>.mom` from the bundle.
    public func decodeVersion(named versionName: String) throws(ReadError) -> DecodedMom {
        guard versionName.firstIndex(where: { $0 == "/" || $0 == "\\" }) == nil, versionName != "..", versionName != "." else {
            throw ReadError(message: "'\(versionName)' is not a version name")
        }
        return try Self.decodeMom(at: url.appendingPathComponent("\(versionName).mom"))
    }

    /// Decodes the current version's `.mom`.
    public func decodeCurrentVersion() throws(ReadError) -> DecodedMom {
        try decodeVersion(named: currentVersionName)
    }

    /// Files larger than this are refused before reading: no real model comes near it.
    public static let maximumMomSize = 64 << 20

    /// Decodes a single `.mom` file; the version is named after the file.
    public static func decodeMom(at url: URL) throws(ReadError) -> DecodedMom {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        guard let size else { throw ReadError(message: "\(url.lastPathComponent) is not a readable file") }
        guard size <= maximumMomSize else {
            throw ReadError(message: "\(url.lastPathComponent) is larger than \(maximumMomSize >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ReadError(message: "\(url.lastPathComponent) is not a readable file")
        }
        do {
            return try CompiledModel.decodeMom([UInt8](data), versionName: url.deletingPathExtension().lastPathComponent)
        } catch {
            throw ReadError(message: "\(url.lastPathComponent): \(error.message)")
        }
    }

    /// The version that wrote a store, given the store's metadata (what
    /// `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)` returns, or the
    /// decoded `Z_METADATA` plist): the version whose entity hashes equal the store's
    /// `NSStoreModelVersionHashes`. Nil when no version matches.
    public func version(matchingStoreMetadata metadata: [String: Any]) -> Version? {
        guard let hashes = StoreModelMatch.entityHashes(inMetadata: metadata) else { return nil }
        let candidates = versions.map { StoreModelMatch.Candidate(name: $0.name, entityHashes: $0.entityHashes.mapValues { [UInt8]($0) }) }
        guard let name = StoreModelMatch.match(hashes, against: candidates).matchingVersion else { return nil }
        return versions.first { $0.name == name }
    }
}

import Foundation
import ModelSchema

/// Which model version wrote a store, or how the store differs from every version: the one
/// matcher of store metadata to model versions, used by `modelgen inspect-store` and by the
/// runtime (`CompiledModelBundle`).
///
/// A version matches when its entity hashes equal the store's `NSStoreModelVersionHashes`.
/// Several versions can have the same hashes (Core Data treats them as one schema); then the
/// store's `NSStoreModelVersionIdentifiers` decide, when the caller knows the versions'
/// identifiers.
public struct StoreModelMatch: Sendable, Equatable {
    public struct EntityDifference: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// In the model version, not in the store.
            case onlyInModel = "only in the model"
            /// In the store, not in the model version.
            case onlyInStore = "only in the store"
            /// In both, with different version hashes.
            case changed = "changed"
        }

        public let entityName: String
        public let kind: Kind

        public init(entityName: String, kind: Kind) {
            self.entityName = entityName
            self.kind = kind
        }
    }

    /// A version to match: its name, entity name → 32-byte version hash, and (when known) its
    /// version identifier (`NSManagedObjectModel.versionIdentifiers`, Xcode's "Identifier").
    public struct Candidate: Sendable {
        public let name: String
        public let entityHashes: [String: [UInt8]]
        public let versionIdentifier: String?

        public init(name: String, entityHashes: [String: [UInt8]], versionIdentifier: String? = nil) {
            self.name = name
            self.entityHashes = entityHashes
            self.versionIdentifier = versionIdentifier
        }
    }

    /// Every candidate whose entity hashes equal the store's, in candidate order.
    public let sameHashVersions: [String]
    /// The version that wrote the store: the one candidate with the store's hashes, or among
    /// several the one whose identifier the store recorded. Nil when none has the store's
    /// hashes, or when the identifiers leave several candidates (see ``isAmbiguous``).
    public let matchingVersion: String?
    /// When no candidate has the store's hashes: the one with the fewest differences (ties go to
    /// the later candidate, the newer version), and those differences.
    public let closestVersion: String?
    public let differences: [EntityDifference]

    /// Several candidates have the store's hashes and the identifiers do not single one out.
    public var isAmbiguous: Bool { sameHashVersions.count > 1 && matchingVersion == nil }

    /// Matches store hashes against candidates. `storeIdentifiers` are the store's
    /// `NSStoreModelVersionIdentifiers`; pass nil when the candidates' identifiers are unknown,
    /// and the first candidate with the store's hashes is taken.
    public static func match(
        _ storeHashes: [String: [UInt8]], identifiers storeIdentifiers: [String]? = nil, against candidates: [Candidate]
    )
        -> StoreModelMatch
    {
        let same = candidates.filter { $0.entityHashes == storeHashes }
        if !same.isEmpty {
            var chosen = same.count == 1 || storeIdentifiers == nil ? same.first : nil
            if chosen == nil, let storeIdentifiers {
                // A version without an identifier matches a store that recorded none.
                let recorded = Set(storeIdentifiers.filter { !$0.isEmpty })
                let identified = same.filter { Set([$0.versionIdentifier].compactMap { $0 }.filter { !$0.isEmpty }) == recorded }
                chosen = identified.count == 1 ? identified[0] : nil
            }
            return StoreModelMatch(
                sameHashVersions: same.map(\.name), matchingVersion: chosen?.name, closestVersion: nil, differences: [])
        }
        var best: (version: String, differences: [EntityDifference])?
        for candidate in candidates.reversed() {
            let differences = Self.differences(storeHashes, candidate.entityHashes)
            if best == nil || differences.count < best!.differences.count { best = (candidate.name, differences) }
        }
        return StoreModelMatch(
            sameHashVersions: [], matchingVersion: nil, closestVersion: best?.version, differences: best?.differences ?? [])
    }

    /// Matches a store against the versions of a model, deciding between same-hash versions by
    /// the store's version identifiers.
    public static func match(_ store: StoreMetadata, against model: Model) -> StoreModelMatch {
        match(
            store.entityHashes, identifiers: store.versionIdentifiers,
            against: model.versions.map {
                Candidate(name: $0.name, entityHashes: VersionHashes($0).entityHashes, versionIdentifier: $0.versionIdentifier)
            })
    }

    /// `NSStoreModelVersionHashes` of store metadata (the decoded `Z_METADATA` plist, or what
    /// `NSPersistentStoreCoordinator.metadataForPersistentStore` returns); nil when the key is
    /// missing or a value is not data.
    public static func entityHashes(inMetadata metadata: [String: Any]) -> [String: [UInt8]]? {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Any] else { return nil }
        var hashes: [String: [UInt8]] = [:]
        for (entity, value) in stored {
            guard let data = value as? Data else { return nil }
            hashes[entity] = [UInt8](data)
        }
        return hashes
    }

    static func differences(_ store: [String: [UInt8]], _ model: [String: [UInt8]]) -> [EntityDifference] {
        var result: [EntityDifference] = []
        for name in Set(store.keys).union(model.keys).sorted() {
            switch (store[name], model[name]) {
            case (nil, _?): result.append(.init(entityName: name, kind: .onlyInModel))
            case (_?, nil): result.append(.init(entityName: name, kind: .onlyInStore))
            case (let a?, let b?) where a != b: result.append(.init(entityName: name, kind: .changed))
            default: break
            }
        }
        return result
    }
}

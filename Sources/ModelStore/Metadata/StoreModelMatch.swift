import Foundation
import ModelSchema

/// Which model version wrote a store, or how the store differs from every version: the one
/// matcher of store metadata to model versions, used by `modelgen inspect-store` and by the
/// runtime (`CompiledModelBundle`).
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

    /// A version to match: its name and entity name → 32-byte version hash.
    public struct Candidate: Sendable {
        public let name: String
        public let entityHashes: [String: [UInt8]]

        public init(name: String, entityHashes: [String: [UInt8]]) {
            self.name = name
            self.entityHashes = entityHashes
        }
    }

    /// The version whose entity hashes equal the store's, if any.
    public let matchingVersion: String?
    /// When nothing matches: the version with the fewest differences, and those differences.
    public let closestVersion: String?
    public let differences: [EntityDifference]

    /// Matches store hashes against candidates in order of preference: the first exact match
    /// wins; otherwise the first candidate with the fewest differences is the closest.
    public static func match(_ storeHashes: [String: [UInt8]], against candidates: [Candidate]) -> StoreModelMatch {
        var best: (version: String, differences: [EntityDifference])?
        for candidate in candidates {
            let differences = Self.differences(storeHashes, candidate.entityHashes)
            if differences.isEmpty { return StoreModelMatch(matchingVersion: candidate.name, closestVersion: nil, differences: []) }
            if best == nil || differences.count < best!.differences.count { best = (candidate.name, differences) }
        }
        return StoreModelMatch(matchingVersion: nil, closestVersion: best?.version, differences: best?.differences ?? [])
    }

    /// Matches a store against the versions of a model, newest first: if two versions hash
    /// alike, the newer one is the better answer.
    public static func match(_ store: StoreMetadata, against model: Model) -> StoreModelMatch {
        match(
            store.entityHashes,
            against: model.versions.reversed().map { Candidate(name: $0.name, entityHashes: VersionHashes($0).entityHashes) })
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

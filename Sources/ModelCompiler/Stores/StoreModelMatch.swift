import ModelSchema

/// Which version of a model wrote a store, or how the store differs from every version.
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
    }

    /// The version whose entity hashes equal the store's, if any.
    public let matchingVersion: String?
    /// When nothing matches: the version with the fewest differences, and those differences.
    public let closestVersion: String?
    public let differences: [EntityDifference]

    public static func match(_ store: StoreMetadata, against model: Model) -> StoreModelMatch {
        var best: (version: String, differences: [EntityDifference])?
        // Newest first: if two versions hash alike, the newer one is the better answer.
        for version in model.versions.reversed() {
            let differences = Self.differences(store.entityHashes, VersionHashes(version).entityHashes)
            if differences.isEmpty { return StoreModelMatch(matchingVersion: version.name, closestVersion: nil, differences: []) }
            if best == nil || differences.count < best!.differences.count { best = (version.name, differences) }
        }
        return StoreModelMatch(matchingVersion: nil, closestVersion: best?.version, differences: best?.differences ?? [])
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

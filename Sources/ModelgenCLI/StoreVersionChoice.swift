import ModelSchema

/// Which of several model versions with identical entity hashes wrote a store. Core Data cannot
/// tell such versions apart by hashes (they are compatible with the same stores); the store's
/// `NSStoreModelVersionIdentifiers` (the writing model's `versionIdentifiers`, a version's
/// "Identifier" in Xcode) can.
struct StoreVersionChoice: Equatable {
    /// Every version whose entity hashes equal the store's, in the model's order.
    let candidates: [String]
    /// The one candidate whose version identifier the store recorded; nil when the identifiers
    /// leave it ambiguous.
    let chosen: String?

    /// Nil when fewer than two versions have the store's hashes (nothing to choose between).
    static func choose(storeHashes: [String: [UInt8]], storeIdentifiers: [String], versions: [ModelVersion]) -> StoreVersionChoice? {
        let matching = versions.filter { VersionHashes($0).entityHashes == storeHashes }
        guard matching.count > 1 else { return nil }
        let recorded = Set(storeIdentifiers)
        let identified = matching.filter { Set($0.versionIdentifier.map { [$0] } ?? []) == recorded }
        return StoreVersionChoice(candidates: matching.map(\.name), chosen: identified.count == 1 ? identified[0].name : nil)
    }

    /// The text line for `inspect-store`.
    var description: String {
        let names = candidates.map { "'\($0)'" }.joined(separator: ", ")
        if let chosen {
            return
                "written by model version: \(chosen) (versions \(names) have the same hashes; the store's version identifiers name '\(chosen)')"
        }
        return
            "written by one of the model versions \(names): they have the same hashes, and the store's version identifiers do not tell them apart"
    }
}

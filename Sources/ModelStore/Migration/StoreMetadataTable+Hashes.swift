import ModelSchema

extension StoreMetadataTable {
    /// The store's `NSStoreModelVersionHashes`, read from `Z_METADATA` alone (no table scans);
    /// nil when the store has no metadata or the hashes are not data.
    public static func entityHashes(_ connection: StoreConnection) throws -> [String: [UInt8]]? {
        guard case .dictionary(let members)? = try read(connection)?.plist["NSStoreModelVersionHashes"] else { return nil }
        var hashes: [String: [UInt8]] = [:]
        for member in members {
            guard case .data(let bytes) = member.value else { return nil }
            hashes[member.key] = bytes
        }
        return hashes
    }
}

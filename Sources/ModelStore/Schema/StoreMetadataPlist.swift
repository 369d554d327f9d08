import ModelSchema

/// The metadata property list Core Data writes into `Z_METADATA.Z_PLIST`, with the keys and value
/// types of the fixture stores. The store UUID is not in the plist: it is `Z_METADATA.Z_UUID`
/// (`NSStoreUUID` in the dictionary the coordinator returns).
public enum StoreMetadataPlist {
    /// The `NSPersistenceFrameworkVersion` written: that of the newest fixture store (Xcode 15
    /// era Core Data). Core Data records it for information; it does not gate opening a store.
    public static let frameworkVersion: Int64 = 1344

    public static func make(for version: ModelVersion) -> PropertyList {
        let hashes = VersionHashes(version)
        let members: [(key: String, value: PropertyList)] = [
            ("NSPersistenceFrameworkVersion", .integer(frameworkVersion)),
            ("NSStoreModelVersionChecksumKey", .string(hashes.versionChecksum)),
            ("NSStoreModelVersionHashes", .dictionary(hashes.sortedEntityNames.map { ($0, .data(hashes.entityHashes[$0]!)) })),
            ("NSStoreModelVersionHashesDigest", .string(hashes.hashesDigest)),
            ("NSStoreModelVersionHashesVersion", .integer(3)),
            ("NSStoreModelVersionIdentifiers", .array([.string(version.versionIdentifier ?? "")])),
            ("NSStoreType", .string("SQLite")),
            ("_NSAutoVacuumLevel", .string("2")),
        ]
        return .dictionary(members)
    }
}

/// What a Core Data SQLite store says about itself.
public struct StoreMetadata: Sendable, Equatable {
    public struct EntityTable: Sendable, Equatable {
        public let entityName: String
        public let entityNumber: Int
        /// The table holding the entity's rows: that of the root of its inheritance tree.
        public let tableName: String
        /// Rows of exactly this entity (not of its sub-entities).
        public let rowCount: Int
    }

    public let storeUUID: String
    public let storeType: String?
    public let frameworkVersion: Int?
    public let versionIdentifiers: [String]
    public let entityHashes: [String: [UInt8]]
    public let hashesDigest: String?
    public let versionChecksum: String?
    public let entityTables: [EntityTable]
}

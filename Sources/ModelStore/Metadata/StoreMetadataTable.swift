import Foundation
import ModelSchema

/// Reads and writes the `Z_METADATA` row: the store UUID and the metadata property list.
public enum StoreMetadataTable {
    public struct Row: Sendable, Equatable {
        public var storeUUID: String
        public var plist: PropertyList
    }

    /// The metadata row, or nil when the table is empty.
    public static func read(_ connection: StoreConnection) throws -> Row? {
        let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard let row = rows.first else { return nil }
        let plist = try BinaryPropertyList.decode(row[1].blobValue ?? [])
        return Row(storeUUID: row[0].textValue ?? "", plist: plist)
    }

    /// Replaces the metadata row (`Z_VERSION` 1).
    public static func write(_ row: Row, to connection: StoreConnection) throws {
        let statement = try connection.cachedStatement("INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        statement.bind(row.storeUUID, at: 1)
        statement.bind(bytes: BinaryPropertyList.encode(row.plist), at: 2)
        try statement.step()
        statement.reset()
    }
}

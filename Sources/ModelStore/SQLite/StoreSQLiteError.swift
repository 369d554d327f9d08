import CSQLite

/// A failed SQLite call on a store connection: SQLite's result code and message.
public struct StoreSQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite's (extended) result code, e.g. `SQLITE_CONSTRAINT` (19).
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The primary result code (the low byte of an extended code).
    public var primaryCode: Int32 { code & 0xff }

    /// True for `SQLITE_BUSY`/`SQLITE_LOCKED`: another connection holds a lock.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
}

/// A value of a SQLite column or parameter.
public enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var textValue: String? { if case .text(let value) = self { value } else { nil } }
    public var blobValue: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

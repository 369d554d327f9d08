import CSQLite

/// A prepared statement. Parameters and columns are addressed by index (parameters from 1, as
/// SQLite counts; columns from 0), never by name, so hot paths do no string lookups.
public final class Statement {
    @usableFromInline let handle: OpaquePointer
    private let connection: OpaquePointer

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // MARK: Binding (1-based)

    public func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    public func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }
    /// Binds the string's UTF-8 bytes with their length, so text containing NUL stays whole.
    public func bind(_ value: String, at index: Int32) {
        var text = value
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
                return
            }
            _ = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(buffer.count), Self.transient, UInt8(SQLITE_UTF8))
            }
        }
    }
    public func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    public func bind(bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buffer in
            // A zero-length blob is bound as an empty blob, not NULL.
            _ = sqlite3_bind_blob64(
                handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count), Self.transient)
        }
    }

    public func bind(_ value: SQLiteValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let number): bind(number, at: index)
        case .real(let number): bind(number, at: index)
        case .text(let text): bind(text, at: index)
        case .blob(let bytes): bind(bytes: bytes, at: index)
        }
    }

    /// Binds values to parameters 1, 2, ….
    public func bind(_ values: [SQLiteValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Stepping

    /// Runs one step: true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws(StoreSQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw StoreSQLiteError(code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    /// Resets the statement for reuse and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Makes the statement ready to run again with its parameters as they are, for a loop that
    /// binds every parameter before each step (clearing them would be wasted work per row).
    public func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    // MARK: Reading (0-based)

    public var columnCount: Int32 { sqlite3_column_count(handle) }
    // Column reads run once per column of every fetched row: inlinable, so a reader in another
    // module calls SQLite directly.
    @inlinable public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    @inlinable public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inlinable public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func string(at column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    public func bytes(at column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    public func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(at: column))
        case SQLITE_FLOAT: .real(double(at: column))
        case SQLITE_TEXT: .text(string(at: column) ?? "")
        case SQLITE_BLOB: .blob(bytes(at: column) ?? [])
        default: .null
        }
    }
}

import CSQLite
import Foundation

/// One SQLite connection to a Core Data store, with Core Data's SQL functions and collations
/// registered, a prepared-statement cache and transactions. Not thread-safe: one owner (a
/// coordinator's queue) uses it at a time.
public final class StoreConnection {
    public enum OpenMode: Sendable {
        /// Open an existing store for reading only.
        case readOnly
        /// Open an existing store for reading and writing.
        case readWrite
        /// Open, creating the file when it does not exist.
        case create
    }

    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// A derived attribute's trigger reported a new value (Core Data's
    /// `NSCoreDataDATrigger…`/`NSCoreDataTriggerUpdateAffectedObjectValue` functions): the
    /// object (table, entity number, primary key) whose property changed inside SQLite.
    public struct DerivedValueChange: Hashable, Sendable {
        public let tableName: String
        public let entityNumber: Int64
        public let primaryKey: Int64
        public let propertyName: String
        public let value: SQLiteValue
    }

    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    let functionContext = FunctionContext()

    /// The row changes reported by derived-attribute triggers since the last
    /// ``takeDerivedValueChanges()``.
    public var derivedValueChanges: [DerivedValueChange] { functionContext.changes }

    /// Opens `path` (a file path, or a `file:` URI with query parameters such as `mode=ro`).
    public init(path: String, mode: OpenMode) throws(StoreSQLiteError) {
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open the database"
            sqlite3_close_v2(opened)
            throw StoreSQLiteError(code: result, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5_000)
        try CoreDataSQLFunctions.register(on: self)
    }

    /// Opens an existing store for reading and writing with Core Data's connection pragmas.
    public static func openStore(at path: String) throws(StoreSQLiteError) -> StoreConnection {
        let connection = try StoreConnection(path: path, mode: .readWrite)
        try connection.applyConnectionPragmas()
        return connection
    }

    /// An empty in-memory database (for tests and for images of stores built in memory).
    public convenience init() throws(StoreSQLiteError) {
        try self.init(path: ":memory:", mode: .create)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Core Data's pragmas

    /// The page size Core Data's stores use (observed in every fixture store).
    public static let pageSize = 4096

    /// Sets up a new, empty store file the way Core Data does: 4096-byte pages, incremental
    /// auto-vacuum (`auto_vacuum = 2`, recorded as `_NSAutoVacuumLevel` in the metadata), WAL
    /// journal. Must run before the first table is created.
    public func applyNewStorePragmas() throws(StoreSQLiteError) {
        try execute("PRAGMA page_size = \(Self.pageSize)")
        try execute("PRAGMA auto_vacuum = 2")
        try applyConnectionPragmas()
    }

    /// Per-connection settings: WAL journal and `synchronous = NORMAL`. In WAL mode NORMAL keeps
    /// the store consistent after a crash or power loss and loses at most the last transactions
    /// before a power loss; FULL would sync the WAL on every commit. Core Data's own default is
    /// not documented for Linux; this is the project's choice (see docs/StoreFormat.md).
    public func applyConnectionPragmas() throws(StoreSQLiteError) {
        _ = try rows("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    // MARK: Statements

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(StoreSQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw StoreSQLiteError(code: sqlite3_extended_errcode(handle), message: text)
        }
    }

    /// Prepares a statement the caller owns.
    public func prepare(_ sql: String) throws(StoreSQLiteError) -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw StoreSQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        return Statement(handle: statement, connection: handle)
    }

    /// A statement from the connection's cache, reset and with cleared bindings. Hot paths keep
    /// the returned statement instead of looking it up by text on every use.
    public func cachedStatement(_ sql: String) throws(StoreSQLiteError) -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a query and returns every row (for bookkeeping tables, not for hot paths).
    public func rows(_ sql: String, _ bindings: [SQLiteValue] = []) throws(StoreSQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        statement.bind(bindings)
        var result: [[SQLiteValue]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return result
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    public func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: () throws -> Result) throws -> Result {
        // BEGIN and COMMIT run with every save: prepared once and reused, not parsed again by
        // `sqlite3_exec` each time.
        switch kind {
        case .deferred: try run("BEGIN DEFERRED")
        case .immediate: try run("BEGIN IMMEDIATE")
        case .exclusive: try run("BEGIN EXCLUSIVE")
        }
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs a statement without parameters or rows through the statement cache.
    private func run(_ sql: String) throws(StoreSQLiteError) {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        _ = try statement.step()
    }

    /// Sets what `NSPersistentHistoryBatchDeleteUpdateTrigger(Z_ENT, name, …)` returns: the
    /// `ACHANGE.ZCOLUMNS` bit map of the named properties of an entity (nil for an unknown
    /// entity). The model lives above this layer, so the runtime supplies it per store.
    public func setHistoryColumnMask(_ mask: @escaping (_ entityNumber: Int64, _ propertyNames: [String]) -> [UInt8]?) {
        functionContext.historyColumnMask = mask
    }

    /// Returns and clears the changes reported by derived-attribute triggers.
    public func takeDerivedValueChanges() -> [DerivedValueChange] {
        defer { functionContext.changes.removeAll() }
        return functionContext.changes
    }
}

/// State the registered SQL functions share with their connection (passed as SQLite user data).
final class FunctionContext {
    var changes: [StoreConnection.DerivedValueChange] = []
    var historyColumnMask: ((Int64, [String]) -> [UInt8]?)?
}

extension StoreConnection {
    /// A read-only in-memory connection over a database image (e.g. from ``WALReplay``).
    public static func readOnlyImage(_ bytes: [UInt8]) throws(StoreSQLiteError) -> StoreConnection {
        let connection = try StoreConnection()
        guard let buffer = sqlite3_malloc64(UInt64(max(bytes.count, 1)))?.assumingMemoryBound(to: UInt8.self) else {
            throw StoreSQLiteError(code: SQLITE_NOMEM, message: "out of memory")
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
        let result = sqlite3_deserialize(connection.handle, "main", buffer, Int64(bytes.count), Int64(bytes.count), flags)
        guard result == SQLITE_OK else {
            throw StoreSQLiteError(code: result, message: String(cString: sqlite3_errmsg(connection.handle)))
        }
        return connection
    }
}

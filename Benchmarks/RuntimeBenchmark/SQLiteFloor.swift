#if !canImport(CoreData)
import CSQLite
import Foundation

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The floor: the same work with plain SQLite C calls on a store of the same layout (`ZITEM`),
/// with prepared statements, the runtime's pragmas (WAL, `synchronous = NORMAL`) and every column read.
final class SQLiteFloor {
    private var db: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    static let columns = "Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZSCORE, ZCREATED, ZFLAG"

    init(url: URL) throws {
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot open \(url.path)")
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ sql: String) -> BenchmarkError {
        BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return statement
    }

    private func step(_ statement: OpaquePointer, expecting code: Int32) throws {
        guard sqlite3_step(statement) == code else { throw failure(String(cString: sqlite3_sql(statement))) }
    }

    /// The entity number of `Item` (its `Z_ENT`).
    func entityNumber() throws -> Int64 {
        let statement = try prepare("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
        defer { sqlite3_finalize(statement) }
        try step(statement, expecting: SQLITE_ROW)
        return sqlite3_column_int64(statement, 0)
    }

    /// Inserts rows `0..<count` (`Z_PK` 1…count) and advances `Z_MAX`, in one transaction.
    func insert(_ count: Int) throws -> Int {
        let entity = try entityNumber()
        let insert = try prepare("INSERT INTO ZITEM (\(Self.columns)) VALUES (?, ?, 1, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(insert) }
        try execute("BEGIN IMMEDIATE")
        for index in 0..<count {
            sqlite3_bind_int64(insert, 1, Int64(index + 1))
            sqlite3_bind_int64(insert, 2, entity)
            sqlite3_bind_int64(insert, 3, Int64(index))
            sqlite3_bind_text(insert, 4, RuntimeWork.name(index), -1, Self.transient)
            sqlite3_bind_double(insert, 5, RuntimeWork.score(index))
            sqlite3_bind_double(insert, 6, RuntimeWork.created(index).timeIntervalSinceReferenceDate)
            sqlite3_bind_int64(insert, 7, RuntimeWork.flag(index) ? 1 : 0)
            try step(insert, expecting: SQLITE_DONE)
            sqlite3_reset(insert)
        }
        try execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + \(count) WHERE Z_NAME = 'Item'")
        try execute("COMMIT")
        return count
    }

    /// Steps `statement` to the end reading every column into Swift values (text as `String`,
    /// the timestamp as `Date`), as an object's values would be; returns the rows read.
    private func readAll(_ statement: OpaquePointer, checksum: inout Int) throws -> Int {
        var rows = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(String(cString: sqlite3_sql(statement))) }
            let pk = sqlite3_column_int64(statement, 0)
            let ent = sqlite3_column_int64(statement, 1)
            let opt = sqlite3_column_int64(statement, 2)
            let id = sqlite3_column_int64(statement, 3)
            let name = sqlite3_column_text(statement, 4).map { String(cString: $0) } ?? ""
            let score = sqlite3_column_double(statement, 5)
            let created = Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 6))
            let flag = sqlite3_column_int64(statement, 7) != 0
            checksum &+= Int(pk &+ ent &+ opt &+ id) &+ name.utf8.count &+ Int(score)
            checksum &+= Int(created.timeIntervalSinceReferenceDate) &+ (flag ? 1 : 0)
            rows += 1
        }
        sqlite3_reset(statement)
        return rows
    }

    func fetchAll(checksum: inout Int) throws -> Int {
        let select = try prepare("SELECT \(Self.columns) FROM ZITEM")
        defer { sqlite3_finalize(select) }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try readAll(select, checksum: &checksum)
    }

    func filtered(limit: Int, repeats: Int, checksum: inout Int) throws -> Int {
        let select = try prepare("SELECT \(Self.columns) FROM ZITEM WHERE ZID < ?")
        defer { sqlite3_finalize(select) }
        var rows = 0
        for _ in 0..<repeats {
            sqlite3_bind_int64(select, 1, Int64(limit))
            rows += try readAll(select, checksum: &checksum)
        }
        return rows
    }

    /// Every row's values into a `[String: Any]`, as a dictionary-result fetch gives them.
    func dictionaries(checksum: inout Int) throws -> Int {
        let select = try prepare("SELECT ZID, ZNAME, ZSCORE, ZCREATED, ZFLAG FROM ZITEM")
        defer { sqlite3_finalize(select) }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        var rows = 0
        while sqlite3_step(select) == SQLITE_ROW {
            let id = sqlite3_column_int64(select, 0)
            let name = sqlite3_column_text(select, 1).map { String(cString: $0) } ?? ""
            let score = sqlite3_column_double(select, 2)
            let created = Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 3))
            let flag = sqlite3_column_int64(select, 4) != 0
            checksum &+= Int(id) &+ name.utf8.count &+ Int(score) &+ Int(created.timeIntervalSinceReferenceDate) &+ (flag ? 1 : 0)
            rows += 1
        }
        return rows
    }

    /// `count` times, each in its own transaction as a save is: read the row by `ZID`, write its
    /// score and `Z_OPT`.
    func updates(_ count: Int, of rows: Int) throws -> Int {
        let select = try prepare("SELECT \(Self.columns) FROM ZITEM WHERE ZID = ? LIMIT 1")
        let update = try prepare("UPDATE ZITEM SET ZSCORE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
        defer {
            sqlite3_finalize(select)
            sqlite3_finalize(update)
        }
        for index in 0..<count {
            let key = (index &* 7_919) % rows
            sqlite3_bind_int64(select, 1, Int64(key))
            guard sqlite3_step(select) == SQLITE_ROW else { throw BenchmarkError("no row with ZID \(key)") }
            let pk = sqlite3_column_int64(select, 0)
            let opt = sqlite3_column_int64(select, 2)
            _ = sqlite3_column_text(select, 4).map { String(cString: $0) }
            sqlite3_reset(select)
            try execute("BEGIN IMMEDIATE")
            sqlite3_bind_double(update, 1, Double(index) + 0.25)
            sqlite3_bind_int64(update, 2, opt + 1)
            sqlite3_bind_int64(update, 3, pk)
            sqlite3_bind_int64(update, 4, opt)
            try step(update, expecting: SQLITE_DONE)
            sqlite3_reset(update)
            try execute("COMMIT")
        }
        return count
    }
}
#endif

import CSQLite

extension StoreConnection {
    /// Copies this connection's whole database into `destination` with SQLite's online backup,
    /// replacing everything `destination` held, in one step (readers of the destination see the
    /// old database or the new one, never a mix). Committed changes still in this database's
    /// write-ahead log are copied too.
    public func copyDatabase(into destination: StoreConnection) throws(StoreSQLiteError) {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw StoreSQLiteError(code: sqlite3_errcode(destination.handle), message: String(cString: sqlite3_errmsg(destination.handle)))
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else {
            throw StoreSQLiteError(code: stepped, message: "copying the store failed: \(String(cString: sqlite3_errstr(stepped)))")
        }
        guard finished == SQLITE_OK else {
            throw StoreSQLiteError(code: finished, message: String(cString: sqlite3_errmsg(destination.handle)))
        }
    }
}

#if !canImport(CoreData)
import ModelQuery
import ModelStore

/// `NSSQLitePragmasOption`: SQLite pragmas Core Data runs on a store's connection when the store
/// is added (`["synchronous": "FULL"]`, `["journal_mode": "DELETE"]`), after the connection's own
/// settings (WAL, `synchronous = NORMAL`), so they override them.
enum StorePragmas {
    /// The option's pragmas in name order: a dictionary of names to strings or numbers. Names
    /// must be SQL identifiers (optionally `schema.name`); a value that is not a plain word or
    /// number is passed as a quoted SQL string, so no value can add a statement.
    static func parse(_ option: Any?) throws -> [(name: String, value: String)] {
        guard let option, !(option is NSNull) else { return [] }
        var entries: [(String, Any)] = []
        if let dictionary = option as? [String: Any] {
            entries = dictionary.map { ($0.key, $0.value) }
        } else if let dictionary = option as? NSDictionary {
            for (key, value) in dictionary {
                guard let key = key as? String else { throw invalid("a pragma name is not a string: \(key)") }
                entries.append((key, value))
            }
        } else {
            throw invalid("the option must be a dictionary of pragma names and values, not \(type(of: option))")
        }
        var pragmas: [(name: String, value: String)] = []
        for (name, value) in entries.sorted(by: { $0.0 < $1.0 }) {
            guard isPragmaName(name) else { throw invalid("'\(name)' is not a pragma name") }
            guard let text = sqlText(value) else { throw invalid("the value of pragma \(name) is not a string or number: \(value)") }
            pragmas.append((name, text))
        }
        return pragmas
    }

    /// Runs `PRAGMA name = value` for each pragma.
    static func apply(_ pragmas: [(name: String, value: String)], to connection: StoreConnection) throws(StoreSQLiteError) {
        for pragma in pragmas { _ = try connection.rows("PRAGMA \(pragma.name) = \(pragma.value)") }
    }

    private static func isPragmaName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
                return false
            }
            return part.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
        }
    }

    /// The value as SQL: plain words and numbers as they are, anything else as a quoted string.
    private static func sqlText(_ value: Any) -> String? {
        let text: String
        switch value {
        case let value as String: text = value
        case let value as Bool: text = value ? "1" : "0"
        case let value as Int: text = String(value)
        case let value as Double: text = String(value)
        case let value as NSNumber: text = value.stringValue
        default: return nil
        }
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789_.+-".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private static func invalid(_ message: String) -> NSError {
        CoreDataError.make(NSPersistentStoreOpenError, "Invalid NSSQLitePragmasOption: \(message)")
    }
}
#endif
